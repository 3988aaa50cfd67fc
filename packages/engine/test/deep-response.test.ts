import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers/harness.js';

/**
 *   Deep (an API answering JSON nested 100,000 levels) ──▶ After
 * The step completes with the body kept as text, its trace is stored, and the run goes on.
 */
describe('a response body nested far past the call stack', () => {
  let harness: Harness;
  let server: Server;
  let url: string;
  beforeAll(async () => {
    harness = await startHarness();
    server = createServer((_request, response) => {
      response.setHeader('content-type', 'application/json').end(`{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/deep`;
  });
  afterAll(async () => {
    await harness?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('is traced and read as text, and the run completes', async () => {
    const execution = await harness.run({
      name: 'deep-response',
      nodes: [
        { id: 'd', name: 'Deep', type: 'endpoint', config: { url } },
        { id: 'n', name: 'After', type: 'delay', config: { duration: '1ms' } },
      ],
      connections: [{ id: 'c1', source: 'd', target: 'n' }],
    });
    expect(execution.status).toBe('Completed');
    const response = execution.steps?.[0]?.response as { body?: unknown } | undefined;
    expect(typeof response?.body).toBe('string');
  });
});
