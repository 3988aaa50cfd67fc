import { describe, expect, it } from 'vitest';
import type { Store } from '@svc/engine';
import { A, B, suiteDefinition, tick } from './fixtures.js';

/** The suite cases of the store contract (see `describeStoreContract`). */
export function describeSuiteContract(current: () => Store): void {
  describe('suites', () => {
    it('saves a suite with an assigned ste_ id and timestamps, keeping the flow order', async () => {
      const store = current();
      const saved = await store.suites.create(A, suiteDefinition());
      expect(saved.id).toMatch(/^ste_[a-z2-7]{20}$/);
      expect(saved).toMatchObject({ ...suiteDefinition(), tenantId: A });
      expect(new Date(saved.createdAt).toISOString()).toBe(saved.createdAt);
      expect(saved.updatedAt).toBe(saved.createdAt);
      expect(await store.suites.get(A, saved.id)).toEqual(saved);
      expect(await store.suites.findByName(A, 'checkout-regression')).toEqual(saved);
      expect(await store.suites.findByName(A, 'Checkout-Regression')).toBeUndefined();
    });

    it('keeps the source of a generated suite', async () => {
      const source = { endpointId: 'getOrder', engine: 'schema', jobId: 'job_1' };
      const saved = await current().suites.create(A, suiteDefinition({ kind: 'generated', source, mode: 'parallel' }));
      expect(await current().suites.get(A, saved.id)).toMatchObject({ kind: 'generated', source, mode: 'parallel' });
    });

    it('refuses a second suite with the same name or id in a tenant, not in another tenant', async () => {
      const store = current();
      const first = await store.suites.create(A, suiteDefinition({ name: 'smoke' }));
      await expect(store.suites.create(A, suiteDefinition({ name: 'smoke' }))).rejects.toMatchObject({
        code: 'CONFLICT',
        message: 'a suite named "smoke" already exists',
      });
      await expect(store.suites.create(A, suiteDefinition({ name: 'other' }), { id: first.id })).rejects.toMatchObject({
        code: 'CONFLICT',
      });
      const theirs = await store.suites.create(B, suiteDefinition({ name: 'smoke' }), { id: first.id });
      expect(theirs.id).toBe(first.id);
      expect((await store.suites.list(A)).items.map((suite) => suite.name)).toEqual(['smoke']);
    });

    it('replaces a definition on update, keeping id and creation time', async () => {
      const store = current();
      const saved = await store.suites.create(A, suiteDefinition());
      await tick();
      const updated = await store.suites.update(
        A,
        saved.id,
        suiteDefinition({ name: 'renamed', flowIds: ['flw_a'], mode: 'parallel' }),
      );
      expect(updated).toMatchObject({
        id: saved.id,
        name: 'renamed',
        flowIds: ['flw_a'],
        mode: 'parallel',
        createdAt: saved.createdAt,
      });
      expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(saved.updatedAt));
      expect(await store.suites.get(A, saved.id)).toEqual(updated);
      await store.suites.create(A, suiteDefinition({ name: 'taken' }));
      await expect(store.suites.update(A, saved.id, suiteDefinition({ name: 'taken' }))).rejects.toMatchObject({
        code: 'CONFLICT',
      });
      await expect(store.suites.update(B, saved.id, suiteDefinition())).rejects.toMatchObject({
        code: 'SUITE_NOT_FOUND',
      });
    });

    it('deletes a suite of its own tenant only, and frees its name', async () => {
      const store = current();
      const saved = await store.suites.create(A, suiteDefinition({ name: 'doomed' }));
      expect(await store.suites.delete(B, saved.id)).toBe(false);
      expect(await store.suites.get(A, saved.id)).toBeDefined();
      expect(await store.suites.delete(A, saved.id)).toBe(true);
      expect(await store.suites.delete(A, saved.id)).toBe(false);
      expect(await store.suites.get(A, saved.id)).toBeUndefined();
      await expect(store.suites.create(A, suiteDefinition({ name: 'doomed' }))).resolves.toMatchObject({
        name: 'doomed',
      });
    });

    it('hides another tenant’s suites from get, findByName and list', async () => {
      const store = current();
      const mine = await store.suites.create(A, suiteDefinition({ name: 'mine' }));
      expect(await store.suites.get(B, mine.id)).toBeUndefined();
      expect(await store.suites.findByName(B, 'mine')).toBeUndefined();
      expect((await store.suites.list(B)).items).toEqual([]);
    });

    it('lists summaries with flow counts and modes, searched case-insensitively, page by page', async () => {
      const store = current();
      await store.suites.create(A, suiteDefinition({ name: 'Überweisung smoke', flowIds: ['flw_1'] }));
      await tick();
      await store.suites.create(
        A,
        suiteDefinition({ name: 'orders', description: 'Nightly regression', mode: 'parallel', kind: 'generated' }),
      );
      await tick();
      await store.suites.create(A, suiteDefinition({ name: 'billing', description: '100% coverage' }));

      const all = await store.suites.list(A);
      expect(all.items.map((suite) => suite.name)).toEqual(['billing', 'orders', 'Überweisung smoke']);
      expect(all.items[1]).toEqual({
        id: expect.stringMatching(/^ste_/),
        name: 'orders',
        description: 'Nightly regression',
        mode: 'parallel',
        kind: 'generated',
        flowCount: 3,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(all.items[2]?.flowCount).toBe(1);
      const names = async (query: Parameters<Store['suites']['list']>[1]) =>
        (await store.suites.list(A, query)).items.map((suite) => suite.name);
      expect(await names({ search: 'ÜBERWEISUNG' })).toEqual(['Überweisung smoke']);
      expect(await names({ search: 'NIGHTLY' })).toEqual(['orders']);
      expect(await names({ search: '100%' })).toEqual(['billing']);
      expect(await names({ search: '_' })).toEqual([]);
      expect(await names({ kind: 'generated' })).toEqual(['orders']);

      const first = await store.suites.list(A, { limit: 2 });
      const second = await store.suites.list(A, { limit: 2, cursor: first.nextCursor! });
      expect([...first.items, ...second.items].map((suite) => suite.name)).toEqual([
        'billing',
        'orders',
        'Überweisung smoke',
      ]);
      expect(second.nextCursor).toBeNull();
    });
  });
}
