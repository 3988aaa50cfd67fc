import type { AlertEvent, CheckFailure, CheckStateRecord } from '../store/health-types.js';

/** What one run of a suite says about one check. */
export interface CheckObservation {
  tenantId: string;
  suiteId: string;
  flowId: string;
  checkName: string;
  healthy: boolean;
  executionId: string | null;
  /** Set when not healthy: the step that failed and its error. */
  failure: Omit<CheckFailure, 'at'> | null;
}

/** The channels a transition may alert: disabled ones are left out by the caller. */
export interface AlertTarget {
  channelId: string;
  repeatEveryMs: number | null;
}

export interface CheckDecision {
  next: Omit<CheckStateRecord, 'version'>;
  /** One per channel to alert, with what to tell it. */
  alerts: { channelId: string; event: AlertEvent }[];
}

/**
 * The transition rules of a health check, as a pure function of its previous state and a run:
 * - a check that starts failing (from healthy, or on its first run) alerts every channel once;
 * - a check still failing alerts nobody, except a channel with `repeatEveryMs` whose last alert
 *   about this failure is at least that old (a reminder);
 * - a failing check that passes alerts every channel once that it recovered;
 * - a healthy check that passes (or a first run that passes) alerts nobody.
 * @example
 * decideCheck(undefined, { …, healthy: false, failure }, { now, targets: [{ channelId: 'alc_1', repeatEveryMs: null }] })
 *   .alerts; // [{ channelId: 'alc_1', event: 'failing' }]
 */
export function decideCheck(
  previous: CheckStateRecord | undefined,
  observation: CheckObservation,
  options: { now: number; targets: readonly AlertTarget[] },
): CheckDecision {
  const { now, targets } = options;
  const state = observation.healthy ? 'healthy' : 'failing';
  const failure: CheckFailure | null = observation.failure === null ? null : { ...observation.failure, at: now };
  const base = {
    tenantId: observation.tenantId,
    suiteId: observation.suiteId,
    flowId: observation.flowId,
    checkName: observation.checkName,
    state,
    lastRunAt: now,
    lastExecutionId: observation.executionId,
  } as const;

  if (previous === undefined || previous.state !== state) {
    const startsFailing = state === 'failing';
    const recovers = state === 'healthy' && previous?.state === 'failing';
    const alerted: { channelId: string; event: AlertEvent }[] = startsFailing
      ? targets.map((target) => ({ channelId: target.channelId, event: 'failing' }))
      : recovers
        ? targets.map((target) => ({ channelId: target.channelId, event: 'recovered' }))
        : [];
    return {
      next: {
        ...base,
        since: now,
        streak: 1,
        lastFailure: failure ?? previous?.lastFailure ?? null,
        notifiedAt: startsFailing ? Object.fromEntries(targets.map((target) => [target.channelId, now])) : {},
      },
      alerts: alerted,
    };
  }

  const notifiedAt: Record<string, number> = { ...previous.notifiedAt };
  const alerts: { channelId: string; event: AlertEvent }[] = [];
  if (state === 'failing') {
    for (const target of targets) {
      if (target.repeatEveryMs === null) continue;
      // A channel added during the failure counts from the failure's start.
      const last = notifiedAt[target.channelId] ?? previous.since;
      if (now - last >= target.repeatEveryMs) {
        alerts.push({ channelId: target.channelId, event: 'reminder' });
        notifiedAt[target.channelId] = now;
      }
    }
  }
  return {
    next: {
      ...base,
      since: previous.since,
      streak: previous.streak + 1,
      lastFailure: failure ?? previous.lastFailure,
      notifiedAt,
    },
    alerts,
  };
}
