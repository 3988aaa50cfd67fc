import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  healthFlow,
  startAlertReceiver,
  startHealthApi,
  type AlertReceiver,
} from '../../engine/test/helpers/alert-receiver.js';
import { connect, openMemoryEngine, structured, textOf, type Connected } from './helpers.js';

type Json = Record<string, any>;

describe('health-check suites through the local tools', () => {
  let api: Awaited<ReturnType<typeof startHealthApi>>;
  let receiver: AlertReceiver;
  let local: Awaited<ReturnType<typeof openMemoryEngine>>;
  let mcp: Connected;
  let suiteId: string;

  beforeAll(async () => {
    api = await startHealthApi();
    receiver = await startAlertReceiver();
    local = await openMemoryEngine();
    mcp = await connect(local.api);
    const flow = await local.engine.flows.create('default', healthFlow('orders-health'));
    const suite = await local.engine.suites.create('default', {
      name: 'api-health',
      kind: 'health-check',
      flowIds: [flow.id],
    });
    suiteId = suite.id;
    await local.engine.health.channels.create('default', suiteId, {
      type: 'slack',
      name: 'ops',
      url: `${receiver.url}/services/T/B/s3cr3t`,
    });
  });
  afterAll(async () => {
    await mcp?.close();
    await local?.close();
    await receiver?.close();
    await api?.close();
  });

  it('svc_run_suite records the checks and sends the alert; svc_suite_health reads both', async () => {
    const before = structured<{ health: Json; alerts: Json[] }>(await mcp.call('svc_suite_health', { suiteId }));
    expect(before.health).toMatchObject({ status: 'unknown', checks: [{ name: 'orders-health', state: 'unknown' }] });
    expect(before.alerts).toEqual([]);

    api.healthy = false;
    for (let run = 0; run < 2; run += 1) {
      const result = await mcp.call('svc_run_suite', { suiteId, env: { baseUrl: api.url } });
      expect(structured<{ run: { status: string } }>(result).run.status).toBe('failed');
    }
    // The local API sends the run's alerts in the background, once.
    for (let waited = 0; receiver.received.length === 0 && waited < 5_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.body.text).toContain('Failing: orders-health (suite api-health)');

    const result = await mcp.call('svc_suite_health', { suiteId, limit: 5 });
    const answer = structured<{ health: Json; alerts: Json[] }>(result);
    expect(answer.health).toMatchObject({
      status: 'failing',
      checks: [
        { state: 'failing', streak: 2, lastFailure: { step: 'GetHealth', error: { code: 'ASSERTION_FAILED' } } },
      ],
    });
    expect(answer.alerts).toEqual([
      expect.objectContaining({ channelName: 'ops', channelType: 'slack', event: 'failing', status: 'delivered' }),
    ]);
    const text = textOf(result);
    expect(text).toMatch(/orders-health\s+failing\s+\S+\s+ASSERTION_FAILED at GetHealth/);
    expect(text).toMatch(/alr_\S+\s+ops\s+failing\s+delivered\s+1/);
    expect(text).not.toContain('s3cr3t');
  });

  it('answers SUITE_NOT_FOUND for an unknown suite, and names a misspelt argument', async () => {
    const missing = await mcp.call('svc_suite_health', { suiteId: 'ste_nope' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('SUITE_NOT_FOUND');
    const typo = await mcp.call('svc_suite_health', { suiteid: suiteId });
    expect(typo.isError).toBe(true);
    expect(textOf(typo)).toContain('did you mean suiteId?');
  });
});
