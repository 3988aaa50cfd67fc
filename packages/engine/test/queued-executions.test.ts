import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionView } from '@svc/engine';
import { endpoint } from './helpers/flow-parts.js';
import { startHarness, TENANT, type Harness } from './helpers/harness.js';

/*
 * Runs past `maxConcurrentExecutions` wait as Queued. The poll is set far longer than any case
 * here, so a queued run that ends in time was started because room freed, not by the poll.
 */
const POLL_MS = 120_000;

/** An API that answers after 40 ms, so that runs overlap. */
let slowApi: Server;
let slowUrl: string;
beforeAll(async () => {
  slowApi = createServer((_request, response) => {
    setTimeout(() => response.setHeader('content-type', 'application/json').end('{"ok":true}'), 40);
  });
  await new Promise<void>((resolve) => slowApi.listen(0, '127.0.0.1', resolve));
  slowUrl = `http://127.0.0.1:${(slowApi.address() as AddressInfo).port}`;
});
afterAll(async () => {
  slowApi.closeAllConnections();
  await new Promise((resolve) => slowApi.close(resolve));
});

const slowCall = {
  name: 'slow-call',
  nodes: [endpoint('n1', 'Slow', { url: '{{env.baseUrl}}/slow' })],
  connections: [],
};

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function startMany(count: number): Promise<string[]> {
  const flow = await harness!.engine.flows.create(TENANT, slowCall, { allowDuplicateName: true });
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const record = await harness!.engine.startExecution({
      tenantId: TENANT,
      flowId: flow.id,
      env: { baseUrl: slowUrl },
    });
    ids.push(record.id);
  }
  return ids;
}

/** The most executions that ran at one time, from their stored start and end. */
function mostAtOnce(views: ExecutionView[]): number {
  const events = views.flatMap((view) => [
    { at: Date.parse(view.startedAt!), change: 1 },
    { at: Date.parse(view.endedAt!), change: -1 },
  ]);
  // At one instant an end comes before a start: the ending run made room for the next.
  events.sort((x, y) => x.at - y.at || x.change - y.change);
  let running = 0;
  let most = 0;
  for (const event of events) {
    running += event.change;
    most = Math.max(most, running);
  }
  return most;
}

describe('queued executions', () => {
  it('a worker starts a queued run as soon as one of its runs ends, never more than its capacity at once', async () => {
    harness = await startHarness({ maxConcurrentExecutions: 2, pollIntervalMs: POLL_MS });
    harness.engine.startWorker();
    const started = Date.now();
    const ids = await startMany(8);
    const statuses = await Promise.all(
      ids.map(async (id) => (await harness!.engine.getExecution(TENANT, id, { steps: false })).status),
    );
    expect(statuses.filter((status) => status === 'Queued').length).toBeGreaterThanOrEqual(4);

    const views = await Promise.all(ids.map((id) => harness!.engine.waitForExecution(TENANT, id, 10_000)));
    expect(views.map((view) => view.status)).toEqual(Array(8).fill('Completed'));
    // Eight 40 ms calls two at a time, not a poll interval.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(mostAtOnce(views)).toBeLessThanOrEqual(2);
  });

  it('a process that is not a worker leaves what it queued to the workers', async () => {
    harness = await startHarness({ maxConcurrentExecutions: 1, pollIntervalMs: POLL_MS });
    const [first, second] = await startMany(2);
    expect((await harness.engine.waitForExecution(TENANT, first!, 5_000)).status).toBe('Completed');
    // Give a wrongly eager claim the time to happen.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await harness.engine.getExecution(TENANT, second!, { steps: false })).status).toBe('Queued');
    // A worker takes it.
    harness.engine.startWorker();
    expect((await harness.engine.waitForExecution(TENANT, second!, 5_000)).status).toBe('Completed');
  });
});
