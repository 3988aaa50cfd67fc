import { SvcError, type Engine, type InboundRequest } from '@svc/engine';
import { Hono, type Context } from 'hono';
import { bodyLimit } from '../http/body-limit.js';
import { success } from '../http/envelope.js';
import { readRawRequest } from '../http/raw-request.js';

/** Largest webhook body accepted: a callback or trigger payload, not a file upload. */
export const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;

/** The request as the webhook service reads it: the exact bytes, header names lower-cased. */
async function inbound(c: Context): Promise<InboundRequest> {
  const { rawBody, headers } = await readRawRequest(c, MAX_WEBHOOK_BODY_BYTES);
  return { rawBody, headers, contentType: headers['content-type'] };
}

/**
 * The public webhook doors: no credentials of svc, since the sender is another system; the
 * node's verification method is the lock. `POST /webhooks/trigger/{path}` starts the flow whose
 * trigger holds the path; `POST /webhooks/callback/{token}` resumes the wait the token names.
 * Both answer 202 `{ executionId }` at once (200 with `duplicate` for a trigger request taken
 * before), and every refusal in the envelope.
 */
export function webhookRoutes(engine: Engine): Hono {
  const app = new Hono();
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_WEBHOOK_BODY_BYTES,
      onError: () => {
        throw new SvcError('PAYLOAD_TOO_LARGE', `a webhook body is at most ${MAX_WEBHOOK_BODY_BYTES} bytes`);
      },
    }),
  );
  app.post('/trigger/*', async (c) => {
    // Paths are URL-safe as saved, so the raw path is compared: an escaped one matches nothing.
    const path = c.req.path.slice(c.req.path.indexOf('/trigger/') + '/trigger/'.length);
    const started = await engine.webhooks.trigger(path, await inbound(c));
    // A request taken before started nothing now: 200, naming the execution it started then.
    return success(c, started, started.duplicate ? 200 : 202);
  });
  app.post('/callback/:token', async (c) => {
    const resumed = await engine.webhooks.callback(c.req.param('token'), await inbound(c));
    return success(c, resumed, 202);
  });
  return app;
}
