import type { Store } from '../store/types.js';

/**
 * Deletes a flow (its versions stay for the executions that ran them) and releases its webhook
 * trigger paths, which then answer 404 and may be taken by another flow, or by a new flow given
 * the same id. False when the tenant has no such flow.
 * @example
 * if (!(await deleteFlow(store, 'default', flowId))) throw new Error('no such flow');
 */
export async function deleteFlow(store: Store, tenantId: string, id: string): Promise<boolean> {
  if (!(await store.flows.delete(tenantId, id))) return false;
  await store.webhooks.replaceTriggers(tenantId, id, []);
  return true;
}
