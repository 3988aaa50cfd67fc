import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine, egressPolicyOf, loadConfig, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stubAuthenticator } from './stub-authenticator.js';
import { apiCaller, type Json } from './api-call.js';

const SECRET = 'hello-from-the-vault-7f3a';

/** What the API under test received, so a test can see the real secret arrived. */
const received: { url: string; headers: IncomingMessage['headers']; body: string }[] = [];
let target: Server;
let targetUrl: string;
let engine: Engine;
let store: ReturnType<typeof openSqliteStore>;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  target = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ url: request.url ?? '', headers: request.headers, body });
      // Echoes what it got, so the secret comes back in the response body too.
      response
        .setHeader('content-type', 'application/json')
        .end(JSON.stringify({ echoed: body, greetingHeader: request.headers['x-greeting'] }));
    });
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const { port } = target.address() as AddressInfo;
  targetUrl = `http://127.0.0.1:${port}`;
  store = openSqliteStore({ path: ':memory:' });
  // As svc serve runs it: the service policy, with the test API allowed explicitly.
  engine = await createEngine({
    store,
    egress: egressPolicyOf(loadConfig({ SVC_EGRESS_ALLOW: `127.0.0.1:${port}` }), 'service'),
  });
  app = createApp({
    engine,
    authenticator: stubAuthenticator({
      'key-a': { tenantId: 'tenant-a' },
      'key-b': { tenantId: 'tenant-b' },
      'key-a-read': { tenantId: 'tenant-a', scopes: ['environments:read'] },
      'key-a-admin': { tenantId: 'tenant-a', scopes: ['admin'] },
      'key-a-flows': { tenantId: 'tenant-a', scopes: ['flows:read', 'flows:write', 'executions:run'] },
      'key-a-runner': { tenantId: 'tenant-a', scopes: ['flows:read', 'executions:run', 'suites:run'] },
    }),
  });
});

afterAll(async () => {
  await engine.stop();
  await store.close();
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
});

const call = apiCaller(() => app);

const stagingBody = (name = 'staging') => ({
  name,
  description: 'the staging stack',
  // The base address is wrong on purpose: the run's inline env overrides it.
  variables: { baseUrl: 'http://127.0.0.1:9', greeting: SECRET, region: 'eu' },
  secretKeys: ['greeting'],
});

