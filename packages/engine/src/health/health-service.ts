import type { Clock } from '../clock.js';
import { SvcError } from '../errors.js';
import type { Logger } from '../logger.js';
import { uuidV7 } from '../runtime/uuid-v7.js';
import type {
  AlertChannelType,
  AlertDeliveryRecord,
  AlertDeliveryStatus,
  AlertEvent,
  AlertFacts,
  CheckStateRecord,
  ListAlertDeliveriesQuery,
} from '../store/health-types.js';
import type { Page, Store, SuiteKind, SuiteRecord } from '../store/types.js';
import type { SuiteFlowResult, SuiteRunResult } from '../suites/suite-service.js';
import { createAlertChannelService, type AlertChannelService } from './alert-channel-service.js';
import type { AlertDispatcher, DeliveryPassSummary } from './alert-dispatcher.js';
import { decideCheck, type CheckObservation } from './check-transition.js';

/** One check of a suite as reads answer it; `unknown` until the suite has run it. */
export interface CheckView {
  flowId: string;
  name: string | null;
  state: 'healthy' | 'failing' | 'unknown';
  /** ISO 8601: since when the check is in `state`. */
  since: string | null;
  /** Runs in a row that ended in `state`. */
  streak: number;
  lastRunAt: string | null;
  lastExecutionId: string | null;
  /** The last failure (kept after a recovery): when, which step, which error. */
  lastFailure: {
    at: string;
    executionId: string | null;
    step: string | null;
    error: { code: string; message: string };
  } | null;
}

export interface SuiteHealthView {
  suiteId: string;
  suiteName: string;
  kind: SuiteKind;
  /** `failing` when a check fails, `unknown` while one has not run, else `healthy`. */
  status: 'healthy' | 'failing' | 'unknown';
  /** In the suite's order. */
  checks: CheckView[];
}

/** An alert delivery as reads answer it (no secret is in it: the channel renders the body when sending). */
export interface AlertDeliveryView {
  id: string;
  suiteId: string;
  channelId: string;
  /** Null when the channel was deleted since. */
  channelName: string | null;
  channelType: AlertChannelType;
  flowId: string;
  event: AlertEvent;
  status: AlertDeliveryStatus;
  attempts: number;
  /** ISO 8601, while pending: when the next attempt is due. */
  nextAttemptAt: string | null;
  lastError: { code: string; message: string } | null;
  responseStatus: number | null;
  createdAt: string;
  deliveredAt: string | null;
  alert: AlertFacts;
}

export interface HealthService {
  /** Per-check state of a suite. `SUITE_NOT_FOUND` for a suite the tenant does not have. */
  get(tenantId: string, suiteId: string): Promise<SuiteHealthView>;
  /** The suite's alert deliveries, newest first (status, attempts, last error). */
  listAlerts(tenantId: string, suiteId: string, query?: ListAlertDeliveriesQuery): Promise<Page<AlertDeliveryView>>;
  /** The suite's alert channels. */
  readonly channels: AlertChannelService;
  /**
   * Sends the deliveries due now, once (a worker does this in a loop; tests and `svc run suite`
   * call it); `limit` caps the attempts.
   */
  deliverDue(options?: { limit?: number }): Promise<DeliveryPassSummary>;
}

export interface HealthRecorder {
  /**
   * Records what a run of a health-check suite says about each check and queues the alerts its
   * changes raise (nothing for other kinds of suite). Never throws: a run's result stands even
   * when its state cannot be written (that is logged).
   */
  recordRun(tenantId: string, suite: SuiteRecord, result: SuiteRunResult): Promise<void>;
}

export interface HealthServiceDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  dispatcher: AlertDispatcher;
  /** The service's public base URL: alerts link to the execution over REST there. */
  publicUrl: () => string;
}

/** What a failed flow of the run says about its check: the step that failed and its error. */
function failureOf(flow: SuiteFlowResult): CheckObservation['failure'] {
  const error = flow.error ?? { code: 'FLOW_FAILED', message: 'the check failed' };
  return {
    executionId: flow.executionId,
    step: flow.error?.nodeName ?? null,
    error: { code: error.code, message: error.message },
  };
}

/** Tries of a transition that lost to a concurrent run of the same check before it gives up. */
const MAX_TRANSITION_TRIES = 8;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function checkView(flowId: string, flowName: string | null, record: CheckStateRecord | undefined): CheckView {
  if (record === undefined)
    return {
      flowId,
      name: flowName,
      state: 'unknown',
      since: null,
      streak: 0,
      lastRunAt: null,
      lastExecutionId: null,
      lastFailure: null,
    };
  return {
    flowId,
    name: record.checkName,
    state: record.state,
    since: iso(record.since),
    streak: record.streak,
    lastRunAt: iso(record.lastRunAt),
    lastExecutionId: record.lastExecutionId,
    lastFailure:
      record.lastFailure === null
        ? null
        : {
            at: new Date(record.lastFailure.at).toISOString(),
            executionId: record.lastFailure.executionId,
            step: record.lastFailure.step,
            error: record.lastFailure.error,
          },
  };
}

/**
 * Health-check suites: the state of each check, updated by every run of the suite whatever
 * started it (REST, MCP, CLI, a schedule: they all go through `engine.suites.run`), and the
 * alerts its changes queue for the dispatcher.
 * @example
 * await engine.suites.run('acme', suite.id, { env });
 * (await engine.health.get('acme', suite.id)).checks[0].state; // 'failing'
 * (await engine.health.listAlerts('acme', suite.id)).items[0].status; // 'pending', then 'delivered'
 */
