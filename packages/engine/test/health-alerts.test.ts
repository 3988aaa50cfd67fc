import {
  createEgressPolicy,
  createEngine,
  createManualClock,
  verifyWebhook,
  type Engine,
  type SuiteRecord,
} from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  deadUrl,
  healthFlow,
  startAlertReceiver,
  startHealthApi,
  type AlertReceiver,
} from './helpers/alert-receiver.js';

const A = 'tenant-a';
const B = 'tenant-b';
const PUBLIC_URL = 'https://svc.example.com';
const SIGNING_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

/*
 * Health-check suites through the engine's own door, `engine.suites.run`, which every other door
 * (REST, MCP, CLI, a schedule) calls: the checks' states, the alerts their changes raise, and
 * their delivery to a real local HTTP receiver on a clock the test moves.
 *
 *   run: healthy ──► failing ──► failing ──► healthy
 *   alert:   –       failing       –       recovered
 */
describe('health-check suites and alerts', () => {
  const clock = createManualClock(Date.parse('2026-03-02T08:30:00Z'));
  let api: Awaited<ReturnType<typeof startHealthApi>>;
  let receiver: AlertReceiver;
  let store: ReturnType<typeof openSqliteStore>;
  let engine: Engine;
  let orders: string;
  let catalog: string;
  let suite: SuiteRecord;
  let env: { baseUrl: string };

  beforeAll(async () => {
    api = await startHealthApi();
    receiver = await startAlertReceiver();
    env = { baseUrl: api.url };
    store = openSqliteStore({ path: ':memory:', clock });
    engine = await createEngine({
      store,
      clock,
      publicUrl: PUBLIC_URL,
      // The API and the receiver are on loopback, which a developer's local policy allows.
      egress: createEgressPolicy({ mode: 'local' }),
      alerts: { maxAttempts: 3, initialDelayMs: 10_000, factor: 3, timeoutMs: 2_000 },
    });
    orders = (await engine.flows.create(A, healthFlow('orders-health', '/orders/health'))).id;
    catalog = (await engine.flows.create(A, healthFlow('catalog-health', '/catalog/health'))).id;
  });
  afterAll(async () => {
    await engine?.stop();
    await store?.close();
    await receiver?.close();
    await api?.close();
  });

  let suiteCount = 0;
  /** Suites a test made: deleted after it, their queued alerts with them, so each test sees its own. */
  const made: string[] = [];
  afterEach(async () => {
    for (const id of made.splice(0)) await engine.suites.delete(A, id).catch(() => undefined);
  });
  beforeEach(async () => {
    api.healthy = true;
    receiver.received.length = 0;
    receiver.answer = { status: 200 };
    suiteCount += 1;
    suite = await engine.suites.create(A, {
      name: `api-health-${suiteCount}`,
      kind: 'health-check',
      flowIds: [orders, catalog],
    });
    made.push(suite.id);
  });

  /** Runs the suite with every check passing or failing, then moves the clock a minute on. */
  const runWith = async (healthy: boolean) => {
    api.healthy = healthy;
    const result = await engine.suites.run(A, suite.id, { env });
    clock.advance(60_000);
    return result;
  };
  const alerts = async () => (await engine.health.listAlerts(A, suite.id)).items;
  const webhook = (overrides: Record<string, unknown> = {}) =>
    engine.health.channels.create(A, suite.id, {
      type: 'webhook',
      name: 'ops-hook',
      url: `${receiver.url}/hooks/ops?token=s3cr3t-token`,
      ...overrides,
    });

  it('alerts once when a check starts failing, not while it keeps failing, and once when it recovers', async () => {
    await webhook();
    await runWith(true);
    expect((await engine.health.get(A, suite.id)).status).toBe('healthy');
    expect(await alerts()).toEqual([]);

    // Both checks read the same API here: both start failing, each alerts once.
    const failing = await runWith(false);
    expect(failing.status).toBe('failed');
    expect(await alerts()).toHaveLength(2);
    expect(receiver.received).toHaveLength(0); // queued, not sent by the run
    expect(await engine.health.deliverDue()).toEqual({ attempted: 2, delivered: 2, retrying: 0, failed: 0 });
    expect(receiver.received).toHaveLength(2);
    const ordersAlert = receiver.received.find((alert) => (alert.body.check as { flowId: string }).flowId === orders)!;
    const ordersRun = failing.flows[0]!;
    expect(ordersAlert.path).toBe('/hooks/ops?token=s3cr3t-token');
    expect(ordersAlert.headers['content-type']).toBe('application/json');
    expect(ordersAlert.body).toEqual({
      id: expect.stringMatching(/^alr_/),
      type: 'health-check.failing',
      event: 'failing',
      suite: { id: suite.id, name: suite.name },
      check: { flowId: orders, name: 'orders-health' },
      state: 'failing',
      since: '2026-03-02T08:31:00.000Z',
      error: { code: 'ASSERTION_FAILED', message: expect.stringContaining('body.status'), step: 'GetHealth' },
      executionId: ordersRun.executionId,
      links: { execution: `${PUBLIC_URL}/api/gateway/executions/${ordersRun.executionId}` },
      time: '2026-03-02T08:31:00.000Z',
    });

    await runWith(false);
    await runWith(false);
    expect(await engine.health.deliverDue()).toMatchObject({ attempted: 0 });
    expect(receiver.received).toHaveLength(2);
    const stillFailing = await engine.health.get(A, suite.id);
    expect(stillFailing.status).toBe('failing');
    expect(stillFailing.checks[0]).toMatchObject({
      flowId: orders,
      name: 'orders-health',
      state: 'failing',
      since: '2026-03-02T08:31:00.000Z',
      streak: 3,
      lastRunAt: '2026-03-02T08:33:00.000Z',
      lastFailure: {
        at: '2026-03-02T08:33:00.000Z',
        step: 'GetHealth',
        error: { code: 'ASSERTION_FAILED' },
      },
    });

    const recovered = await runWith(true);
    expect(recovered.status).toBe('passed');
    await engine.health.deliverDue();
    expect(receiver.received.map((alert) => alert.body.type)).toEqual([
      'health-check.failing',
      'health-check.failing',
      'health-check.recovered',
      'health-check.recovered',
    ]);
    const recovery = receiver.received.find(
      (alert) =>
        alert.body.type === 'health-check.recovered' && (alert.body.check as { flowId: string }).flowId === orders,
    )!;
    expect(recovery.body).toMatchObject({
      state: 'healthy',
      since: '2026-03-02T08:34:00.000Z',
      // The failure that ended, and the run that passed.
      error: { code: 'ASSERTION_FAILED', step: 'GetHealth' },
      executionId: recovered.flows[0]!.executionId,
    });
    const health = await engine.health.get(A, suite.id);
    expect(health.status).toBe('healthy');
    expect(health.checks.map((check) => [check.name, check.state, check.streak])).toEqual([
      ['orders-health', 'healthy', 1],
      ['catalog-health', 'healthy', 1],
    ]);
    // The last failure stays readable after the recovery.
    expect(health.checks[0]!.lastFailure?.error.code).toBe('ASSERTION_FAILED');
    expect((await alerts()).map((alert) => [alert.event, alert.status, alert.attempts])).toEqual([
      ['recovered', 'delivered', 1],
      ['recovered', 'delivered', 1],
      ['failing', 'delivered', 1],
      ['failing', 'delivered', 1],
    ]);
  });

  it('alerts a check that fails on its first run, and nothing for one that passes on its first run', async () => {
    await webhook();
    await runWith(false);
    expect((await alerts()).map((alert) => alert.event)).toEqual(['failing', 'failing']);
    const other = await engine.suites.create(A, {
      name: `quiet-${suiteCount}`,
      kind: 'health-check',
      flowIds: [orders],
    });
    made.push(other.id);
    await engine.health.channels.create(A, other.id, { type: 'slack', name: 'ops', url: `${receiver.url}/slack` });
    api.healthy = true;
    await engine.suites.run(A, other.id, { env });
    expect((await engine.health.listAlerts(A, other.id)).items).toEqual([]);
  });

  it('reminds a channel with repeatEvery while the check keeps failing, and not before', async () => {
    await webhook({ name: 'hourly', repeatEvery: '1h' });
    await webhook({ name: 'once' });
    const ordersOnly = await engine.suites.update(A, suite.id, {
      name: suite.name,
      kind: 'health-check',
      flowIds: [orders],
    });
    expect(ordersOnly.flowIds).toEqual([orders]);
    const start = clock.now();
    await runWith(false); // failing: both channels
    clock.set(start + 30 * 60_000);
    await runWith(false);
    clock.set(start + 60 * 60_000 - 1);
    await runWith(false);
    expect((await alerts()).map((alert) => alert.event)).toEqual(['failing', 'failing']);
    clock.set(start + 60 * 60_000); // an hour since the alert
    await runWith(false);
    const events = (await alerts()).map((alert) => [alert.channelName, alert.event]);
    expect(events[0]).toEqual(['hourly', 'reminder']);
    expect(events).toHaveLength(3);
    // The next reminder counts from this one.
    clock.set(start + 119 * 60_000);
    await runWith(false);
    expect(await alerts()).toHaveLength(3);
    clock.set(start + 120 * 60_000);
    await runWith(false);
    expect((await alerts()).map((alert) => alert.event)).toEqual(['reminder', 'reminder', 'failing', 'failing']);
    await runWith(true);
    expect((await alerts()).slice(0, 2).map((alert) => alert.event)).toEqual(['recovered', 'recovered']);
  });

  it('retries a channel that is down with backoff, then records the failure; the checks go on', async () => {
    const down = await deadUrl();
    await webhook({ url: `${down}/hooks/ops/s3cr3t-path-token?key=s3cr3t-query` });
    const started = performance.now();
    await runWith(false);
    const runMs = performance.now() - started;

    const firstPass = await engine.health.deliverDue();
    expect(firstPass).toEqual({ attempted: 2, delivered: 0, retrying: 2, failed: 0 });
    const [first] = await alerts();
    expect(first).toMatchObject({ status: 'pending', attempts: 1, lastError: { code: 'NETWORK_ERROR' } });
    // Due 10 s after the failed attempt; the URL's path and query (its token) are not recorded.
    expect(Date.parse(first!.nextAttemptAt!)).toBe(clock.now() + 10_000);
    expect(JSON.stringify(await alerts())).not.toContain('s3cr3t');
    expect(await engine.health.deliverDue()).toMatchObject({ attempted: 0 });

    clock.advance(10_000);
    expect(await engine.health.deliverDue()).toEqual({ attempted: 2, delivered: 0, retrying: 2, failed: 0 });
    expect(Date.parse((await alerts())[0]!.nextAttemptAt!)).toBe(clock.now() + 30_000);
    clock.advance(29_999);
    expect(await engine.health.deliverDue()).toMatchObject({ attempted: 0 });
    clock.advance(1);
    expect(await engine.health.deliverDue()).toEqual({ attempted: 2, delivered: 0, retrying: 0, failed: 2 });
    const failed = await alerts();
    expect(failed.map((alert) => [alert.status, alert.attempts, alert.nextAttemptAt])).toEqual([
      ['failed', 3, null],
      ['failed', 3, null],
    ]);
    expect(failed[0]!.lastError?.message).toContain(`${down}/…`);
    expect(JSON.stringify(failed)).not.toContain('s3cr3t');

    // The checks are unaffected: later runs record their state as fast, and a recovery queues its alert.
    const again = performance.now();
    await runWith(false);
    await runWith(true);
    expect(performance.now() - again).toBeLessThan(Math.max(1_000, runMs * 4));
    expect((await engine.health.get(A, suite.id)).status).toBe('healthy');
    expect((await alerts()).map((alert) => [alert.event, alert.status])).toEqual([
      ['recovered', 'pending'],
      ['recovered', 'pending'],
      ['failing', 'failed'],
      ['failing', 'failed'],
    ]);
  });

  it('retries a 503 after its Retry-After, and gives up at once on a 404', async () => {
    await webhook();
    const ordersOnly = await engine.suites.update(A, suite.id, {
      name: suite.name,
      kind: 'health-check',
      flowIds: [orders],
    });
    expect(ordersOnly.flowIds).toHaveLength(1);
    receiver.answer = { status: 503, headers: { 'retry-after': '120' }, body: 'maintenance' };
    await runWith(false);
    expect(await engine.health.deliverDue()).toMatchObject({ retrying: 1 });
    const [waiting] = await alerts();
    expect(waiting).toMatchObject({
      status: 'pending',
      responseStatus: 503,
      lastError: { code: 'HTTP_ERROR_STATUS', message: 'the channel answered 503: maintenance' },
    });
    expect(Date.parse(waiting!.nextAttemptAt!)).toBe(clock.now() + 120_000);
    clock.advance(120_000);
    receiver.answer = { status: 404, body: 'no_service' };
    expect(await engine.health.deliverDue()).toMatchObject({ failed: 1 });
    expect((await alerts())[0]).toMatchObject({
      status: 'failed',
      attempts: 2,
      responseStatus: 404,
      lastError: { message: 'the channel answered 404: no_service' },
    });
    expect(receiver.received).toHaveLength(2);
  });

  it('sends a Slack message with text and blocks', async () => {
    await engine.health.channels.create(A, suite.id, {
      type: 'slack',
      name: 'slack',
      url: `${receiver.url}/services/T000/B000/XXXX`,
    });
    await runWith(false);
    await engine.health.deliverDue();
    const message = receiver.received.find((alert) => alert.raw.includes('orders-health'))!;
    expect(message.path).toBe('/services/T000/B000/XXXX');
    expect(message.body.text).toBe(
      `:red_circle: Failing: orders-health (suite ${suite.name}) — ASSERTION_FAILED at GetHealth: ${
        (await engine.health.get(A, suite.id)).checks[0]!.lastFailure!.error.message
      }`,
    );
    const blocks = message.body.blocks as { type: string; text?: { text: string }; elements?: { text: string }[] }[];
    expect(blocks.map((block) => block.type)).toEqual(['header', 'section', 'section', 'context']);
    expect(blocks[0]!.text!.text).toBe(`Failing: orders-health (suite ${suite.name})`);
    expect(blocks[3]!.elements![0]!.text).toContain(`<${PUBLIC_URL}/api/gateway/executions/`);
    await runWith(true);
    await engine.health.deliverDue();
    const recovery = receiver.received.filter((alert) => alert.raw.includes('orders-health')).at(-1)!;
    expect(recovery.body.text).toBe(
      `:large_green_circle: Recovered: orders-health (suite ${suite.name}) is healthy again`,
    );
  });

  it('sends PagerDuty Events v2: trigger on failure and resolve on recovery, one dedup_key per check', async () => {
    await engine.health.channels.create(A, suite.id, {
      type: 'pagerduty',
      name: 'pager',
      routingKey: 'R0UTING-KEY-0123456789abcdef0123',
      url: `${receiver.url}/v2/enqueue`,
      severity: 'error',
    });
    receiver.answer = { status: 202, body: '{"status":"success","message":"Event processed"}' };
    await runWith(false);
    await engine.health.deliverDue();
    await runWith(true);
    await engine.health.deliverDue();
    const events = receiver.received.map((alert) => alert.body);
    expect(events.map((event) => [event.event_action, event.dedup_key])).toEqual(
      expect.arrayContaining([
        ['trigger', `svc/${suite.id}/${orders}`],
        ['trigger', `svc/${suite.id}/${catalog}`],
        ['resolve', `svc/${suite.id}/${orders}`],
        ['resolve', `svc/${suite.id}/${catalog}`],
      ]),
    );
    expect(events).toHaveLength(4);
    const trigger = events.find(
      (event) => event.event_action === 'trigger' && event.dedup_key === `svc/${suite.id}/${orders}`,
    )!;
    expect(trigger).toMatchObject({
      routing_key: 'R0UTING-KEY-0123456789abcdef0123',
      payload: {
        summary: expect.stringMatching(
          /^orders-health failing in suite api-health-\d+: ASSERTION_FAILED at GetHealth: /,
        ),
        source: `svc suite ${suite.name}`,
        severity: 'error',
        timestamp: expect.stringMatching(/^2026-03-02T\d\d:\d\d:\d\d\.000Z$/),
        component: 'orders-health',
        group: suite.name,
        class: 'ASSERTION_FAILED',
      },
      links: [{ href: expect.stringContaining(`${PUBLIC_URL}/api/gateway/executions/`), text: 'svc execution' }],
    });
    const resolve = events.find(
      (event) => event.event_action === 'resolve' && event.dedup_key === `svc/${suite.id}/${orders}`,
    )!;
    expect(resolve).toEqual({
      routing_key: 'R0UTING-KEY-0123456789abcdef0123',
      event_action: 'resolve',
      dedup_key: `svc/${suite.id}/${orders}`,
    });
    expect((await alerts()).every((alert) => alert.status === 'delivered' && alert.responseStatus === 202)).toBe(true);
  });

  it('signs a delivery with the Standard Webhooks scheme, which verifyWebhook accepts', async () => {
    await webhook({ signingSecret: SIGNING_SECRET, headers: { Authorization: 'Bearer hook-token' } });
    await runWith(false);
    await engine.health.deliverDue();
    const [signed] = receiver.received;
    expect(signed!.headers['webhook-id']).toBe(signed!.body.id);
    expect(signed!.headers['webhook-timestamp']).toBe(String(Math.floor(clock.now() / 1000)));
    expect(signed!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(signed!.headers.authorization).toBe('Bearer hook-token');
    const verify = (raw: string, secret = SIGNING_SECRET) =>
      verifyWebhook(
        { method: 'Standard Webhooks', secret },
        {
          rawBody: new TextEncoder().encode(raw),
          headers: Object.fromEntries(Object.entries(signed!.headers).map(([name, value]) => [name, String(value)])),
        },
        { sandbox: undefined as never, now: clock.now() },
      );
    expect(await verify(signed!.raw)).toMatchObject({ verified: true });
    expect((await verify(signed!.raw.replace('failing', 'healthy'))).verified).toBe(false);
    expect((await verify(signed!.raw, `whsec_${Buffer.alloc(32, 8).toString('base64')}`)).verified).toBe(false);
  });

  it('stores secret parts sealed: reads answer ***, an update sending *** keeps them', async () => {
    const created = await webhook({ signingSecret: SIGNING_SECRET, headers: { Authorization: 'Bearer hook-token' } });
    expect(created).toMatchObject({
      type: 'webhook',
      url: '***',
      destination: receiver.url,
      signingSecret: '***',
      headers: { Authorization: '***' },
      repeatEvery: null,
      enabled: true,
    });
    const pager = await engine.health.channels.create(A, suite.id, {
      type: 'pagerduty',
      name: 'pager',
      routingKey: 'R0UTING-KEY',
    });
    expect(pager).toMatchObject({
      url: 'https://events.pagerduty.com/v2/enqueue',
      destination: 'https://events.pagerduty.com',
      routingKey: '***',
      severity: 'critical',
      signingSecret: null,
    });
    const everything = JSON.stringify([
      await engine.health.channels.list(A, suite.id),
      await engine.health.channels.get(A, suite.id, created.id),
    ]);
    for (const secret of ['s3cr3t-token', 'hook-token', SIGNING_SECRET, 'R0UTING-KEY'])
      expect(everything).not.toContain(secret);
    expect(JSON.stringify(await store.alertChannels.list(A, suite.id))).not.toContain('s3cr3t-token');

    const updated = await engine.health.channels.update(A, suite.id, created.id, {
      type: 'webhook',
      name: 'renamed',
      url: '***',
      signingSecret: '***',
      headers: { Authorization: '***', 'X-Team': 'payments' },
      repeatEvery: '30m',
      enabled: false,
    });
    expect(updated).toMatchObject({ name: 'renamed', repeatEvery: 1_800_000, enabled: false });
    expect(await store.alertChannels.openSecrets(A, created.id)).toEqual({
      url: `${receiver.url}/hooks/ops?token=s3cr3t-token`,
      signingSecret: SIGNING_SECRET,
      'header.Authorization': 'Bearer hook-token',
      'header.X-Team': 'payments',
    });
    // Without a stored value, *** is refused with its path.
    await expect(
      engine.health.channels.update(A, suite.id, pager.id, {
        type: 'pagerduty',
        name: 'pager',
        routingKey: '***',
        signingSecret: '***',
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { problems: [{ path: 'signingSecret' }] } });
  });

  it('refuses *** for a secret when an update changes where the channel sends, naming each field', async () => {
    const hook = await webhook({ signingSecret: SIGNING_SECRET, headers: { Authorization: 'Bearer hook-token' } });
    const redirected = {
      type: 'webhook',
      name: 'ops-hook',
      url: 'http://attacker.example/steal',
      signingSecret: '***',
      headers: { Authorization: '***' },
    };
    const refusal = {
      code: 'VALIDATION_ERROR',
      details: {
        problems: [
          expect.objectContaining({ path: 'signingSecret', message: expect.stringContaining('send the value again') }),
          expect.objectContaining({ path: 'headers.Authorization' }),
        ],
      },
    };
    await expect(engine.health.channels.update(A, suite.id, hook.id, redirected)).rejects.toMatchObject(refusal);
    // Another port or scheme of the same host is another destination too.
    const port = new URL(receiver.url).port;
    for (const url of [`http://127.0.0.1:${Number(port) + 1}/hooks/ops`, `https://127.0.0.1:${port}/hooks/ops`])
      await expect(engine.health.channels.update(A, suite.id, hook.id, { ...redirected, url })).rejects.toMatchObject(
        refusal,
      );
    expect(await engine.health.channels.get(A, suite.id, hook.id)).toEqual(hook);
    expect(await store.alertChannels.openSecrets(A, hook.id)).toEqual({
      url: `${receiver.url}/hooks/ops?token=s3cr3t-token`,
      signingSecret: SIGNING_SECRET,
      'header.Authorization': 'Bearer hook-token',
    });

    // The same destination on another path keeps them; a new destination with the values sent again takes them.
    await engine.health.channels.update(A, suite.id, hook.id, { ...redirected, url: `${receiver.url}/hooks/new` });
    expect(await store.alertChannels.openSecrets(A, hook.id)).toMatchObject({
      url: `${receiver.url}/hooks/new`,
      signingSecret: SIGNING_SECRET,
      'header.Authorization': 'Bearer hook-token',
    });
    const moved = await engine.health.channels.update(A, suite.id, hook.id, {
      ...redirected,
      signingSecret: null,
      headers: { Authorization: 'Bearer new-token' },
    });
    expect(moved).toMatchObject({ destination: 'http://attacker.example', signingSecret: null });

    // A Slack channel's signing secret, and a PagerDuty channel's routing key when its Events API address moves.
    const slack = await engine.health.channels.create(A, suite.id, {
      type: 'slack',
      name: 'ops-slack',
      url: 'https://hooks.slack.com/services/T000/B000/s3cr3t',
      signingSecret: SIGNING_SECRET,
    });
    await expect(
      engine.health.channels.update(A, suite.id, slack.id, {
        type: 'slack',
        name: 'ops-slack',
        url: 'https://attacker.example/services/T000',
        signingSecret: '***',
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { problems: [{ path: 'signingSecret' }] } });
    const pager = await engine.health.channels.create(A, suite.id, {
      type: 'pagerduty',
      name: 'pager',
      routingKey: 'R0UTING-KEY',
    });
    await expect(
      engine.health.channels.update(A, suite.id, pager.id, {
        type: 'pagerduty',
        name: 'pager',
        routingKey: '***',
        url: 'https://attacker.example/v2/enqueue',
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { problems: [{ path: 'routingKey' }] } });
    const renamed = await engine.health.channels.update(A, suite.id, pager.id, {
      type: 'pagerduty',
      name: 'on-call',
      routingKey: '***',
      url: 'https://events.pagerduty.com/v2/enqueue',
    });
    expect(renamed).toMatchObject({ name: 'on-call', destination: 'https://events.pagerduty.com' });
    expect((await store.alertChannels.openSecrets(A, pager.id))?.routingKey).toBe('R0UTING-KEY');
  });

  it('refuses an alert URL that is not http(s), with its path, and changes nothing', async () => {
    for (const url of ['ftp://example.com/hook', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url']) {
      await expect(webhook({ url })).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { problems: [{ path: 'url', message: 'must be an http:// or https:// URL' }] },
      });
    }
    await expect(
      engine.health.channels.create(A, suite.id, { type: 'pagerduty', name: 'p', routingKey: 'k', url: 'gopher://x' }),
    ).rejects.toMatchObject({ details: { problems: [{ path: 'url' }] } });
    await expect(
      webhook({ repeatEvery: '5s', signingSecret: 'plain', headers: { 'Content-Type': 'x' } }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: {
        problems: expect.arrayContaining([
          expect.objectContaining({ path: 'repeatEvery' }),
          expect.objectContaining({ path: 'signingSecret' }),
          expect.objectContaining({ path: 'headers["Content-Type"]' }),
        ]),
      },
    });
    await expect(
      engine.health.channels.create(A, suite.id, { type: 'email', name: 'x', to: 'ops@example.com' }),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await engine.health.channels.list(A, suite.id)).toEqual([]);
  });

  it('keeps alert channels to health-check suites, and to their own tenant', async () => {
    const regression = await engine.suites.create(A, { name: `gate-${suiteCount}`, flowIds: [orders] });
    made.push(regression.id);
    await expect(
      engine.health.channels.create(A, regression.id, { type: 'slack', name: 'x', url: 'https://hooks.slack.com/x' }),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('health-check suites') });
    // A regression suite's runs record no health state.
    await engine.suites.run(A, regression.id, { env });
    expect((await engine.health.get(A, regression.id)).checks[0]!.state).toBe('unknown');

    const channel = await webhook();
    await expect(engine.health.channels.list(B, suite.id)).rejects.toMatchObject({ code: 'SUITE_NOT_FOUND' });
    await expect(engine.health.channels.get(B, suite.id, channel.id)).rejects.toMatchObject({
      code: 'SUITE_NOT_FOUND',
    });
    await expect(engine.health.get(B, suite.id)).rejects.toMatchObject({ code: 'SUITE_NOT_FOUND' });
    await expect(engine.health.listAlerts(B, suite.id)).rejects.toMatchObject({ code: 'SUITE_NOT_FOUND' });
    await expect(engine.health.channels.get(A, suite.id, 'alc_none')).rejects.toMatchObject({
      code: 'ALERT_CHANNEL_NOT_FOUND',
    });
  });

  it('removes a deleted suite’s channels, states and queued alerts', async () => {
    const channel = await webhook();
    await runWith(false);
    await engine.suites.delete(A, suite.id);
    expect(await store.alertChannels.get(A, suite.id, channel.id)).toBeUndefined();
    expect(await store.health.listChecks(A, suite.id)).toEqual([]);
    expect(await engine.health.deliverDue()).toMatchObject({ attempted: 0 });
    expect(receiver.received).toEqual([]);
  });

  it('sends a channel that still existed when its alert was queued, and records a deleted one as failed', async () => {
    const channel = await webhook();
    await runWith(false);
    await engine.health.channels.delete(A, suite.id, channel.id);
    expect(await engine.health.deliverDue()).toEqual({ attempted: 2, delivered: 0, retrying: 0, failed: 2 });
    expect((await alerts())[0]).toMatchObject({
      channelName: null,
      status: 'failed',
      lastError: { code: 'ALERT_CHANNEL_NOT_FOUND' },
    });
  });
});

describe('alert delivery in a worker', () => {
  let api: Awaited<ReturnType<typeof startHealthApi>>;
  let receiver: AlertReceiver;
  let store: ReturnType<typeof openSqliteStore>;
  let engine: Engine;
  afterEach(async () => {
    await engine?.stop({ graceMs: 50 });
    await store?.close();
    await receiver?.close();
    await api?.close();
  });

  it('sends alerts in the background without holding the runs or the other channels, when one channel never answers', async () => {
    api = await startHealthApi();
    receiver = await startAlertReceiver();
    receiver.answer = 'hang';
    const healthy = await startAlertReceiver();
    store = openSqliteStore({ path: ':memory:' });
    engine = await createEngine({
      store,
      egress: createEgressPolicy({ mode: 'local' }),
      alerts: { timeoutMs: 30_000, pollIntervalMs: 20, batchSize: 8 },
    });
    try {
      const flowIds = [];
      for (let i = 0; i < 5; i += 1) flowIds.push((await engine.flows.create(A, healthFlow(`check-${i}`))).id);
      const suite = await engine.suites.create(A, { name: 'hung-channel', kind: 'health-check', flowIds });
      await engine.health.channels.create(A, suite.id, { type: 'webhook', name: 'hung', url: `${receiver.url}/hook` });
      await engine.health.channels.create(A, suite.id, { type: 'webhook', name: 'fine', url: `${healthy.url}/hook` });
      engine.startWorker();
      const env = { baseUrl: api.url };
      const until = async (ready: () => boolean) => {
        for (let waited = 0; !ready() && waited < 5_000; waited += 10)
          await new Promise((resolve) => setTimeout(resolve, 10));
      };
      api.healthy = false;
      await engine.suites.run(A, suite.id, { env });
      // The hung channel holds its share (4) of the eight slots; the other channel's five alerts go out beside them.
      await until(() => receiver.received.length === 4 && healthy.received.length === 5);
      expect([receiver.received.length, healthy.received.length]).toEqual([4, 5]);

      const durations: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const started = performance.now();
        const result = await engine.suites.run(A, suite.id, { env });
        durations.push(performance.now() - started);
        expect(result.failed).toBe(5);
      }
      expect(Math.max(...durations)).toBeLessThan(2_000);
      expect((await engine.health.get(A, suite.id)).checks.every((check) => check.streak === 4)).toBe(true);

      // The recovery's alerts still reach the working channel while the hung requests are open.
      api.healthy = true;
      await engine.suites.run(A, suite.id, { env });
      await until(() => healthy.received.length === 10);
      expect(healthy.received.slice(5).map((alert) => alert.body.type)).toEqual(
        Array.from({ length: 5 }, () => 'health-check.recovered'),
      );
    } finally {
      await healthy.close();
    }
  });
});
