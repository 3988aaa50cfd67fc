import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEgressPolicy, createEngine, parseEgressRules, systemClock, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp, createClient, startGatewayServer } from '@svc/gateway';
import { createRemoteApi } from '@svc/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  healthFlow,
  startAlertReceiver,
  startHealthApi,
  type AlertReceiver,
} from '../../engine/test/helpers/alert-receiver.js';
import { connect, structured } from '../../mcp/test/helpers.js';
import { spawnSvc } from './cli.js';
import { stubAuthenticator } from './stub-authenticator.js';
import { apiCaller, type Json } from './api-call.js';

/** Waits (polling, bounded) until `ready` holds: for work a background worker does. */
async function eventually(ready: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('health-check suites over REST', () => {
  let api: Awaited<ReturnType<typeof startHealthApi>>;
  let receiver: AlertReceiver;
  let store: ReturnType<typeof openSqliteStore>;
  let engine: Engine;
  let app: ReturnType<typeof createApp>;
  let suiteId: string;

  const authenticator = stubAuthenticator({
    'key-a': { tenantId: 'tenant-a' },
    'key-b': { tenantId: 'tenant-b' },
    'key-a-read': { tenantId: 'tenant-a', scopes: ['suites:read'] },
    'key-a-run': { tenantId: 'tenant-a', scopes: ['suites:read', 'suites:run'] },
    'key-a-write': { tenantId: 'tenant-a', scopes: ['flows:write'] },
  });

  const call = apiCaller(() => app);

  beforeAll(async () => {
    api = await startHealthApi();
    receiver = await startAlertReceiver();
    store = openSqliteStore({ path: ':memory:' });
    // Checks and alerts reach loopback test servers, which svc serve refuses unless an operator allows it.
    engine = await createEngine({
      store,
      egress: createEgressPolicy({ mode: 'service', allow: parseEgressRules('127.0.0.1', 'SVC_EGRESS_ALLOW') }),
      publicUrl: 'https://svc.example.com',
    });
    app = createApp({ engine, authenticator, store });
    const flowIds: string[] = [];
    for (const name of ['orders-health', 'catalog-health']) {
      const created = await call('POST', '/api/gateway/flows', { body: healthFlow(name) });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      flowIds.push(created.json.data.id as string);
    }
    const suite = await call('POST', '/api/gateway/suites', {
      body: { name: 'api-health', kind: 'health-check', flowIds },
    });
    expect(suite.status, JSON.stringify(suite.json)).toBe(201);
    expect(suite.json.data.kind).toBe('health-check');
    suiteId = suite.json.data.id as string;
  });
  afterAll(async () => {
    await engine?.stop();
    await store?.close();
    await receiver?.close();
    await api?.close();
  });

  it('creates, reads, updates and deletes alert channels, never answering a secret', async () => {
    const created = await call('POST', `/api/gateway/suites/${suiteId}/alert-channels`, {
      body: {
        type: 'slack',
        name: 'ops-slack',
        url: 'https://hooks.slack.com/services/T000/B000/s3cr3t',
        signingSecret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
        repeatEvery: '1h',
      },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const channel = created.json.data;
    expect(created.headers.get('location')).toBe(`/api/gateway/suites/${suiteId}/alert-channels/${channel.id}`);
    expect(channel).toMatchObject({
      suiteId,
      name: 'ops-slack',
      type: 'slack',
      url: '***',
      destination: 'https://hooks.slack.com',
      signingSecret: '***',
      repeatEvery: 3_600_000,
    });
    const listed = await call('GET', `/api/gateway/suites/${suiteId}/alert-channels`, { key: 'key-a-read' });
    expect(listed.json.data.items).toEqual([channel]);
    const read = await call('GET', `/api/gateway/suites/${suiteId}/alert-channels/${channel.id}`, {
      key: 'key-a-read',
    });
    expect(read.json.data).toEqual(channel);
    expect(JSON.stringify([created.json, listed.json, read.json])).not.toContain('s3cr3t');

    // PUT what GET answered (less the fields a read adds): the secrets it shows as *** are kept.
    const { id: _id, suiteId: _suite, destination: _d, createdAt: _c, updatedAt: _u, ...definition } = read.json.data;
    const updated = await call('PUT', `/api/gateway/suites/${suiteId}/alert-channels/${channel.id}`, {
      body: { ...definition, enabled: false },
    });
    expect(updated.status, JSON.stringify(updated.json)).toBe(200);
    expect(updated.json.data).toMatchObject({ enabled: false, url: '***', signingSecret: '***' });
    expect((await store.alertChannels.openSecrets('tenant-a', channel.id))?.url).toBe(
      'https://hooks.slack.com/services/T000/B000/s3cr3t',
    );

    const deleted = await call('DELETE', `/api/gateway/suites/${suiteId}/alert-channels/${channel.id}`);
    expect(deleted.json).toEqual({ success: true, data: { id: channel.id, name: 'ops-slack', deleted: true } });
    const gone = await call('GET', `/api/gateway/suites/${suiteId}/alert-channels/${channel.id}`);
    expect(gone.status).toBe(404);
    expect(gone.json.error.code).toBe('ALERT_CHANNEL_NOT_FOUND');
  });

  it('refuses a PUT that points a channel elsewhere and keeps its secrets as ***, with 400 naming each', async () => {
    const signingSecret = `whsec_${Buffer.alloc(32, 2).toString('base64')}`;
    const created = await call('POST', `/api/gateway/suites/${suiteId}/alert-channels`, {
      body: {
        type: 'webhook',
        name: 'ops-hook',
        url: `${receiver.url}/hook?token=s3cr3t`,
        headers: { Authorization: 'Bearer hook-token' },
        signingSecret,
      },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const path = `/api/gateway/suites/${suiteId}/alert-channels/${created.json.data.id}`;
    const stolen = {
      type: 'webhook',
      name: 'ops-hook',
      url: 'http://attacker.example/steal',
      headers: { Authorization: '***' },
      signingSecret: '***',
    };
    // A writer that cannot read the secrets cannot send them elsewhere either.
    const refused = await call('PUT', path, { key: 'key-a-write', body: stolen });
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe('VALIDATION_ERROR');
    expect(refused.json.error.details.problems.map((problem: Json) => problem.path)).toEqual([
      'signingSecret',
      'headers.Authorization',
    ]);
    expect(refused.json.error.message).toContain('send the value again when the destination changes');
    expect(await store.alertChannels.openSecrets('tenant-a', created.json.data.id)).toEqual({
      url: `${receiver.url}/hook?token=s3cr3t`,
      signingSecret,
      'header.Authorization': 'Bearer hook-token',
    });
    expect((await call('GET', path)).json.data).toEqual(created.json.data);

    // Where the destination stays, *** keeps the stored values as before.
    const kept = await call('PUT', path, { key: 'key-a-write', body: { ...stolen, url: '***', name: 'renamed' } });
    expect(kept.status, JSON.stringify(kept.json)).toBe(200);
    expect((await store.alertChannels.openSecrets('tenant-a', created.json.data.id))?.signingSecret).toBe(
      signingSecret,
    );
    expect((await call('DELETE', path)).status).toBe(200);
  });

  it('refuses an alert URL that is not http(s) with 400 and its path, and saves nothing', async () => {
    const before = (await call('GET', `/api/gateway/suites/${suiteId}/alert-channels`)).json.data.items;
    const refused = await call('POST', `/api/gateway/suites/${suiteId}/alert-channels`, {
      body: { type: 'webhook', name: 'bad', url: 'ftp://files.example.com/alerts' },
    });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'the alert channel does not validate: url: must be an http:// or https:// URL',
      details: { problems: [{ code: 'INVALID_FIELD', path: 'url', message: 'must be an http:// or https:// URL' }] },
    });
    const unknownField = await call('POST', `/api/gateway/suites/${suiteId}/alert-channels`, {
      body: { type: 'slack', name: 'typo', url: 'https://hooks.slack.com/x', webhookUrl: 'https://x' },
    });
    expect(unknownField.json.error.details.problems).toEqual([
      { code: 'UNKNOWN_FIELD', path: 'webhookUrl', message: 'unknown field "webhookUrl"' },
    ]);
    expect((await call('GET', `/api/gateway/suites/${suiteId}/alert-channels`)).json.data.items).toEqual(before);
  });

  it('refuses a header value no delivery could send (☃, a control character) with 400 naming it', async () => {
    const before = (await call('GET', `/api/gateway/suites/${suiteId}/alert-channels`)).json.data.items;
    for (const value of ['☃', 'a\u0001b', 'a\u007fb']) {
      const refused = await call('POST', `/api/gateway/suites/${suiteId}/alert-channels`, {
        body: { type: 'webhook', name: 'odd-header', url: `${receiver.url}/hook`, headers: { 'X-Note': value } },
      });
      expect(refused.status, JSON.stringify(value)).toBe(400);
      expect(refused.json.error.code).toBe('VALIDATION_ERROR');
      expect(refused.json.error.details.problems.map((problem: Json) => problem.path)).toEqual(['headers["X-Note"]']);
    }
    expect((await call('GET', `/api/gateway/suites/${suiteId}/alert-channels`)).json.data.items).toEqual(before);
    // A tab and Latin-1 (obs-text) are what HTTP and the client send.
    const latin1 = await call('POST', `/api/gateway/suites/${suiteId}/alert-channels`, {
      body: { type: 'webhook', name: 'latin1', url: `${receiver.url}/hook`, headers: { 'X-Note': 'café\tok' } },
    });
    expect(latin1.status, JSON.stringify(latin1.json)).toBe(201);
    expect((await call('DELETE', `/api/gateway/suites/${suiteId}/alert-channels/${latin1.json.data.id}`)).status).toBe(
      200,
    );
  });

  it('asks suites:read to read and flows:write to change channels, and hides them from other tenants', async () => {
    for (const key of ['key-a-read', 'key-a-run']) {
      const refused = await call('POST', `/api/gateway/suites/${suiteId}/alert-channels`, {
        key,
        body: { type: 'slack', name: 'x', url: 'https://hooks.slack.com/x' },
      });
      expect(refused.status).toBe(403);
      expect(refused.json.error.code).toBe('INSUFFICIENT_SCOPE');
    }
    for (const path of ['health', 'alerts', 'alert-channels']) {
      expect((await call('GET', `/api/gateway/suites/${suiteId}/${path}`, { key: 'key-a-read' })).status).toBe(200);
      const other = await call('GET', `/api/gateway/suites/${suiteId}/${path}`, { key: 'key-b' });
      expect(other.status).toBe(404);
      expect(other.json.error.code).toBe('SUITE_NOT_FOUND');
    }
    const badQuery = await call('GET', `/api/gateway/suites/${suiteId}/alerts?status=lost&limit=0`);
    expect(badQuery.status).toBe(400);
    expect(badQuery.json.error.details.problems.map((problem: Json) => problem.path)).toEqual([
      'query.status',
      'query.limit',
    ]);
  });

  it('records each check’s state on a run over REST, queues one alert per change, and reads it back', async () => {
    const channel = await call('POST', `/api/gateway/suites/${suiteId}/alert-channels`, {
      body: { type: 'webhook', name: 'ops-hook', url: `${receiver.url}/hook` },
    });
    expect(channel.status).toBe(201);
    const run = (healthy: boolean) => {
      api.healthy = healthy;
      return call('POST', `/api/gateway/suites/${suiteId}/run`, {
        key: 'key-a-run',
        body: { env: { baseUrl: api.url } },
      });
    };
    expect((await run(false)).json.data.status).toBe('failed');
    await run(false);
    const health = await call('GET', `/api/gateway/suites/${suiteId}/health`, { key: 'key-a-read' });
    expect(health.json.data).toMatchObject({
      suiteId,
      suiteName: 'api-health',
      kind: 'health-check',
      status: 'failing',
      checks: [
        { name: 'orders-health', state: 'failing', streak: 2, lastFailure: { step: 'GetHealth' } },
        { name: 'catalog-health', state: 'failing', streak: 2 },
      ],
    });
    const pending = await call('GET', `/api/gateway/suites/${suiteId}/alerts`, { key: 'key-a-read' });
    expect(pending.json.data.items.map((alert: Json) => [alert.event, alert.status, alert.channelName])).toEqual([
      ['failing', 'pending', 'ops-hook'],
      ['failing', 'pending', 'ops-hook'],
    ]);
    await engine.health.deliverDue();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[0]!.body.links).toEqual({
      execution: expect.stringMatching(/^https:\/\/svc\.example\.com\/api\/gateway\/executions\/[\w-]+$/),
    });
    await run(true);
    await engine.health.deliverDue();
    const page = await call('GET', `/api/gateway/suites/${suiteId}/alerts?limit=3`, { key: 'key-a-read' });
    expect(page.json.data.items.map((alert: Json) => [alert.event, alert.status, alert.attempts])).toEqual([
      ['recovered', 'delivered', 1],
      ['recovered', 'delivered', 1],
      ['failing', 'delivered', 1],
    ]);
    const rest = await call('GET', `/api/gateway/suites/${suiteId}/alerts?cursor=${page.json.data.nextCursor}`);
    expect(rest.json.data).toMatchObject({ items: [{ event: 'failing' }], nextCursor: null });
    const onlyFailures = await call('GET', `/api/gateway/suites/${suiteId}/alerts?status=failed`);
    expect(onlyFailures.json.data.items).toEqual([]);
  });
});

describe('alerts under the egress policy', () => {
  it('records a delivery to an address the policy refuses as failed at once, and never sends it', async () => {
    const receiver = await startAlertReceiver();
    const api = await startHealthApi();
    const store = openSqliteStore({ path: ':memory:' });
    // The checks may reach the API's port; nothing else on loopback (the receiver included).
    const port = new URL(api.url).port;
    const engine = await createEngine({
      store,
      egress: createEgressPolicy({ mode: 'service', allow: parseEgressRules(`127.0.0.1:${port}`, 'SVC_EGRESS_ALLOW') }),
    });
    try {
      const flow = await engine.flows.create('t', healthFlow('orders-health'));
      const suite = await engine.suites.create('t', { name: 'h', kind: 'health-check', flowIds: [flow.id] });
      await engine.health.channels.create('t', suite.id, { type: 'webhook', name: 'local', url: `${receiver.url}/x` });
      api.healthy = false;
      await engine.suites.run('t', suite.id, { env: { baseUrl: api.url } });
      expect(await engine.health.deliverDue()).toEqual({ attempted: 1, delivered: 0, retrying: 0, failed: 1 });
      const [alert] = (await engine.health.listAlerts('t', suite.id)).items;
      expect(alert).toMatchObject({ status: 'failed', attempts: 1, lastError: { code: 'EGRESS_DENIED' } });
      expect(receiver.received).toEqual([]);
    } finally {
      await engine.stop();
      await store.close();
      await receiver.close();
      await api.close();
    }
  });
});

describe('svc serve sends alerts in its worker', () => {
  it('delivers a run’s alert without being asked, and svc_suite_health reads it over remote MCP', async () => {
    const receiver = await startAlertReceiver();
    const api = await startHealthApi();
    const store = openSqliteStore({ path: ':memory:' });
    const server = await startGatewayServer({
      store,
      port: 0,
      host: '127.0.0.1',
      egress: createEgressPolicy({ mode: 'service', allow: parseEgressRules('127.0.0.1', 'SVC_EGRESS_ALLOW') }),
    });
    const { clientSecret } = await createClient(store, systemClock, {
      tenantId: server.bootstrapped!.tenantId,
      name: 'svc-mcp',
      scopes: ['flows:read', 'flows:write', 'executions:run', 'suites:read', 'suites:run'],
    });
    const mcp = await connect(createRemoteApi({ baseUrl: server.url, apiKey: clientSecret }));
    try {
      const tenant = server.bootstrapped!.tenantId;
      const flow = await server.engine.flows.create(tenant, healthFlow('orders-health'));
      const suite = await server.engine.suites.create(tenant, {
        name: 'served-health',
        kind: 'health-check',
        flowIds: [flow.id],
      });
      await server.engine.health.channels.create(tenant, suite.id, {
        type: 'webhook',
        name: 'ops',
        url: `${receiver.url}/hook`,
      });
      api.healthy = false;
      const run = await mcp.call('svc_run_suite', { suiteId: suite.id, env: { baseUrl: api.url } });
      expect(structured<{ run: { status: string } }>(run).run.status).toBe('failed');
      await eventually(() => receiver.received.length === 1);
      expect(receiver.received[0]!.body).toMatchObject({
        type: 'health-check.failing',
        links: { execution: expect.stringContaining(`${server.url}/api/gateway/executions/`) },
      });
      await eventually(
        async () => (await server.engine.health.listAlerts(tenant, suite.id)).items[0]?.status === 'delivered',
      );

      const read = await mcp.call('svc_suite_health', { suiteId: suite.id });
      const answer = structured<{ health: Json; alerts: Json[] }>(read);
      expect(answer.health).toMatchObject({ status: 'failing', checks: [{ name: 'orders-health', state: 'failing' }] });
      expect(answer.alerts).toMatchObject([{ event: 'failing', status: 'delivered', attempts: 1, channelName: 'ops' }]);
      const text = (read.content[0] as { text: string }).text;
      expect(text).toContain('Suite served-health (health-check) is failing');
      expect(text).toMatch(/orders-health\s+failing/);
    } finally {
      await mcp.close();
      await server.close();
      await store.close();
      await receiver.close();
      await api.close();
    }
  });
});

describe('svc run suite on a health-check suite', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-health-cli-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('records the checks’ states in the store and sends the alert before it exits', async () => {
    const receiver = await startAlertReceiver();
    const api = await startHealthApi();
    const env = { SVC_DB: join(dir, 'svc.db') };
    try {
      const setup = openSqliteStore({ path: env.SVC_DB });
      const engine = await createEngine({ store: setup });
      const flow = await engine.flows.create('default', healthFlow('orders-health'));
      const suite = await engine.suites.create('default', {
        name: 'cli-health',
        kind: 'health-check',
        flowIds: [flow.id],
      });
      await engine.health.channels.create('default', suite.id, {
        type: 'webhook',
        name: 'ops',
        url: `${receiver.url}/hook`,
      });
      await engine.stop();
      await setup.close();

      api.healthy = false;
      const failing = await spawnSvc(['run', 'suite', 'cli-health', '--env', `baseUrl=${api.url}`], env).done;
      expect(failing.code, failing.stderr).toBe(1);
      expect(receiver.received.map((alert) => alert.body.type)).toEqual(['health-check.failing']);
      api.healthy = true;
      const passing = await spawnSvc(['run', 'suite', 'cli-health', '--env', `baseUrl=${api.url}`], env).done;
      expect(passing.code, passing.stderr).toBe(0);
      expect(receiver.received.map((alert) => alert.body.type)).toEqual([
        'health-check.failing',
        'health-check.recovered',
      ]);

      const check = openSqliteStore({ path: env.SVC_DB });
      try {
        expect(await check.health.getCheck('default', suite.id, flow.id)).toMatchObject({
          state: 'healthy',
          streak: 1,
        });
        const alerts = (await check.health.listDeliveries('default', suite.id)).items;
        expect(alerts.map((alert) => [alert.event, alert.status])).toEqual([
          ['recovered', 'delivered'],
          ['failing', 'delivered'],
        ]);
      } finally {
        await check.close();
      }
    } finally {
      await receiver.close();
      await api.close();
    }
  });
});
