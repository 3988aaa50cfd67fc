import { describe, expect, it } from 'vitest';
import type { CallbackDeliveryRecord, Store, WebhookReceipt } from '@svc/engine';
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
      await store.webhooks.replaceTriggers(A, 'flw_0', [{ nodeId: 'hook', path: 'orders/v0' }]);
      await store.webhooks.replaceTriggers(B, 'flw_1', [{ nodeId: 'hook', path: 'orders/b' }]);
      expect((await store.webhooks.listTriggers(A)).map((trigger) => [trigger.flowId, trigger.path])).toEqual([
        ['flw_0', 'orders/v0'],
        ['flw_1', 'orders/v2'],
      ]);
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

    describe('receipts', () => {
      const receipt = (overrides: Partial<WebhookReceipt> = {}): WebhookReceipt => ({
        tenantId: A,
        path: 'orders/created',
        key: 'k'.repeat(64),
        executionId: 'exe-1',
        claimedAt: T0,
        expiresAt: T0 + 300_000,
        ...overrides,
      });
      const live = { abandonedBefore: T0 - 60_000 };

      it('takes a key once, per tenant and path, and answers the execution of the receipt that holds it', async () => {
        const store = current();
        expect(await store.webhooks.claimReceipt(receipt(), live)).toEqual({ claimed: true, executionId: 'exe-1' });
        await store.executions.create(executionFixture({ id: 'exe-1' }));
        expect(await store.webhooks.claimReceipt(receipt({ executionId: 'exe-2', claimedAt: T0 + 5 }), live)).toEqual({
          claimed: false,
          executionId: 'exe-1',
        });
        for (const other of [{ tenantId: B }, { path: 'orders/v2' }, { key: 'j'.repeat(64) }]) {
          expect(await store.webhooks.claimReceipt(receipt({ ...other, executionId: 'exe-3' }), live)).toEqual({
            claimed: true,
            executionId: 'exe-3',
          });
        }
      });

      it('replaces a receipt that expired, or that was abandoned before its execution was created', async () => {
        const store = current();
        await store.webhooks.claimReceipt(receipt({ expiresAt: T0 + 1_000 }), live);
        await store.executions.create(executionFixture({ id: 'exe-1' }));
        // Live and its execution exists: held, however old.
        expect(
          await store.webhooks.claimReceipt(receipt({ executionId: 'exe-2', claimedAt: T0 + 999 }), {
            abandonedBefore: T0 + 999,
          }),
        ).toEqual({ claimed: false, executionId: 'exe-1' });
        expect(
          await store.webhooks.claimReceipt(receipt({ executionId: 'exe-2', claimedAt: T0 + 1_000 }), live),
        ).toEqual({ claimed: true, executionId: 'exe-2' });
        // exe-2 was never created: held while its claim is recent, taken over once it is older than the bound.
        const later = receipt({ executionId: 'exe-3', claimedAt: T0 + 2_000, expiresAt: T0 + 900_000 });
        expect(await store.webhooks.claimReceipt(later, { abandonedBefore: T0 + 1_000 })).toEqual({
          claimed: false,
          executionId: 'exe-2',
        });
        expect(await store.webhooks.claimReceipt(later, { abandonedBefore: T0 + 1_001 })).toEqual({
          claimed: true,
          executionId: 'exe-3',
        });
      });

      it('releases a receipt only for the execution it names', async () => {
        const store = current();
        await store.webhooks.claimReceipt(receipt(), live);
        await store.webhooks.releaseReceipt({ ...receipt(), executionId: 'exe-other' });
        expect((await store.webhooks.claimReceipt(receipt({ executionId: 'exe-2' }), live)).executionId).toBe('exe-1');
        await store.webhooks.releaseReceipt(receipt());
        expect(await store.webhooks.claimReceipt(receipt({ executionId: 'exe-2' }), live)).toEqual({
          claimed: true,
          executionId: 'exe-2',
        });
      });
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
