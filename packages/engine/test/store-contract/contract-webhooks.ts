import { describe, expect, it } from 'vitest';
import type { CallbackDeliveryRecord, Store } from '@svc/engine';
import { A, B, T0, executionFixture } from './fixtures.js';

export function delivery(overrides: Partial<CallbackDeliveryRecord> = {}): CallbackDeliveryRecord {
  return {
    tokenHash: 'a'.repeat(64),
    tenantId: A,
    executionId: 'exe-1',
    nodeId: 'wait',
    scope: '',
    body: { status: 'done', nested: { n: 1 } },
    headers: { 'content-type': 'application/json' },
    receivedAt: T0 + 5,
    ...overrides,
  };
}

/** The webhook cases of the store contract (see `describeStoreContract`). */
export function describeWebhookContract(current: () => Store): void {
  describe('webhooks', () => {
    it('replaces a flow’s trigger paths as a whole, and finds a path in any tenant', async () => {
      const store = current();
      await store.webhooks.replaceTriggers(A, 'flw_1', [{ nodeId: 'hook', path: 'orders/created' }]);
      expect(await store.webhooks.findTrigger('orders/created')).toMatchObject({
        path: 'orders/created',
        tenantId: A,
        flowId: 'flw_1',
        nodeId: 'hook',
      });
      await store.webhooks.replaceTriggers(A, 'flw_1', [{ nodeId: 'hook', path: 'orders/v2' }]);
      expect(await store.webhooks.findTrigger('orders/created')).toBeUndefined();
      expect((await store.webhooks.listTriggers(A, 'flw_1')).map((trigger) => trigger.path)).toEqual(['orders/v2']);
      expect(await store.webhooks.listTriggers(B, 'flw_1')).toEqual([]);
      await store.webhooks.replaceTriggers(A, 'flw_1', []);
      expect(await store.webhooks.listTriggers(A, 'flw_1')).toEqual([]);
    });

    it('refuses a path another flow holds, in any tenant, and changes nothing', async () => {
      const store = current();
      await store.webhooks.replaceTriggers(A, 'flw_1', [{ nodeId: 'hook', path: 'shared' }]);
      await store.webhooks.replaceTriggers(B, 'flw_2', [{ nodeId: 'hook', path: 'mine' }]);
      await expect(
        store.webhooks.replaceTriggers(B, 'flw_2', [{ nodeId: 'hook', path: 'shared' }]),
      ).rejects.toMatchObject({ code: 'WEBHOOK_PATH_TAKEN' });
      expect((await store.webhooks.findTrigger('shared'))?.tenantId).toBe(A);
      expect((await store.webhooks.findTrigger('mine'))?.tenantId).toBe(B);
    });

    it('stores one delivery per token, keeps its body and headers, and answers WEBHOOK_TOKEN_USED to a second', async () => {
      const store = current();
      await store.executions.create(executionFixture({ id: 'exe-1' }));
      await store.webhooks.addDelivery(delivery(), { wakeAt: T0 + 5 });
      expect(await store.webhooks.getDelivery(A, 'a'.repeat(64))).toEqual(delivery());
      expect(await store.webhooks.getDelivery(B, 'a'.repeat(64))).toBeUndefined();
      await expect(
        store.webhooks.addDelivery(delivery({ body: { status: 'again' } }), { wakeAt: T0 + 6 }),
      ).rejects.toMatchObject({ code: 'WEBHOOK_TOKEN_USED' });
      expect((await store.webhooks.getDelivery(A, 'a'.repeat(64)))?.body).toEqual(delivery().body);
      expect(await store.webhooks.listDeliveries(['exe-1', 'exe-other'])).toEqual([delivery()]);
    });

    it('makes a Waiting execution due at once, and leaves others as they are', async () => {
      const store = current();
      await store.executions.create(executionFixture({ id: 'exe-1', status: 'Waiting', wakeAt: T0 + 60_000 }));
      await store.executions.create(executionFixture({ id: 'exe-2', status: 'Completed', endedAt: T0 + 1 }));
      await store.webhooks.addDelivery(delivery(), { wakeAt: T0 + 5 });
      await store.webhooks.addDelivery(delivery({ tokenHash: 'b'.repeat(64), executionId: 'exe-2' }), {
        wakeAt: T0 + 5,
      });
      expect((await store.executions.get(A, 'exe-1'))?.wakeAt).toBe(T0 + 5);
      expect((await store.executions.get(A, 'exe-2'))?.wakeAt).toBeNull();
    });
  });
}
