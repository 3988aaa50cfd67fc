import { SvcError, type Store, type StoredFlow } from '@svc/engine';
import { LOCAL_TENANT } from './local-engine.js';

/** A saved flow by id (`flw_…`) or by name, as `svc run flow` finds one. */
export async function findFlow(store: Store, reference: string): Promise<StoredFlow> {
  const flow =
    (await store.flows.get(LOCAL_TENANT, reference)) ?? (await store.flows.findByName(LOCAL_TENANT, reference));
  if (flow === undefined)
    throw new SvcError('FLOW_NOT_FOUND', `no saved flow has the id or name "${reference}" (svc flows list shows them)`);
  return flow;
}
