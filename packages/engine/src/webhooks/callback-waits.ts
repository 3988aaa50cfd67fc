import type { CallbackDeliveryRecord, Store } from '../store/types.js';
import { createCallbackTokens, hashCallbackToken, type CallbackTarget, type CallbackTokens } from './callback-token.js';

/** What runs use of callbacks: the URL of a wait, and the delivery it received. */
export interface CallbackWaits {
  readonly tokens: CallbackTokens;
  /** `<publicUrl>/webhooks/callback/<token>`. */
  urlFor(target: CallbackTarget): string;
  /** The verified callback stored for the wait, if one arrived. */
  find(target: CallbackTarget): Promise<CallbackDeliveryRecord | undefined>;
}

export const CALLBACK_PATH = '/webhooks/callback/';

/**
 * Callback URLs and deliveries over a store.
 * @example
 * const waits = createCallbackWaits({ store, publicUrl: () => 'https://svc.example.com' });
 * waits.urlFor({ tenantId, executionId, nodeId: 'n3', scope: '' }); // 'https://svc.example.com/webhooks/callback/cb_…'
 */
export function createCallbackWaits(options: { store: Store; publicUrl: () => string }): CallbackWaits {
  const tokens = createCallbackTokens(options.store.deriveKey('callback-tokens'));
  return {
    tokens,
    urlFor: (target) => `${options.publicUrl().replace(/\/+$/, '')}${CALLBACK_PATH}${tokens.tokenFor(target)}`,
    find: (target) => options.store.webhooks.getDelivery(target.tenantId, hashCallbackToken(tokens.tokenFor(target))),
  };
}