export function createHealthService(deps: HealthServiceDeps): HealthService & HealthRecorder {
  const { store, clock, logger, dispatcher } = deps;
  const channels = createAlertChannelService(store);

  const suiteOf = async (tenantId: string, suiteId: string): Promise<SuiteRecord> => {
    const suite = await store.suites.get(tenantId, suiteId);
    if (!suite) throw new SvcError('SUITE_NOT_FOUND', `suite "${suiteId}" not found`);
    return suite;
  };

  const executionUrl = (executionId: string | null) =>
    executionId === null
      ? null
      : `${deps.publicUrl().replace(/\/+$/, '')}/api/gateway/executions/${encodeURIComponent(executionId)}`;

  async function recordCheck(
    suite: SuiteRecord,
    observation: CheckObservation,
    targets: { channelId: string; channelType: AlertChannelType; repeatEveryMs: number | null }[],
  ): Promise<number> {
    for (let tries = 1; ; tries += 1) {
      const previous = await store.health.getCheck(observation.tenantId, suite.id, observation.flowId);
      const now = clock.now();
      const decision = decideCheck(previous, observation, { now, targets });
      const facts = (event: AlertEvent): AlertFacts => {
        const failure = event === 'recovered' ? previous?.lastFailure : decision.next.lastFailure;
        return {
          event,
          suite: { id: suite.id, name: suite.name },
          check: { flowId: observation.flowId, name: observation.checkName },
          state: decision.next.state,
          since: new Date(decision.next.since).toISOString(),
          error: failure ? { ...failure.error, step: failure.step } : null,
          executionId: observation.executionId,
          executionUrl: executionUrl(observation.executionId),
          time: new Date(now).toISOString(),
        };
      };
      const deliveries = decision.alerts.map((alert): AlertDeliveryRecord => ({
        id: `alr_${uuidV7(now)}`,
        tenantId: observation.tenantId,
        suiteId: suite.id,
        channelId: alert.channelId,
        channelType: targets.find((target) => target.channelId === alert.channelId)!.channelType,
        flowId: observation.flowId,
        event: alert.event,
        alert: facts(alert.event),
        status: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        lastError: null,
        responseStatus: null,
        createdAt: now,
        updatedAt: now,
        deliveredAt: null,
      }));
      const applied = await store.health.transition({
        expectedVersion: previous?.version ?? null,
        next: decision.next,
        deliveries,
      });
      if (applied) return deliveries.length;
      if (tries >= MAX_TRANSITION_TRIES) {
        logger.warn('health check state not recorded: other runs of it kept writing first', {
          suiteId: suite.id,
          flowId: observation.flowId,
        });
        return 0;
      }
    }
  }

  return {
    channels,

    async get(tenantId, suiteId) {
      const suite = await suiteOf(tenantId, suiteId);
      const records = new Map((await store.health.listChecks(tenantId, suiteId)).map((r) => [r.flowId, r]));
      const checks = await Promise.all(
        suite.flowIds.map(async (flowId) => {
          const record = records.get(flowId);
          const name = record ? record.checkName : ((await store.flows.get(tenantId, flowId))?.name ?? null);
          return checkView(flowId, name, record);
        }),
      );
      const status = checks.some((check) => check.state === 'failing')
        ? 'failing'
        : checks.some((check) => check.state === 'unknown')
          ? 'unknown'
          : 'healthy';
      return { suiteId: suite.id, suiteName: suite.name, kind: suite.kind, status, checks };
    },

    async listAlerts(tenantId, suiteId, query) {
      await suiteOf(tenantId, suiteId);
      const page = await store.health.listDeliveries(tenantId, suiteId, query);
      const names = new Map((await store.alertChannels.list(tenantId, suiteId)).map((c) => [c.id, c.name]));
      return {
        items: page.items.map((delivery): AlertDeliveryView => ({
          id: delivery.id,
          suiteId: delivery.suiteId,
          channelId: delivery.channelId,
          channelName: names.get(delivery.channelId) ?? null,
          channelType: delivery.channelType,
          flowId: delivery.flowId,
          event: delivery.event,
          status: delivery.status,
          attempts: delivery.attempts,
          nextAttemptAt: delivery.status === 'pending' ? iso(delivery.nextAttemptAt) : null,
          lastError: delivery.lastError,
          responseStatus: delivery.responseStatus,
          createdAt: new Date(delivery.createdAt).toISOString(),
          deliveredAt: iso(delivery.deliveredAt),
          alert: delivery.alert,
        })),
        nextCursor: page.nextCursor,
      };
    },

    deliverDue: (options) => dispatcher.deliverDue(options),

    async recordRun(tenantId, suite, result) {
      if (suite.kind !== 'health-check') return;
      try {
        const targets = (await store.alertChannels.list(tenantId, suite.id))
          .filter((channel) => channel.enabled)
          .map((channel) => ({
            channelId: channel.id,
            channelType: channel.type,
            repeatEveryMs: channel.repeatEveryMs,
          }));
        let queued = 0;
        for (const flow of result.flows) {
          // A flow not run (failFast stopped the run first) says nothing about its check.
          if (flow.status === 'skipped') continue;
          const healthy = flow.status === 'passed';
          queued += await recordCheck(
            suite,
            {
              tenantId,
              suiteId: suite.id,
              flowId: flow.flowId,
              checkName: flow.flowName ?? flow.flowId,
              healthy,
              executionId: flow.executionId,
              failure: healthy ? null : failureOf(flow),
            },
            targets,
          );
        }
        // Sent by the dispatcher, never awaited here: a slow or broken channel cannot hold the run.
        if (queued > 0) dispatcher.nudge();
      } catch (error) {
        logger.error('health check states could not be recorded', { suiteId: suite.id, error: String(error) });
      }
    },
  };
}