describe('stored environments over REST', () => {
  it('creates, reads, lists, replaces and deletes an environment, never answering a secret', async () => {
    const created = await call('POST', '/api/gateway/environments', { body: stagingBody('crud') });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      success: true,
      data: { name: 'crud', variables: { greeting: '***', region: 'eu' }, secretKeys: ['greeting'] },
    });
    const id = created.json.data.id as string;

    const byId = await call('GET', `/api/gateway/environments/${id}`);
    const byName = await call('GET', '/api/gateway/environments/crud');
    const list = await call('GET', '/api/gateway/environments');
    expect(byId.json.data).toEqual(created.json.data);
    expect(byName.json.data).toEqual(created.json.data);
    expect(list.json.data.items.map((one: Json) => one.name)).toContain('crud');
    for (const answer of [created, byId, byName, list]) expect(answer.text).not.toContain(SECRET);

    // A PUT of what GET answered (secrets as ***) keeps the secret; a changed plain value is replaced.
    const replaced = await call('PUT', `/api/gateway/environments/${id}`, {
      body: {
        name: 'crud',
        variables: { ...byId.json.data.variables, region: 'us' },
        secretKeys: byId.json.data.secretKeys,
      },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.json.data).toMatchObject({
      variables: { region: 'us', greeting: '***' },
      secretKeys: ['greeting'],
    });
    const resolved = await engine.environments.resolveRun('tenant-a', { env: 'crud' });
    expect(resolved.env).toMatchObject({ greeting: SECRET, region: 'us' });

    const deleted = await call('DELETE', `/api/gateway/environments/${id}`);
    expect(deleted.json).toEqual({ success: true, data: { id, name: 'crud', deleted: true } });
    expect((await call('GET', `/api/gateway/environments/${id}`)).status).toBe(404);
  });

  it('refuses a second environment with the same name (409) and a bad body with paths (400)', async () => {
    expect((await call('POST', '/api/gateway/environments', { body: stagingBody('twice') })).status).toBe(201);
    const again = await call('POST', '/api/gateway/environments', { body: stagingBody('twice') });
    expect(again).toMatchObject({ status: 409, json: { success: false, error: { code: 'CONFLICT' } } });
    const bad = await call('POST', '/api/gateway/environments', {
      body: { name: 'bad name!', variables: { ok: 1 }, secretKeys: ['missing'], extra: true },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('VALIDATION_ERROR');
    expect(bad.json.error.details.problems.map((problem: Json) => problem.path).sort()).toEqual([
      'extra',
      'name',
      'secretKeys[0]',
    ]);
    const maskOnly = await call('POST', '/api/gateway/environments', {
      body: { name: 'masked', variables: { token: '***' }, secretKeys: ['token'] },
    });
    expect(maskOnly).toMatchObject({ status: 400, json: { error: { code: 'VALIDATION_ERROR' } } });
  });

  it('refuses *** for a variable not listed in secretKeys (400 naming it), and keeps the stored secret', async () => {
    const created = await call('POST', '/api/gateway/environments', { body: stagingBody('unlisted') });
    const id = created.json.data.id as string;
    // What GET answered, sent back without the secret's key in secretKeys.
    const unlisted = await call('PUT', `/api/gateway/environments/${id}`, {
      body: { name: 'unlisted', variables: created.json.data.variables, secretKeys: [] },
    });
    expect(unlisted.status).toBe(400);
    expect(unlisted.json.error.code).toBe('VALIDATION_ERROR');
    expect(unlisted.json.error.details.problems).toEqual([
      expect.objectContaining({ path: 'variables.greeting', message: expect.stringContaining('secretKeys') }),
    ]);
    expect((await call('GET', `/api/gateway/environments/${id}`)).json.data).toEqual(created.json.data);
    expect((await engine.environments.resolveRun('tenant-a', { env: id })).env).toMatchObject({ greeting: SECRET });

    const plainMask = await call('POST', '/api/gateway/environments', {
      body: { name: 'plain-mask', variables: { token: '***' } },
    });
    expect(plainMask.status).toBe(400);
    expect(plainMask.json.error.details.problems.map((problem: Json) => problem.path)).toEqual(['variables.token']);
  });

  it('requires environments:read to read and environments:write to change; admin grants both', async () => {
    expect((await call('GET', '/api/gateway/environments', { key: 'key-a-read' })).status).toBe(200);
    const denied = await call('POST', '/api/gateway/environments', { key: 'key-a-read', body: stagingBody('scoped') });
    expect(denied).toMatchObject({ status: 403, json: { error: { code: 'INSUFFICIENT_SCOPE' } } });
    expect((await call('GET', '/api/gateway/environments', { key: 'key-a-flows' })).status).toBe(403);
    expect(
      (await call('POST', '/api/gateway/environments', { key: 'key-a-admin', body: stagingBody('scoped') })).status,
    ).toBe(201);
    expect((await call('DELETE', '/api/gateway/environments/scoped', { key: 'key-a-read' })).status).toBe(403);
  });

  it("answers another tenant's environment as ENVIRONMENT_NOT_FOUND (404) for every route and for a run", async () => {
    const created = await call('POST', '/api/gateway/environments', { body: stagingBody('private') });
    const id = created.json.data.id as string;
    for (const path of [`/api/gateway/environments/${id}`, '/api/gateway/environments/private']) {
      expect(await call('GET', path, { key: 'key-b' })).toMatchObject({
        status: 404,
        json: { error: { code: 'ENVIRONMENT_NOT_FOUND' } },
      });
      expect((await call('PUT', path, { key: 'key-b', body: stagingBody('private') })).status).toBe(404);
      expect((await call('DELETE', path, { key: 'key-b' })).status).toBe(404);
    }
    expect((await call('GET', '/api/gateway/environments', { key: 'key-b' })).json.data.items).toEqual([]);
    const flow = await call('POST', '/api/gateway/flows', {
      key: 'key-b',
      body: {
        name: 'b-flow',
        nodes: [{ id: 'c', name: 'Call', type: 'endpoint', config: { url: '{{env.baseUrl}}/x' } }],
      },
    });
    const run = await call('POST', `/api/gateway/flows/${flow.json.data.id}/run`, {
      key: 'key-b',
      body: { env: 'private' },
    });
    expect(run).toMatchObject({ status: 404, json: { error: { code: 'ENVIRONMENT_NOT_FOUND' } } });
    expect((await call('GET', `/api/gateway/environments/${id}`)).json.data.variables.greeting).toBe('***');
  });
});

describe('a run on a stored environment', () => {
  const greetingFlow = {
    name: 'greet',
    nodes: [
      {
        id: 'greet',
        name: 'Greet',
        type: 'endpoint',
        config: {
          method: 'POST',
          url: '{{env.baseUrl}}/greet?region={{env.region}}',
          headers: { 'content-type': 'application/json', 'x-greeting': '{{env.greeting}}' },
          body: { message: '{{env.greeting}}' },
        },
      },
    ],
  };

  it('sends the real secret to the endpoint, and the trace shows *** for it although its name looks harmless', async () => {
    await call('POST', '/api/gateway/environments', { body: stagingBody('staging') });
    const flow = await call('POST', '/api/gateway/flows', { body: greetingFlow });
    expect(flow.status).toBe(201);
    const before = received.length;
    // `env` alone names the stored environment, whose baseUrl goes nowhere.
    const plain = await call('POST', `/api/gateway/flows/${flow.json.data.id}/run`, { body: { env: 'staging' } });
    expect(plain.json.data.status).toBe('Failed');
    expect(plain.text).not.toContain(SECRET);
    expect(received.length).toBe(before);

    // `environment` names it and the inline `env` overrides baseUrl, key by key.
    const run = await call('POST', `/api/gateway/flows/${flow.json.data.id}/run`, {
      body: { environment: 'staging', env: { baseUrl: targetUrl } },
    });
    expect(run.status).toBe(200);
    expect(run.json.data.status).toBe('Completed');
    expect(run.text).not.toContain(SECRET);
    expect(received.length).toBe(before + 1);
    const arrived = received.at(-1)!;
    expect(arrived.headers['x-greeting']).toBe(SECRET);
    expect(JSON.parse(arrived.body)).toEqual({ message: SECRET });
    expect(arrived.url).toBe('/greet?region=eu');

    const trace = await call('GET', `/api/gateway/executions/${run.json.data.executionId}`);
    expect(trace.status).toBe(200);
    expect(trace.text).not.toContain(SECRET);
    const step = trace.json.data.steps[0] as Json;
    expect(step.request.headers['x-greeting']).toBe('***');
    expect(step.request.body).toEqual({ message: '***' });
    expect(step.response.body).toEqual({ echoed: JSON.stringify({ message: '***' }), greetingHeader: '***' });
  });

  it('needs environments:write to override the plain values of a stored environment that holds secrets', async () => {
    await call('POST', '/api/gateway/environments', { body: stagingBody('guarded') });
    await call('POST', '/api/gateway/environments', {
      body: { name: 'open', variables: { baseUrl: 'http://127.0.0.1:9', greeting: 'hi', region: 'eu' } },
    });
    const flow = await call('POST', '/api/gateway/flows', { body: { ...greetingFlow, name: 'greet-guarded' } });
    const suite = await call('POST', '/api/gateway/suites', {
      body: { name: 'guarded-suite', flowIds: [flow.json.data.id] },
    });
    const before = received.length;
    // A client that runs flows cannot send the stored secret to an address of its choosing.
    for (const path of [
      `/api/gateway/flows/${flow.json.data.id}/run`,
      `/api/gateway/suites/${suite.json.data.id}/run`,
    ]) {
      const redirected = await call('POST', path, {
        key: 'key-a-runner',
        body: { environment: 'guarded', env: { baseUrl: targetUrl, region: 'us' } },
      });
      expect(redirected).toMatchObject({
        status: 403,
        json: {
          error: {
            code: 'INSUFFICIENT_SCOPE',
            message: expect.stringContaining('"baseUrl", "region"'),
            details: {
              requiredScope: 'environments:write',
              problems: [
                expect.objectContaining({ path: 'env.baseUrl' }),
                expect.objectContaining({ path: 'env.region' }),
              ],
            },
          },
        },
      });
      expect(redirected.headers.get('www-authenticate')).toContain('scope="environments:write"');
    }
    expect(received.length).toBe(before);

    // It may replace the secret itself, add keys the environment does not hold, and override an
    // environment without secrets.
    const ownSecret = await call('POST', `/api/gateway/flows/${flow.json.data.id}/run`, {
      key: 'key-a-runner',
      body: { environment: 'guarded', env: { greeting: 'mine-1234', extra: 'x' } },
    });
    expect(ownSecret.status).toBe(200);
    const open = await call('POST', `/api/gateway/flows/${flow.json.data.id}/run`, {
      key: 'key-a-runner',
      body: { environment: 'open', env: { baseUrl: targetUrl } },
    });
    expect(open.json.data.status).toBe('Completed');
    expect(received.at(-1)!.headers['x-greeting']).toBe('hi');
  });

  it('refuses two names at once, and an unknown name with ENVIRONMENT_NOT_FOUND (404)', async () => {
    const flow = await call('POST', '/api/gateway/flows', { body: { ...greetingFlow, name: 'greet-2' } });
    const both = await call('POST', `/api/gateway/flows/${flow.json.data.id}/run`, {
      body: { environment: 'staging', env: 'prod' },
    });
    expect(both).toMatchObject({ status: 400, json: { error: { code: 'VALIDATION_ERROR' } } });
    const unknown = await call('POST', `/api/gateway/flows/${flow.json.data.id}/run`, {
      body: { environment: 'nowhere', env: { baseUrl: targetUrl } },
    });
    expect(unknown).toMatchObject({
      status: 404,
      json: { error: { code: 'ENVIRONMENT_NOT_FOUND', message: expect.stringContaining('"nowhere"') } },
    });
  });

  it('runs a suite on a stored environment with an inline override', async () => {
    const flow = await call('POST', '/api/gateway/flows', { body: { ...greetingFlow, name: 'greet-suite' } });
    const suite = await call('POST', '/api/gateway/suites', {
      body: { name: 'env-suite', flowIds: [flow.json.data.id] },
    });
    const before = received.length;
    const run = await call('POST', `/api/gateway/suites/${suite.json.data.id}/run`, {
      body: { environment: 'staging', env: { baseUrl: targetUrl } },
    });
    expect(run.status).toBe(200);
    expect(run.json.data.kpis ?? run.json.data).toMatchObject({ passed: 1 });
    expect(received.length).toBe(before + 1);
    expect(received.at(-1)!.headers['x-greeting']).toBe(SECRET);
    expect(run.text).not.toContain(SECRET);
  });
});
