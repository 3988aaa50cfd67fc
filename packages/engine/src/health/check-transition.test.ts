import { describe, expect, it } from 'vitest';
import type { CheckStateRecord } from '../store/health-types.js';
import { decideCheck, type CheckObservation } from './check-transition.js';

const T = Date.parse('2026-01-01T00:00:00Z');
const MINUTE = 60_000;
const failure = { executionId: 'exe', step: 'GetHealth', error: { code: 'ASSERTION_FAILED', message: 'no' } };
const observe = (healthy: boolean): CheckObservation => ({
  tenantId: 't',
  suiteId: 'ste',
  flowId: 'flw',
  checkName: 'orders-health',
  healthy,
  executionId: 'exe',
  failure: healthy ? null : failure,
});
const targets = [
  { channelId: 'plain', repeatEveryMs: null },
  { channelId: 'hourly', repeatEveryMs: 60 * MINUTE },
];

/** Runs a sequence of outcomes, one a minute, and answers the alerts of each run. */
function alertsOf(outcomes: boolean[], minutesApart = 1): string[][] {
  let state: CheckStateRecord | undefined;
  return outcomes.map((healthy, index) => {
    const decision = decideCheck(state, observe(healthy), { now: T + index * minutesApart * MINUTE, targets });
    state = { ...decision.next, version: (state?.version ?? 0) + 1 };
    return decision.alerts.map((alert) => `${alert.channelId}:${alert.event}`);
  });
}

describe('health check transitions', () => {
  it('alerts on the change to failing and on the recovery, and not in between', () => {
    expect(alertsOf([true, false, false, false, true, true])).toEqual([
      [],
      ['plain:failing', 'hourly:failing'],
      [],
      [],
      ['plain:recovered', 'hourly:recovered'],
      [],
    ]);
  });

  it('alerts a check whose first run fails, and not one whose first run passes', () => {
    expect(alertsOf([false])).toEqual([['plain:failing', 'hourly:failing']]);
    expect(alertsOf([true])).toEqual([[]]);
  });

  it('reminds only the channels with repeatEvery, each full period of a failure', () => {
    // Runs every 30 minutes: failing at 0, 30, 60, 90, 120.
    expect(alertsOf([false, false, false, false, false], 30)).toEqual([
      ['plain:failing', 'hourly:failing'],
      [],
      ['hourly:reminder'],
      [],
      ['hourly:reminder'],
    ]);
  });

  it('keeps since across a streak and the last failure across a recovery', () => {
    const first = decideCheck(undefined, observe(false), { now: T, targets: [] }).next;
    const second = decideCheck({ ...first, version: 1 }, observe(false), { now: T + MINUTE, targets: [] }).next;
    expect(second).toMatchObject({ state: 'failing', since: T, streak: 2, lastRunAt: T + MINUTE });
    expect(second.lastFailure).toEqual({ ...failure, at: T + MINUTE });
    const healthy = decideCheck({ ...second, version: 2 }, observe(true), { now: T + 2 * MINUTE, targets: [] }).next;
    expect(healthy).toMatchObject({ state: 'healthy', since: T + 2 * MINUTE, streak: 1, notifiedAt: {} });
    expect(healthy.lastFailure).toEqual(second.lastFailure);
  });
});
