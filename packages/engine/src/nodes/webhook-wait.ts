import type { WebhookConfig } from '../model/configs/webhook-config.js';
import type { NodeContext, NodeResult } from './types.js';

/** What a wait keeps across its sleep: when it gives up. */
interface WaitState {
  deadline: number;
}

/**
 * Wait mode: completes with the verified callback (`body`, `headers`) as soon as one is stored for
 * this wait (one that came before the wait was reached included); otherwise waits, as a stored due
 * time, until `timeoutMinutes` pass and then fails with `WEBHOOK_TIMEOUT`. The gateway wakes the
 * wait when the callback arrives; the node itself only reads what is stored.
 */
export async function executeWebhookWait(context: NodeContext<WebhookConfig>): Promise<NodeResult> {
  const callback = context.callback();
  const now = context.clock.now();
  const deadline =
    (context.resume?.state as WaitState | undefined)?.deadline ?? now + context.config.timeoutMinutes * 60_000;
  const received = await callback.received();
  if (received !== undefined) {
    return {
      kind: 'completed',
      output: { body: received.body, headers: received.headers },
      handles: ['out'],
      trace: {
        request: { callbackUrl: context.redact(callback.url) },
        response: {
          receivedAt: new Date(received.receivedAt).toISOString(),
          headers: received.headers,
          body: received.body,
        },
      },
    };
  }
  if (now >= deadline) {
    return {
      kind: 'failed',
      error: {
        code: 'WEBHOOK_TIMEOUT',
        message: `no verified callback came within ${context.config.timeoutMinutes} minutes`,
      },
      trace: { request: { callbackUrl: context.redact(callback.url) } },
    };
  }
  return {
    kind: 'wait',
    until: deadline,
    state: { deadline } satisfies WaitState,
    trace: { request: { callbackUrl: callback.url } },
  };
}
