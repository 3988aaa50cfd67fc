import { createHmac, randomUUID } from 'node:crypto';

export interface CallbackReply {
  status: number;
  body: unknown;
}

type DeliveryStatus = 'scheduled' | 'delivered' | 'failed';

interface Delivery {
  callbackId: string;
  callbackUrl: string;
  delayMs: number;
  status: DeliveryStatus;
  /** The receiver's HTTP status, once it answered. */
  responseStatus: number | null;
  error: string | null;
  /** Milliseconds since the epoch when the callback is (or was) sent. */
  sendAt: number;
}

export interface CallbackSender {
  /** Routes `POST /callbacks` and `GET /callbacks/{id}`; undefined for any other request. */
  route(method: string, segments: string[], body: unknown): CallbackReply | undefined;
  /** Cancels every callback not sent yet and forgets the deliveries (server close and reset). */
  cancelAll(): void;
}

/** Longest delay a callback may ask for (as `/slow` allows). */
const MAX_DELAY_MS = 60_000;
/** Callbacks waiting at once: each holds a timer and its payload until it is sent. */
const MAX_PENDING = 1_000;
/** Deliveries remembered for `GET /callbacks/{id}`. */
const MAX_REMEMBERED = 10_000;
/** How long a receiver may take to answer. */
const SEND_TIMEOUT_MS = 10_000;

const problem = (status: number, code: string, message: string): CallbackReply => ({
  status,
  body: { error: { code, message } },
});

/** The headers of a signed callback, computed as a receiver recomputes them. */
export function signCallback(secret: string, body: string, timestampSeconds: number): Record<string, string> {
  const timestamp = String(timestampSeconds);
  const digest = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return { 'x-timestamp': timestamp, 'x-signature': `sha256=${digest}` };
}

/**
 * `POST /callbacks` of the demo API: a job that reports back. It answers 202 at once and, after
 * `delayMs`, POSTs `payload` as JSON to `callbackUrl`, as a payment provider or a batch service
 * calls a webhook when its work is done. With `hmacSecret`, the request carries
 * `X-Timestamp: <unix seconds>` and `X-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`,
 * which a `component-webhook` node verifies with method HMAC-SHA256, header X-Signature and
 * timestampHeader X-Timestamp. `GET /callbacks/{id}` tells how the delivery went.
 */
export function createCallbackSender(): CallbackSender {
  const deliveries = new Map<string, Delivery>();
  const timers = new Map<string, NodeJS.Timeout>();
  const sending = new Set<AbortController>();

  function remember(delivery: Delivery): void {
    deliveries.set(delivery.callbackId, delivery);
    // Oldest first: a Map iterates in insertion order.
    if (deliveries.size > MAX_REMEMBERED) {
      for (const [id, old] of deliveries) {
        if (deliveries.size <= MAX_REMEMBERED) break;
        if (old.status !== 'scheduled') deliveries.delete(id);
      }
    }
  }

  function schedule(body: unknown): CallbackReply {
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      return problem(400, 'VALIDATION_ERROR', 'the request body must be a JSON object');
    const input = body as Record<string, unknown>;
    let url: URL;
    try {
      url = new URL(String(input.callbackUrl));
    } catch {
      return problem(400, 'VALIDATION_ERROR', 'callbackUrl must be an absolute http:// or https:// URL');
    }
    if (typeof input.callbackUrl !== 'string' || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      return problem(400, 'VALIDATION_ERROR', 'callbackUrl must be an absolute http:// or https:// URL');
    const delayMs = input.delayMs ?? 0;
    if (typeof delayMs !== 'number' || !Number.isInteger(delayMs) || delayMs < 0 || delayMs > MAX_DELAY_MS)
      return problem(400, 'VALIDATION_ERROR', `delayMs must be an integer from 0 to ${MAX_DELAY_MS}`);
    const secret = input.hmacSecret;
    if (secret !== undefined && (typeof secret !== 'string' || secret === ''))
      return problem(400, 'VALIDATION_ERROR', 'hmacSecret must be a non-empty string when given');
    if (timers.size >= MAX_PENDING)
      return problem(429, 'TOO_MANY_CALLBACKS', `at most ${MAX_PENDING} callbacks may wait at once`);

    const delivery: Delivery = {
      callbackId: `cb_${randomUUID()}`,
      callbackUrl: url.href,
      delayMs,
      status: 'scheduled',
      responseStatus: null,
      error: null,
      sendAt: Date.now() + delayMs,
    };
    const payload = JSON.stringify(input.payload ?? {});
    remember(delivery);
    const timer = setTimeout(() => {
      timers.delete(delivery.callbackId);
      void send(delivery, payload, secret);
    }, delayMs);
    timers.set(delivery.callbackId, timer);
    return { status: 202, body: delivery };
  }

  async function send(delivery: Delivery, payload: string, secret: string | undefined): Promise<void> {
    const controller = new AbortController();
    sending.add(controller);
    const timeout = setTimeout(
      () => controller.abort(new Error(`no answer within ${SEND_TIMEOUT_MS} ms`)),
      SEND_TIMEOUT_MS,
    );
    try {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        ...(secret === undefined ? {} : signCallback(secret, payload, Math.floor(Date.now() / 1000))),
      };
      const response = await fetch(delivery.callbackUrl, {
        method: 'POST',
        headers,
        body: payload,
        signal: controller.signal,
        redirect: 'manual',
      });
      await response.arrayBuffer().catch(() => undefined);
      delivery.responseStatus = response.status;
      delivery.status = response.ok ? 'delivered' : 'failed';
      if (!response.ok) delivery.error = `the receiver answered ${response.status}`;
    } catch (error) {
      delivery.status = 'failed';
      const cause = error instanceof Error ? (error.cause ?? error) : error;
      delivery.error = cause instanceof Error ? cause.message : String(cause);
    } finally {
      clearTimeout(timeout);
      sending.delete(controller);
    }
  }

  return {
    route(method, segments, body) {
      if (segments[0] !== 'callbacks') return undefined;
      if (segments.length === 1 && method === 'POST') return schedule(body);
      if (segments.length === 2 && method === 'GET') {
        const delivery = deliveries.get(segments[1]!);
        return delivery
          ? { status: 200, body: delivery }
          : problem(404, 'CALLBACK_NOT_FOUND', `callback ${segments[1]} does not exist`);
      }
      return undefined;
    },
    cancelAll() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      for (const controller of sending) controller.abort(new Error('the demo API stopped'));
      sending.clear();
      deliveries.clear();
    },
  };
}
