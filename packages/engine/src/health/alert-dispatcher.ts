import type { Clock } from '../clock.js';
import { isSvcError } from '../errors.js';
import type { HttpClient, HttpResponse } from '../http/types.js';
import type { Logger } from '../logger.js';
import type { AlertAttemptOutcome, AlertChannelRecord, AlertDeliveryRecord } from '../store/health-types.js';
import type { Store } from '../store/types.js';
import { HEADER_SECRET_PREFIX, destinationOf } from './alert-channel-service.js';
import { PAGERDUTY_EVENTS_URL } from './alert-channel-schema.js';
import { pagerDutyPayload, slackPayload, webhookPayload } from './alert-payloads.js';
import { signStandardWebhook } from './sign-alert.js';

/** How deliveries are sent and retried. Every field has a default. */
export interface AlertDeliveryOptions {
  /** Attempts before a delivery is recorded as failed (default 6). */
  maxAttempts?: number;
  /** The wait after the first failed attempt (default 10 s); each next one is `factor` times longer. */
  initialDelayMs?: number;
  /** Default 3: 10 s, 30 s, 90 s, 4.5 min, 13.5 min. */
  factor?: number;
  /** No wait longer than this (default 30 min), a `Retry-After` included. */
  maxDelayMs?: number;
  /** One request's whole deadline (default 10 s). */
  timeoutMs?: number;
  /** A claimed attempt not finished in this long (its process died) is due again (default 60 s). */
  leaseMs?: number;
  /** Deliveries claimed and sent at once (default 16). */
  batchSize?: number;
  /** Of those, at most this many to one channel (default 4): a channel that hangs holds no more. */
  maxPerChannel?: number;
  /** How often a worker looks for due deliveries (default 1 s). */
  pollIntervalMs?: number;
}

/** What one pass over the due deliveries did. */
export interface DeliveryPassSummary {
  /** Attempts made. */
  attempted: number;
  delivered: number;
  /** Failed attempts that will be retried. */
  retrying: number;
  /** Deliveries given up on (attempts exhausted, or a failure retrying cannot mend). */
  failed: number;
}

export interface AlertDispatcher {
  /**
   * Claims the deliveries due now and sends them, once; resolves when their outcomes are stored.
   * `limit` caps the attempts of this pass (default: up to 8 batches).
   */
  deliverDue(options?: { limit?: number }): Promise<DeliveryPassSummary>;
  /** Sends due deliveries in the background, now and then, until `stop` (what `svc serve` runs). */
  start(): void;
  /** A started dispatcher looks for due deliveries at once (new alerts were queued). */
  nudge(): void;
  /** Stops looking and waits up to `graceMs` for attempts in flight (the others are retried after their lease). */
  stop(options?: { graceMs?: number }): Promise<void>;
}

export interface AlertDispatcherDeps {
  store: Store;
  /** The engine's HTTP client: alerts go out under the same egress policy as flows. */
  http: HttpClient;
  clock: Clock;
  logger: Logger;
  options?: AlertDeliveryOptions;
}

const DEFAULTS: Required<AlertDeliveryOptions> = {
  maxAttempts: 6,
  initialDelayMs: 10_000,
  factor: 3,
  maxDelayMs: 30 * 60_000,
  timeoutMs: 10_000,
  leaseMs: 60_000,
  batchSize: 16,
  maxPerChannel: 4,
  pollIntervalMs: 1_000,
};

/** A pass takes at most this many batches, so one process does not hold every due delivery. */
const MAX_BATCHES_PER_PASS = 8;
/** How much of a refusing answer's body is kept in `lastError`. */
const MAX_ANSWER_EXCERPT = 200;

/** The wait after failed attempt `attempt` (1-based): exponential, capped. */
export function backoffDelay(attempt: number, options: Required<AlertDeliveryOptions>): number {
  return Math.min(options.maxDelayMs, Math.round(options.initialDelayMs * options.factor ** Math.max(0, attempt - 1)));
}

