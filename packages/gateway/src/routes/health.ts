import type { Engine, Store } from '@svc/engine';
import { Hono } from 'hono';

/** Longest a readiness probe waits for the store before it answers 503. */
const STORE_PROBE_TIMEOUT_MS = 2_000;

/**
 * `GET /health`, for load balancers and orchestrators: no credentials, no envelope. 200
 * `{ status: "ok", store: "ok" }` while the process answers and its store can be read; 503
 * `{ status: "unavailable", store: "unavailable", error }` when a read of the store fails or does
 * not answer within 2 s.
 */
export function healthRoutes(deps: { engine: Engine; store?: Store }): Hono {
  // One small indexed read: the store is open, its file readable, its schema in place.
  const probe =
    deps.store !== undefined
      ? () => deps.store!.tenants.get('health-probe')
      : () => deps.engine.flows.list('health-probe', { limit: 1 });
  const app = new Hono();
  app.get('/', async (c) => {
    c.header('Cache-Control', 'no-store');
    const tooSlow = `the store did not answer within ${STORE_PROBE_TIMEOUT_MS} ms`;
    let timer: NodeJS.Timeout | undefined;
    try {
      const answered = await Promise.race([
        probe().then(() => true),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), STORE_PROBE_TIMEOUT_MS);
        }),
      ]);
      if (answered) return c.json({ status: 'ok', store: 'ok' }, 200);
      return c.json({ status: 'unavailable', store: 'unavailable', error: tooSlow }, 503);
    } catch {
      // Anyone may ask: the answer says what failed, never the store's own message (paths, SQL).
      return c.json({ status: 'unavailable', store: 'unavailable', error: 'the store could not be read' }, 503);
    } finally {
      clearTimeout(timer);
    }
  });
  return app;
}
