import { createEngine, isSvcError, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const T = 'tenant-names';
const flow = (name: string, folderId: string | null = null) => ({
  name,
  folderId,
  nodes: [{ id: 'a', name: 'Pause', type: 'delay', config: { duration: 1 } }],
});

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isSvcError(error)) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('flow names', () => {
  let store: ReturnType<typeof openSqliteStore>;
  let engine: Engine;
  beforeAll(async () => {
    store = openSqliteStore({ path: ':memory:' });
    engine = await createEngine({ store });
  });
  afterAll(async () => {
    await engine.stop();
    await store.close();
  });

  it('refuses a second flow of the same name in the same folder with FLOW_NAME_TAKEN, unless asked', async () => {
    const first = await engine.flows.create(T, flow('checkout'));
    const error = await failure(engine.flows.create(T, flow('checkout')));
    expect(error).toMatchObject({ code: 'FLOW_NAME_TAKEN', details: { flowId: first.id } });
    expect(error.message).toContain(`flow ${first.id} in the top folder is named "checkout" already`);
    // Another folder, another name that merely contains it, or an explicit allowance: saved.
    await engine.flows.create(T, flow('checkout', 'fld_other'));
    await engine.flows.create(T, flow('checkout-v2'));
    const second = await engine.flows.create(T, flow('checkout'), { allowDuplicateName: true });
    expect(second.id).not.toBe(first.id);
  });

  it('refuses renaming a flow to a name its folder already has, and keeps its own name free', async () => {
    const kept = await engine.flows.create(T, flow('inventory'));
    const other = await engine.flows.create(T, flow('billing'));
    expect((await engine.flows.update(T, kept.id, flow('inventory'))).version).toBe(2);
    expect((await failure(engine.flows.update(T, other.id, flow('inventory')))).code).toBe('FLOW_NAME_TAKEN');
  });

  it('resolves a flow by id or by its exact name, and says when the name is ambiguous', async () => {
    const only = await engine.flows.create(T, flow('unique-name'));
    expect((await engine.flows.resolve(T, only.id)).id).toBe(only.id);
    expect((await engine.flows.resolve(T, 'unique-name')).id).toBe(only.id);
    expect((await failure(engine.flows.resolve(T, 'unique'))).code).toBe('FLOW_NOT_FOUND');
    const ambiguous = await failure(engine.flows.resolve(T, 'checkout'));
    expect(ambiguous.code).toBe('FLOW_NAME_AMBIGUOUS');
    expect(ambiguous.message).toMatch(
      /^3 flows are named "checkout": flw_\S+, flw_\S+ \(folder fld_other\), flw_\S+; give the id$/,
    );
  });
});