/** Statuses a later attempt may get past: the receiver is busy, rate limiting, or down for now. */
function retryableStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `now`; undefined when absent or unreadable. */
function retryAfterMs(response: HttpResponse, now: number): number | undefined {
  const value = response.headers['retry-after'];
  if (value === undefined) return undefined;
  if (/^\d{1,7}$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * Removes what must not be recorded from an error message: every secret of the channel, and the
 * path and query of its URL (which hold a Slack or webhook token), keeping the origin.
 */
function scrub(message: string, url: string, secrets: readonly string[]): string {
  const origin = destinationOf(url);
  let text = message;
  const forms = [url];
  try {
    forms.push(new URL(url).href);
  } catch {
    // Not a URL: only the text as given can be in the message.
  }
  for (const form of forms) if (form.length >= 4) text = text.split(form).join(`${origin}/…`);
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 4) text = text.split(secret).join('***');
  }
  return text.length > 500 ? `${text.slice(0, 499)}…` : text;
}

/** The request a delivery is, for its channel. */
function requestOf(
  delivery: AlertDeliveryRecord,
  channel: AlertChannelRecord,
  secrets: Record<string, string>,
  now: number,
): { url: string; headers: Record<string, string>; body: string } {
  const settings = channel.settings as { url?: string; severity?: string };
  let url: string;
  let payload: unknown;
  if (channel.type === 'pagerduty') {
    url = settings.url ?? PAGERDUTY_EVENTS_URL;
    payload = pagerDutyPayload(delivery.alert, {
      routingKey: secrets.routingKey ?? '',
      severity: settings.severity ?? 'critical',
    });
  } else {
    url = secrets.url ?? '';
    payload = channel.type === 'slack' ? slackPayload(delivery.alert) : webhookPayload(delivery.alert, delivery.id);
  }
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(secrets))
    if (key.startsWith(HEADER_SECRET_PREFIX)) headers[key.slice(HEADER_SECRET_PREFIX.length)] = value;
  headers['content-type'] = 'application/json';
  headers['user-agent'] = 'svc-alerts';
  if (secrets.signingSecret) {
    Object.assign(
      headers,
      signStandardWebhook({ secret: secrets.signingSecret, id: delivery.id, timestamp: Math.floor(now / 1000), body }),
    );
  }
  return { url, headers, body };
}

/**
 * Sends alert deliveries: claims due rows from the store (a conditional update of their due
 * time, so several processes never send one twice at once), posts each through the engine's
 * HTTP client, and stores the outcome: delivered, due again after a backoff, or failed once the
 * attempts run out or the answer says retrying cannot help. Nothing here runs inside a suite run:
 * a channel that hangs or refuses delays only its own deliveries.
 * @example
 * const dispatcher = createAlertDispatcher({ store, http, clock, logger });
 * await dispatcher.deliverDue(); // { attempted: 2, delivered: 1, retrying: 1, failed: 0 }
 */
