import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEgressPolicy, createEngine, parseEgressRules, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller } from './api-call.js';
import { stubAuthenticator } from './stub-authenticator.js';

/** A server that takes requests and never answers them. */
let silent: Server;
let baseUrl: string;
let received = 0;
let store: ReturnType<typeof openSqliteStore>;
let engine: Engine;
let app: ReturnType<typeof createApp>;
const call = apiCaller(() => app, 'key');

beforeAll(async () => {
  silent = createServer(() => {
    received += 1;
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  store = openSqliteStore({ path: ':memory:' });
  engine = await createEngine({
    store,
    egress: createEgressPolicy({ mode: 'service', allow: parseEgressRules('127.0.0.1', 'SVC_EGRESS_ALLOW') }),
  });
  app = createApp({ engine, authenticator: stubAuthenticator({ key: { tenantId: 'tenant-a' } }) });
});

afterAll(async () => {
  await engine?.stop({ graceMs: 1_000 });
  await store?.close();
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
});

const callWith = (config: object) => ({
  name: `call ${JSON.stringify(config)}`,
  nodes: [{ id: 'c', name: 'Call', type: 'endpoint', config: { url: '{{env.baseUrl}}/never', ...config } }],
});

describe('endpoint request timeouts', () => {
  it('refuses a timeout over a day at save with VALIDATION_ERROR naming the field, and takes a day', async () => {
    const tooLong = await call('POST', '/api/gateway/flows', { body: callWith({ timeout: '600h' }) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.error.code).toBe('VALIDATION_ERROR');
    expect(tooLong.json.error.details.problems).toEqual([
      expect.objectContaining({ path: 'nodes[0].config.timeout', message: 'expected a duration between 0ms and 1d' }),
    ]);

    const polling = {
      polling: {
        request: { url: '{{env.baseUrl}}/status', timeout: 90_000_000 },
        stopWhen: [{ target: 'body.done', operator: 'EXISTS' }],
      },
    };
    const pollTooLong = await call('POST', '/api/gateway/flows', { body: callWith(polling) });
    expect(pollTooLong.status).toBe(400);
    expect(pollTooLong.json.error.details.problems.map((problem: { path: string }) => problem.path)).toEqual([
      'nodes[0].config.polling.request.timeout',
    ]);

    expect((await call('POST', '/api/gateway/flows', { body: callWith({ timeout: '24h' }) })).status).toBe(201);
  });

  it('fails a step whose timeout template resolves past a day, sending nothing and warning of nothing', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    let executionId: string | undefined;
    try {
      const flow = await call('POST', '/api/gateway/flows', { body: callWith({ timeout: '{{env.timeout}}' }) });
      expect(flow.status).toBe(201);
      const run = await call('POST', `/api/gateway/flows/${flow.json.data.id}/run?waitMs=2000`, {
        body: { env: { baseUrl, timeout: '600h' } },
      });
      executionId = run.json.data.executionId;
      expect(run.json.data.status).toBe('Failed');
      expect(run.json.data.steps[0].error).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: 'timeout must be between 0ms and 1d, got "600h"',
      });
      expect(received).toBe(0);
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      // Should the step have gone out, it would wait on the silent server: the run ends here.
      if (executionId !== undefined) await call('POST', `/api/gateway/executions/${executionId}/cancel`);
    }
  });
});
