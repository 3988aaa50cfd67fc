import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { deleteFlow } from './delete-flow.js';

describe('deleteFlow', () => {
  it('releases the trigger paths of the flow it deletes, so that a new flow may take them', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const engine = await createEngine({ store });
    try {
      const hook = (name: string) => ({
        name,
        nodes: [
          {
            id: 't',
            name: 'Hook',
            type: 'component-webhook',
            config: { mode: 'trigger', path: 'orders-in', verification: { method: 'None' } },
          },
        ],
      });
      const saved = await engine.flows.create('acme', hook('first'));
      expect(await store.webhooks.findTrigger('orders-in')).toMatchObject({ flowId: saved.id });

      expect(await deleteFlow(store, 'acme', saved.id)).toBe(true);
      expect(await store.webhooks.findTrigger('orders-in')).toBeUndefined();
      const next = await engine.flows.create('acme', hook('second'));
      expect(await store.webhooks.findTrigger('orders-in')).toMatchObject({ flowId: next.id });

      expect(await deleteFlow(store, 'acme', saved.id)).toBe(false);
      expect(await deleteFlow(store, 'other', next.id)).toBe(false);
      expect(await store.webhooks.findTrigger('orders-in')).toMatchObject({ flowId: next.id });
    } finally {
      await engine.stop();
      await store.close();
    }
  });
});