export function createAlertDispatcher(deps: AlertDispatcherDeps): AlertDispatcher {
  const { store, http, clock, logger } = deps;
  const options: Required<AlertDeliveryOptions> = { ...DEFAULTS, ...deps.options };
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  let pass: Promise<DeliveryPassSummary> | undefined;
  let again = false;
  /** The pass running now aborts its requests through this when `stop` has waited its grace. */
  let passAbort: AbortController | undefined;

  const retryOrFail = (
    delivery: AlertDeliveryRecord,
    now: number,
    lastError: { code: string; message: string },
    responseStatus: number | null,
    retryable: boolean,
    atLeastMs = 0,
  ): AlertAttemptOutcome => {
    if (retryable && delivery.attempts < options.maxAttempts) {
      const delay = Math.min(options.maxDelayMs, Math.max(backoffDelay(delivery.attempts, options), atLeastMs));
      return { status: 'pending', at: now, nextAttemptAt: now + delay, lastError, responseStatus };
    }
    return { status: 'failed', at: now, nextAttemptAt: null, lastError, responseStatus };
  };

  async function attempt(delivery: AlertDeliveryRecord, signal: AbortSignal): Promise<AlertAttemptOutcome> {
    const channel = await store.alertChannels.get(delivery.tenantId, delivery.suiteId, delivery.channelId);
    if (channel === undefined) {
      return retryOrFail(
        delivery,
        clock.now(),
        { code: 'ALERT_CHANNEL_NOT_FOUND', message: 'the alert channel was deleted before the alert was sent' },
        null,
        false,
      );
    }
    let secrets: Record<string, string>;
    try {
      secrets = (await store.alertChannels.openSecrets(delivery.tenantId, delivery.channelId)) ?? {};
    } catch (error) {
      const code = isSvcError(error) ? error.code : 'INTERNAL_ERROR';
      const message = error instanceof Error ? error.message : String(error);
      return retryOrFail(delivery, clock.now(), { code, message }, null, false);
    }
    const request = requestOf(delivery, channel, secrets, clock.now());
    const hidden = Object.values(secrets);
    try {
      const response = await http.send({
        method: 'POST',
        url: request.url,
        headers: request.headers,
        body: request.body,
        timeoutMs: options.timeoutMs,
        maxBodyBytes: 4096,
        signal,
      });
      const now = clock.now();
      if (response.status >= 200 && response.status < 300)
        return { status: 'delivered', at: now, responseStatus: response.status };
      const excerpt = new TextDecoder().decode(response.body).trim().slice(0, MAX_ANSWER_EXCERPT);
      const message = scrub(
        `the channel answered ${response.status}${excerpt ? `: ${excerpt}` : ''}`,
        request.url,
        hidden,
      );
      return retryOrFail(
        delivery,
        now,
        { code: 'HTTP_ERROR_STATUS', message },
        response.status,
        retryableStatus(response.status),
        retryAfterMs(response, now),
      );
    } catch (error) {
      const code = isSvcError(error) ? error.code : 'NETWORK_ERROR';
      const message = scrub(error instanceof Error ? error.message : String(error), request.url, hidden);
      // The network and deadlines mend; a refused address (egress) or a malformed request does not.
      const retryable = isSvcError(error) ? error.retryable : true;
      return retryOrFail(delivery, clock.now(), { code, message }, null, retryable);
    }
  }

  async function sendOne(
    delivery: AlertDeliveryRecord,
    summary: DeliveryPassSummary,
    signal: AbortSignal,
  ): Promise<void> {
    let outcome: AlertAttemptOutcome;
    try {
      outcome = await attempt(delivery, signal);
    } catch (error) {
      // A store failure while preparing: the claim's lease brings the delivery back later.
      logger.error('alert delivery could not be attempted', { deliveryId: delivery.id, error: String(error) });
      return;
    }
    // Cut short by a stop: no outcome is recorded, and the claim's lease brings the delivery back.
    if (signal.aborted) return;
    summary.attempted += 1;
    if (outcome.status === 'delivered') summary.delivered += 1;
    else if (outcome.status === 'pending') summary.retrying += 1;
    else summary.failed += 1;
    try {
      await store.health.finishAttempt(delivery.tenantId, delivery.id, delivery.attempts, outcome);
    } catch (error) {
      logger.error('alert delivery outcome could not be recorded', { deliveryId: delivery.id, error: String(error) });
    }
    if (outcome.status === 'failed') {
      logger.warn('alert delivery failed', {
        deliveryId: delivery.id,
        tenantId: delivery.tenantId,
        suiteId: delivery.suiteId,
        channelId: delivery.channelId,
        attempts: delivery.attempts,
        code: outcome.lastError.code,
      });
    }
  }

  async function runPass(signal: AbortSignal, limit: number): Promise<DeliveryPassSummary> {
    const summary: DeliveryPassSummary = { attempted: 0, delivered: 0, retrying: 0, failed: 0 };
    let left = limit;
    for (let batch = 0; batch < MAX_BATCHES_PER_PASS && left > 0 && !signal.aborted; batch += 1) {
      const size = Math.min(options.batchSize, left);
      const claimed = await store.health.claimDue({ now: clock.now(), leaseMs: options.leaseMs, limit: size });
      left -= claimed.length;
      await Promise.all(claimed.map((delivery) => sendOne(delivery, summary, signal)));
      if (claimed.length < size) break;
    }
    return summary;
  }

  /** One pass at a time in this process; a call during a pass waits for it and runs another. */
  const deliverDue = async (passOptions: { limit?: number } = {}): Promise<DeliveryPassSummary> => {
    while (pass !== undefined) await pass.catch(() => undefined);
    const abort = new AbortController();
    passAbort = abort;
    pass = runPass(abort.signal, Math.max(0, Math.floor(passOptions.limit ?? Number.MAX_SAFE_INTEGER)));
    try {
      return await pass;
    } finally {
      pass = undefined;
      passAbort = undefined;
    }
  };

  /*
   * The background worker keeps up to `batchSize` sends in flight and claims more as each ends,
   * so a channel that hangs holds only its own slots (each for at most `timeoutMs`), never the
   * deliveries of other channels behind a whole batch.
   */
  const sending = new Set<Promise<void>>();
  let workerAbort = new AbortController();
  let ticking = false;
  const schedule = (ms: number) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref();
  };
  const ignored: DeliveryPassSummary = { attempted: 0, delivered: 0, retrying: 0, failed: 0 };
  /** Sends of the background worker in flight, per channel id. */
  const perChannel = new Map<string, number>();
  async function fill(): Promise<void> {
    const free = options.batchSize - sending.size;
    if (free <= 0) return;
    const full = [...perChannel].filter(([, count]) => count >= options.maxPerChannel).map(([id]) => id);
    // One per channel a claim: a channel gets more as its sends end, up to its share.
    const claimed = await store.health.claimDue({
      now: clock.now(),
      leaseMs: options.leaseMs,
      limit: free,
      perChannel: 1,
      skipChannelIds: full,
    });
    for (const delivery of claimed) {
      const channel = delivery.channelId;
      perChannel.set(channel, (perChannel.get(channel) ?? 0) + 1);
      const sent: Promise<void> = sendOne(delivery, ignored, workerAbort.signal).finally(() => {
        sending.delete(sent);
        const left = (perChannel.get(channel) ?? 1) - 1;
        if (left > 0) perChannel.set(channel, left);
        else perChannel.delete(channel);
        // A slot is free: more may be due now.
        if (started) schedule(0);
      });
      sending.add(sent);
    }
    // Taking any means more may be due (one per channel was taken): look again at once.
    if (claimed.length > 0) again = true;
  }
  function tick(): void {
    timer = undefined;
    if (!started || ticking) return;
    ticking = true;
    again = false;
    fill()
      .catch((error: unknown) => logger.error('alert delivery claim failed', { error: String(error) }))
      .finally(() => {
        ticking = false;
        if (started) schedule(again && sending.size < options.batchSize ? 0 : options.pollIntervalMs);
      });
  }

  /** Waits for `work`, at most `ms`. */
  const within = async (work: Promise<unknown>, ms: number): Promise<void> => {
    let graceTimer: NodeJS.Timeout | undefined;
    await Promise.race([
      work.catch(() => undefined),
      new Promise<void>((resolve) => {
        graceTimer = setTimeout(resolve, ms);
        graceTimer.unref();
      }),
    ]);
    if (graceTimer !== undefined) clearTimeout(graceTimer);
  };

  return {
    deliverDue,
    start() {
      if (started) return;
      started = true;
      workerAbort = new AbortController();
      schedule(0);
    },
    nudge() {
      if (!started) return;
      if (ticking) again = true;
      else schedule(0);
    },
    async stop(stopOptions = {}) {
      started = false;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      const graceMs = stopOptions.graceMs ?? 10_000;
      const current = pass;
      const inFlight = Promise.all([...sending, current?.catch(() => undefined)]);
      await within(inFlight, graceMs);
      // Still sending past the grace: cut short; their claims bring the deliveries back after the lease.
      workerAbort.abort();
      passAbort?.abort();
      await inFlight.catch(() => undefined);
    },
  };
}
