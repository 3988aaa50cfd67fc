import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogEndpointInput, CatalogSpecImport, ExecutionStatus, Store } from '@svc/engine';
import { describeJobContract } from './contract-jobs.js';
import { describeSuiteContract } from './contract-suites.js';
import { describeEnvironmentContract } from './contract-environments.js';
import { describeScheduleContract } from './contract-schedules.js';
import { delivery, describeWebhookContract } from './contract-webhooks.js';
import { describeHealthContract } from './contract-health.js';
import { A, B, DAY, T0, clientFixture, executionFixture, flowDocument, hash, stepFixture, tick } from './fixtures.js';

/** How a contract run opens the store under test (see `describeStoreContract`). */
export interface StoreOpeners {
  open(): Promise<Store> | Store;
  openAnother?(): Promise<Store> | Store;
}

/**
 * The one behavioural suite for `Store` implementations, written against the interface only:
 * each implementation runs it from its own test file (drizzle's shared-tests pattern).
 *
 * `open` is called before every test and must return an empty store: the worker's claim
 * operations work across tenants, so rows left by an earlier test would be claimed too.
 * `openAnother`, for stores that other processes can share, opens a second store on the data of
 * the store `open` returned last (the same database file): the cases of two stores side by side
 * run only then.
 *
 * @example
 * describeStoreContract('sqlite :memory:', { open: () => openSqliteStore({ path: ':memory:' }) });
 */
export function describeStoreContract(name: string, stores: StoreOpeners): void {
  describe(`store contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await stores.open();
    });
    afterEach(async () => {
      await store.close();
    });

    describe('flows', () => {
      it('saves a new flow as version 1 with an assigned flw_ id and timestamps', async () => {
        const saved = await store.flows.create(A, flowDocument({ name: 'orders' }));
        expect(saved.id).toMatch(/^flw_[a-z0-9]{20}$/);
        expect(saved.version).toBe(1);
        expect(new Date(saved.createdAt).toISOString()).toBe(saved.createdAt);
        expect(saved.updatedAt).toBe(saved.createdAt);
        expect(saved).toMatchObject({ name: 'orders', nodes: flowDocument().nodes });
        expect(await store.flows.get(A, saved.id)).toEqual(saved);
      });

      it('assigns a different id to each flow', async () => {
        const first = await store.flows.create(A, flowDocument());
        const second = await store.flows.create(A, flowDocument());
        expect(first.id).not.toBe(second.id);
      });

      it('keeps every field of the document', async () => {
        const document = flowDocument({
          description: 'creates an order and reads it back',
          folderId: 'fld_checkout',
          variables: { region: 'eu', retries: 3 },
          inputs: { customerId: { type: 'string', required: true } },
          outputs: { orderId: '{{ResponseBinding.CreateOrder.body.id}}' },
          flowData: {
            canvasGroups: [
              {
                id: 'g1',
                title: 'Checkout',
                color: 'Purple',
                bounds: { x: 0, y: 0, width: 600, height: 300 },
                nodeIds: ['n1'],
              },
            ],
            annotations: [{ id: 'a1', text: 'Zürich ✓', position: { x: 0, y: 320 } }],
          },
        });
        const saved = await store.flows.create(A, document);
        const { id, version, createdAt, updatedAt, ...rest } = saved;
        expect(rest).toEqual(document);
        expect(await store.flows.get(A, id)).toEqual(saved);
      });

      it('does not change the document it was given, nor share objects with it', async () => {
        const document = flowDocument();
        const before = structuredClone(document);
        const saved = await store.flows.create(A, document);
        expect(document).toEqual(before);
        saved.nodes[0]!.name = 'Mutated';
        expect((await store.flows.get(A, saved.id))!.nodes[0]!.name).toBe('CreateOrder');
      });

      it('keeps the id a document carries and ignores the version and time it claims', async () => {
        const saved = await store.flows.create(
          A,
          flowDocument({ id: 'flw_fixed', version: 7, updatedAt: '2001-01-01T00:00:00.000Z' }),
        );
        expect(saved.id).toBe('flw_fixed');
        expect(saved.version).toBe(1);
        expect(saved.updatedAt).not.toBe('2001-01-01T00:00:00.000Z');
        expect((await store.flows.get(A, 'flw_fixed'))?.version).toBe(1);
      });

      it('refuses a second flow with the same id in the same tenant', async () => {
        await store.flows.create(A, flowDocument({ id: 'flw_fixed', name: 'first' }));
        await expect(store.flows.create(A, flowDocument({ id: 'flw_fixed', name: 'second' }))).rejects.toMatchObject({
          code: 'CONFLICT',
        });
        expect((await store.flows.get(A, 'flw_fixed'))?.name).toBe('first');
      });

      it('saves each update as a new version and keeps the old ones readable', async () => {
        const v1 = await store.flows.create(A, flowDocument({ name: 'v-one' }));
        await tick();
        const v2 = await store.flows.update(A, v1.id, { ...v1, name: 'v-two' });
        await tick();
        const v3 = await store.flows.update(A, v1.id, { ...v2, name: 'v-three' }, { expectedVersion: 2 });

        expect(v2).toMatchObject({ id: v1.id, version: 2, name: 'v-two', createdAt: v1.createdAt });
        expect(v3).toMatchObject({ id: v1.id, version: 3, name: 'v-three', createdAt: v1.createdAt });
        expect(Date.parse(v3.updatedAt)).toBeGreaterThan(Date.parse(v1.updatedAt));
        expect(await store.flows.get(A, v1.id)).toEqual(v3);
        expect(await store.flows.getVersion(A, v1.id, 1)).toEqual(v1);
        expect(await store.flows.getVersion(A, v1.id, 2)).toEqual(v2);
        expect(await store.flows.getVersion(A, v1.id, 3)).toEqual(v3);
        expect(await store.flows.getVersion(A, v1.id, 4)).toBeUndefined();
        expect(await store.flows.currentVersion(A, v1.id)).toBe(3);
        expect(await store.flows.currentVersion(B, v1.id)).toBeUndefined();
        expect(await store.flows.currentVersion(A, 'flw_missing')).toBeUndefined();
      });

      it('keeps the id of the flow when the document sent with an update names another', async () => {
        const saved = await store.flows.create(A, flowDocument());
        const updated = await store.flows.update(A, saved.id, { ...saved, id: 'flw_other' });
        expect(updated.id).toBe(saved.id);
        expect(await store.flows.get(A, 'flw_other')).toBeUndefined();
      });

      it('rejects an update made against a stale version and says which one is current', async () => {
        const v1 = await store.flows.create(A, flowDocument());
        await store.flows.update(A, v1.id, { ...v1, name: 'theirs' }, { expectedVersion: 1 });
        const stale = store.flows.update(A, v1.id, { ...v1, name: 'mine' }, { expectedVersion: 1 });
        await expect(stale).rejects.toMatchObject({ code: 'CONFLICT' });
        await expect(stale).rejects.toThrow(/version 2/);
        const current = await store.flows.get(A, v1.id);
        expect(current).toMatchObject({ version: 2, name: 'theirs' });
        expect(await store.flows.getVersion(A, v1.id, 3)).toBeUndefined();
      });

      it('answers FLOW_NOT_FOUND when updating a flow that does not exist', async () => {
        await expect(store.flows.update(A, 'flw_missing', flowDocument())).rejects.toMatchObject({
          code: 'FLOW_NOT_FOUND',
          message: 'flow "flw_missing" not found',
        });
        expect(await store.flows.get(A, 'flw_missing')).toBeUndefined();
      });

      it('finds a flow by its name', async () => {
        const saved = await store.flows.create(A, flowDocument({ name: 'order-lifecycle' }));
        await store.flows.create(A, flowDocument({ name: 'other' }));
        expect(await store.flows.findByName(A, 'order-lifecycle')).toEqual(saved);
        expect(await store.flows.findByName(A, 'Order-Lifecycle')).toBeUndefined();
        expect(await store.flows.findByName(A, 'missing')).toBeUndefined();
      });

      it('hides a deleted flow but keeps its versions readable by id', async () => {
        const v1 = await store.flows.create(A, flowDocument({ name: 'doomed' }));
        const v2 = await store.flows.update(A, v1.id, { ...v1, description: 'second' });

        expect(await store.flows.delete(A, v1.id)).toBe(true);
        expect(await store.flows.get(A, v1.id)).toBeUndefined();
        expect(await store.flows.findByName(A, 'doomed')).toBeUndefined();
        expect((await store.flows.list(A)).items).toEqual([]);
        expect(await store.flows.getVersion(A, v1.id, 1)).toEqual(v1);
        expect(await store.flows.getVersion(A, v1.id, 2)).toEqual(v2);

        expect(await store.flows.delete(A, v1.id)).toBe(false);
        await expect(store.flows.update(A, v1.id, v2)).rejects.toMatchObject({ code: 'FLOW_NOT_FOUND' });
      });

      it('gives the id of a deleted flow to a new one, numbered after the old versions, which stay', async () => {
        const v1 = await store.flows.create(A, flowDocument({ id: 'flw_reused', name: 'old' }));
        const v2 = await store.flows.update(A, v1.id, { ...v1, description: 'second' });
        await store.flows.delete(A, v1.id);
        await tick();
        const other = await store.flows.create(A, flowDocument({ name: 'other' }));
        await tick();

        const created = await store.flows.create(A, flowDocument({ id: 'flw_reused', name: 'new', description: '' }));
        expect(created).toMatchObject({ id: 'flw_reused', name: 'new', description: '', version: 3 });
        expect(Date.parse(created.createdAt)).toBeGreaterThan(Date.parse(other.createdAt));
        expect(created.updatedAt).toBe(created.createdAt);
        expect(await store.flows.get(A, 'flw_reused')).toEqual(created);
        expect(await store.flows.currentVersion(A, 'flw_reused')).toBe(3);
        expect(await store.flows.findByName(A, 'new')).toEqual(created);
        expect(await store.flows.findByName(A, 'old')).toBeUndefined();
        // The versions past executions ran are as they were.
        expect(await store.flows.getVersion(A, 'flw_reused', 1)).toEqual(v1);
        expect(await store.flows.getVersion(A, 'flw_reused', 2)).toEqual(v2);
        expect(await store.flows.getVersion(A, 'flw_reused', 3)).toEqual(created);
        // Listed once, as the newest flow.
        expect((await store.flows.list(A)).items.map((flow) => [flow.id, flow.version, flow.createdAt])).toEqual([
          ['flw_reused', 3, created.createdAt],
          [other.id, 1, other.createdAt],
        ]);

        await expect(store.flows.create(A, flowDocument({ id: 'flw_reused', name: 'again' }))).rejects.toMatchObject({
          code: 'CONFLICT',
        });
        const v4 = await store.flows.update(A, 'flw_reused', { ...created, name: 'newer' }, { expectedVersion: 3 });
        expect(v4).toMatchObject({ version: 4, createdAt: created.createdAt });
        await store.flows.delete(A, 'flw_reused');
        expect(await store.flows.create(A, flowDocument({ id: 'flw_reused', name: 'third' }))).toMatchObject({
          version: 5,
        });
        expect(await store.flows.getVersion(A, 'flw_reused', 4)).toEqual(v4);
      });

      it('gives a deleted flow id to one of several creates made together, and refuses the others', async () => {
        await store.flows.create(A, flowDocument({ id: 'flw_raced', name: 'old' }));
        await store.flows.delete(A, 'flw_raced');
        const results = await Promise.allSettled(
          ['first', 'second', 'third', 'fourth'].map((name) =>
            store.flows.create(A, flowDocument({ id: 'flw_raced', name })),
          ),
        );
        const created = results.filter((result) => result.status === 'fulfilled');
        const refused = results.filter((result) => result.status === 'rejected');
        expect(created).toHaveLength(1);
        expect(refused).toMatchObject([1, 2, 3].map(() => ({ reason: { code: 'CONFLICT' } })));
        expect(await store.flows.get(A, 'flw_raced')).toEqual(created[0]!.value);
        expect(created[0]!.value.version).toBe(2);
        expect(await store.flows.getVersion(A, 'flw_raced', 3)).toBeUndefined();
      });

      it("keeps a deleted flow's id to its own tenant: another tenant's flow of that id starts at version 1", async () => {
        await store.flows.create(A, flowDocument({ id: 'flw_shared', name: 'a' }));
        await store.flows.delete(A, 'flw_shared');
        expect(await store.flows.create(B, flowDocument({ id: 'flw_shared', name: 'b' }))).toMatchObject({
          version: 1,
        });
        expect(await store.flows.get(A, 'flw_shared')).toBeUndefined();
        expect(await store.flows.getVersion(B, 'flw_shared', 1)).toMatchObject({ name: 'b' });
        expect(await store.flows.getVersion(A, 'flw_shared', 1)).toMatchObject({ name: 'a' });
      });

      it('answers false when deleting a flow that does not exist', async () => {
        expect(await store.flows.delete(A, 'flw_missing')).toBe(false);
      });

      describe('tenant isolation', () => {
        it("treats another tenant's flow as missing for every operation", async () => {
          const theirs = await store.flows.create(A, flowDocument({ name: 'secret-flow', description: 'secret' }));

          expect(await store.flows.get(B, theirs.id)).toBeUndefined();
          expect(await store.flows.getVersion(B, theirs.id, 1)).toBeUndefined();
          expect(await store.flows.findByName(B, 'secret-flow')).toBeUndefined();
          expect(await store.flows.list(B)).toEqual({ items: [], nextCursor: null });
          expect((await store.flows.list(B, { search: 'secret' })).items).toEqual([]);
          await expect(store.flows.update(B, theirs.id, flowDocument({ name: 'hijacked' }))).rejects.toMatchObject({
            code: 'FLOW_NOT_FOUND',
          });
          await expect(
            store.flows.update(B, theirs.id, flowDocument({ name: 'hijacked' }), { expectedVersion: 1 }),
          ).rejects.toMatchObject({ code: 'FLOW_NOT_FOUND' });
          expect(await store.flows.delete(B, theirs.id)).toBe(false);

          expect(await store.flows.get(A, theirs.id)).toEqual(theirs);
        });

        it('lets two tenants use the same flow id independently', async () => {
          const mine = await store.flows.create(A, flowDocument({ id: 'flw_shared', name: 'a-flow' }));
          const yours = await store.flows.create(B, flowDocument({ id: 'flw_shared', name: 'b-flow' }));
          await store.flows.update(B, 'flw_shared', { ...yours, name: 'b-flow-2' });
          expect(await store.flows.delete(B, 'flw_shared')).toBe(true);

          expect(await store.flows.get(A, 'flw_shared')).toEqual(mine);
          expect(await store.flows.get(B, 'flw_shared')).toBeUndefined();
          expect(await store.flows.getVersion(B, 'flw_shared', 2)).toMatchObject({ name: 'b-flow-2' });
          expect(await store.flows.getVersion(A, 'flw_shared', 2)).toBeUndefined();
        });
      });

      describe('list', () => {
        it('summarises flows, most recently updated first', async () => {
          const older = await store.flows.create(
            A,
            flowDocument({ name: 'older', description: 'one', folderId: 'fld_1' }),
          );
          await tick();
          const newer = await store.flows.create(A, flowDocument({ name: 'newer', nodes: [] }));
          await tick();
          const touched = await store.flows.update(A, older.id, { ...older, name: 'older-touched' });

          const page = await store.flows.list(A);
          expect(page.nextCursor).toBeNull();
          expect(page.items).toEqual([
            {
              id: older.id,
              name: 'older-touched',
              description: 'one',
              folderId: 'fld_1',
              version: 2,
              nodeCount: 2,
              createdAt: older.createdAt,
              updatedAt: touched.updatedAt,
            },
            {
              id: newer.id,
              name: 'newer',
              description: '',
              folderId: null,
              version: 1,
              nodeCount: 0,
              createdAt: newer.createdAt,
              updatedAt: newer.updatedAt,
            },
          ]);
        });

        it('searches names and descriptions without regard to case', async () => {
          const byName = await store.flows.create(A, flowDocument({ name: 'Checkout-Happy-Path' }));
          const byDescription = await store.flows.create(
            A,
            flowDocument({ name: 'other', description: 'covers the CHECKOUT errors' }),
          );
          const unicode = await store.flows.create(A, flowDocument({ name: 'Überweisung' }));
          await store.flows.create(A, flowDocument({ name: 'unrelated', description: 'nothing here' }));

          expect(sorted(ids((await store.flows.list(A, { search: 'checkout' })).items))).toEqual(
            sorted([byName.id, byDescription.id]),
          );
          expect(ids((await store.flows.list(A, { search: 'HAPPY' })).items)).toEqual([byName.id]);
          expect(ids((await store.flows.list(A, { search: 'überweisung' })).items)).toEqual([unicode.id]);
          expect((await store.flows.list(A, { search: 'no-such-text' })).items).toEqual([]);
        });

        it('matches search text literally, wildcards included', async () => {
          const percent = await store.flows.create(A, flowDocument({ name: 'uptime 100%' }));
          const underscore = await store.flows.create(A, flowDocument({ name: 'get_order' }));
          const backslash = await store.flows.create(A, flowDocument({ name: 'path\\to' }));
          await store.flows.create(A, flowDocument({ name: 'uptime 1000' }));
          await store.flows.create(A, flowDocument({ name: 'get-order' }));

          expect(ids((await store.flows.list(A, { search: '%' })).items)).toEqual([percent.id]);
          expect(ids((await store.flows.list(A, { search: '0%' })).items)).toEqual([percent.id]);
          expect(ids((await store.flows.list(A, { search: '_' })).items)).toEqual([underscore.id]);
          expect(ids((await store.flows.list(A, { search: 't_o' })).items)).toEqual([underscore.id]);
          expect(ids((await store.flows.list(A, { search: '\\' })).items)).toEqual([backslash.id]);
        });

        it('filters by folder', async () => {
          const inFolder = await store.flows.create(A, flowDocument({ name: 'a', folderId: 'fld_payments' }));
          await store.flows.create(A, flowDocument({ name: 'b', folderId: 'fld_other' }));
          await store.flows.create(A, flowDocument({ name: 'c', folderId: null }));
          expect(ids((await store.flows.list(A, { folderId: 'fld_payments' })).items)).toEqual([inFolder.id]);
          expect((await store.flows.list(A, { folderId: 'fld_empty' })).items).toEqual([]);
        });

        it('pages through every flow once, in order, with cursors', async () => {
          for (let i = 0; i < 7; i += 1) await store.flows.create(A, flowDocument({ name: `flow-${i}` }));
          const all = (await store.flows.list(A)).items;
          expect(all).toHaveLength(7);
          expectNewestFirst(all.map((flow) => Date.parse(flow.updatedAt)));

          const pages = await collectPages((cursor) => store.flows.list(A, { limit: 3, cursor }));
          expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
          expect(pages.flat()).toEqual(all);
        });

        it('pages through search results', async () => {
          for (let i = 0; i < 5; i += 1) await store.flows.create(A, flowDocument({ name: `alpha-${i}` }));
          for (let i = 0; i < 4; i += 1) await store.flows.create(A, flowDocument({ name: `beta-${i}` }));
          const pages = await collectPages((cursor) => store.flows.list(A, { search: 'ALPHA', limit: 2, cursor }));
          expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
          expect(
            pages
              .flat()
              .map((flow) => flow.name)
              .sort(),
          ).toEqual(['alpha-0', 'alpha-1', 'alpha-2', 'alpha-3', 'alpha-4']);
        });

        it('keeps later pages stable when a flow is saved between two pages', async () => {
          for (let i = 0; i < 4; i += 1) {
            await store.flows.create(A, flowDocument({ name: `flow-${i}` }));
            await tick();
          }
          const first = await store.flows.list(A, { limit: 2 });
          await tick();
          await store.flows.create(A, flowDocument({ name: 'late-arrival' }));
          const second = await store.flows.list(A, { limit: 2, cursor: first.nextCursor! });
          const seen = [...first.items, ...second.items].map((flow) => flow.name);
          expect(seen).toEqual(['flow-3', 'flow-2', 'flow-1', 'flow-0']);
          expect(second.nextCursor).toBeNull();
        });

        it('uses 50 as the default page size and keeps sizes within 1..200', async () => {
          for (let i = 0; i < 201; i += 1) await store.flows.create(A, flowDocument({ name: `bulk-${i}` }));
          const byDefault = await store.flows.list(A);
          expect(byDefault.items).toHaveLength(50);
          expect(byDefault.nextCursor).not.toBeNull();
          expect((await store.flows.list(A, { limit: 1000 })).items).toHaveLength(200);
          expect((await store.flows.list(A, { limit: 0 })).items).toHaveLength(1);
          expect((await store.flows.list(A, { limit: -3 })).items).toHaveLength(1);
        });

        it('rejects a cursor it did not issue', async () => {
          await expect(store.flows.list(A, { cursor: 'not-a-cursor' })).rejects.toMatchObject({
            code: 'VALIDATION_ERROR',
          });
        });
      });
    });

    describe('executions', () => {
      it('stores every field of an execution', async () => {
        const full = executionFixture({
          id: 'exe-full',
          status: 'Failed',
          trigger: { type: 'schedule', scheduleId: 'sch_1', firedAt: T0 },
          env: { baseUrl: 'https://api.example', token: 's3cr3t', nested: { a: [1, 2] } },
          secretKeys: ['token'],
          inputs: { customerId: 'c-1', amount: 12.5 },
          parentExecutionId: 'exe-parent',
          error: { code: 'ASSERTION_FAILED', message: 'status 500', nodeId: 'n1', nodeName: 'CreateOrder' },
          outputs: { orderId: 'ord_1', lines: [{ sku: 'A', qty: 2 }] },
          startedAt: T0 + 1,
          endedAt: T0 + 51,
          durationMs: 50.25,
          nodesExecuted: 4,
          nodesSkipped: 2,
          stepsExecuted: 9,
          wakeAt: T0 + 100,
          leaseOwner: 'worker-1',
          leaseExpiresAt: T0 + 30_000,
          updatedAt: T0 + 51,
        });
        const sparse = executionFixture({ id: 'exe-sparse' });
        await store.executions.create(full);
        await store.executions.create(sparse);
        expect(await store.executions.get(A, 'exe-full')).toEqual(full);
        expect(await store.executions.get(A, 'exe-sparse')).toEqual(sparse);
        expect(await store.executions.get(A, 'exe-missing')).toBeUndefined();
      });

      it('refuses a second execution with the same id', async () => {
        await store.executions.create(executionFixture({ id: 'exe-1' }));
        await expect(
          store.executions.create(executionFixture({ id: 'exe-1', flowName: 'again' })),
        ).rejects.toMatchObject({
          code: 'CONFLICT',
        });
        expect((await store.executions.get(A, 'exe-1'))?.flowName).toBe('order-lifecycle');
      });

      it('refuses the second of two creates of one id made together, and keeps the first', async () => {
        const results = await Promise.allSettled([
          store.executions.create(executionFixture({ id: 'exe-1' })),
          store.executions.create(executionFixture({ id: 'exe-1', flowName: 'again' })),
          store.executions.create(executionFixture({ id: 'exe-2' })),
        ]);
        expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
        expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'CONFLICT' });
        expect((await store.executions.get(A, 'exe-1'))?.flowName).toBe('order-lifecycle');
        expect(await store.executions.get(A, 'exe-2')).toBeDefined();
      });

      it('applies only the fields a patch names', async () => {
        const created = executionFixture({ id: 'exe-1', error: { code: 'OLD', message: 'old' } });
        await store.executions.create(created);
        await store.executions.update(A, 'exe-1', { status: 'Running', startedAt: T0 + 5, error: null });
        const running = await store.executions.get(A, 'exe-1');
        expect(running).toEqual({
          ...created,
          status: 'Running',
          startedAt: T0 + 5,
          error: null,
          updatedAt: running!.updatedAt,
        });
        expect(running!.updatedAt).toBeGreaterThanOrEqual(created.updatedAt);

        const failure = { code: 'HTTP_ERROR', message: 'connection refused', nodeId: 'n2' };
        await store.executions.update(A, 'exe-1', {
          status: 'Failed',
          error: failure,
          endedAt: T0 + 50,
          durationMs: 45,
          nodesExecuted: 2,
          nodesSkipped: 1,
          stepsExecuted: 3,
          wakeAt: null,
          leaseOwner: null,
          leaseExpiresAt: null,
        });
        expect(await store.executions.get(A, 'exe-1')).toMatchObject({
          status: 'Failed',
          error: failure,
          startedAt: T0 + 5,
          endedAt: T0 + 50,
          durationMs: 45,
          nodesExecuted: 2,
          nodesSkipped: 1,
          stepsExecuted: 3,
          flowName: created.flowName,
          env: created.env,
        });
      });

      it('patches the outputs of an execution', async () => {
        await store.executions.create(executionFixture({ id: 'exe-out', status: 'Running' }));
        await store.executions.update(A, 'exe-out', { status: 'Completed', outputs: { orderId: 'ord_9', total: 42 } });
        expect(await store.executions.get(A, 'exe-out')).toMatchObject({
          status: 'Completed',
          outputs: { orderId: 'ord_9', total: 42 },
        });
      });

      it('answers EXECUTION_NOT_FOUND when patching an execution that does not exist', async () => {
        await expect(store.executions.update(A, 'exe-missing', { status: 'Running' })).rejects.toMatchObject({
          code: 'EXECUTION_NOT_FOUND',
        });
      });

      describe('list', () => {
        it('lists executions newest first and filters by flow and status', async () => {
          await store.executions.create(
            executionFixture({ id: 'e1', flowId: 'flw_a', createdAt: T0 + 1, status: 'Completed' }),
          );
          await store.executions.create(
            executionFixture({ id: 'e2', flowId: 'flw_b', createdAt: T0 + 2, status: 'Failed' }),
          );
          await store.executions.create(
            executionFixture({ id: 'e3', flowId: 'flw_a', createdAt: T0 + 3, status: 'Failed' }),
          );
          await store.executions.create(
            executionFixture({ id: 'e4', tenantId: B, flowId: 'flw_a', createdAt: T0 + 4 }),
          );

          expect(ids((await store.executions.list(A)).items)).toEqual(['e3', 'e2', 'e1']);
          expect(ids((await store.executions.list(A, { flowId: 'flw_a' })).items)).toEqual(['e3', 'e1']);
          expect(ids((await store.executions.list(A, { status: 'Failed' })).items)).toEqual(['e3', 'e2']);
          expect(ids((await store.executions.list(A, { flowId: 'flw_a', status: 'Failed' })).items)).toEqual(['e3']);
          expect(ids((await store.executions.list(B)).items)).toEqual(['e4']);
          expect((await store.executions.list(A)).items[0]).toEqual(await store.executions.get(A, 'e3'));
        });

        it('pages through executions with cursors, ties on createdAt included', async () => {
          const created: string[] = [];
          for (let i = 0; i < 9; i += 1) {
            const id = `exe-${i}`;
            // Three executions per millisecond: the cursor must not skip or repeat any of them.
            await store.executions.create(executionFixture({ id, createdAt: T0 + Math.floor(i / 3) }));
            created.push(id);
          }
          const pages = await collectPages((cursor) => store.executions.list(A, { limit: 4, cursor }));
          expect(pages.map((page) => page.length)).toEqual([4, 4, 1]);
          const seen = pages.flat();
          expect(sorted(ids(seen))).toEqual(sorted(created));
          expectNewestFirst(seen.map((record) => record.createdAt));
          expect(seen).toEqual((await store.executions.list(A, { limit: 200 })).items);
        });

        it('rejects a cursor it did not issue', async () => {
          await expect(store.executions.list(A, { cursor: '!!!' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
        });
      });

      describe('steps', () => {
        it('commits a step together with its effect on the execution', async () => {
          await store.executions.create(executionFixture({ id: 'exe-1', status: 'Running' }));
          const first = step({ id: 'exe-1:1', executionId: 'exe-1', seq: 1 });
          await store.executions.commitStep(first, { nodesExecuted: 1, stepsExecuted: 1 });

          expect(await store.executions.listSteps(A, 'exe-1')).toEqual([first]);
          expect(await store.executions.get(A, 'exe-1')).toMatchObject({
            status: 'Running',
            nodesExecuted: 1,
            stepsExecuted: 1,
          });
        });

        it('replaces the step with the same id', async () => {
          await store.executions.create(executionFixture({ id: 'exe-1', status: 'Running' }));
          const waiting = step({
            id: 'exe-1:1',
            executionId: 'exe-1',
            seq: 1,
            status: 'Waiting',
            endedAt: null,
            latencyMs: null,
            response: null,
            output: null,
            handles: [],
            wakeAt: T0 + 60_000,
            state: { token: 'cb_123', polls: 0 },
          });
          await store.executions.commitStep(waiting, { status: 'Waiting', wakeAt: T0 + 60_000 });
          expect(await store.executions.get(A, 'exe-1')).toMatchObject({ status: 'Waiting', wakeAt: T0 + 60_000 });

          const done = step({ id: 'exe-1:1', executionId: 'exe-1', seq: 1, status: 'Completed', state: null });
          await store.executions.commitStep(done, {
            status: 'Running',
            wakeAt: null,
            nodesExecuted: 1,
            stepsExecuted: 1,
          });

          expect(await store.executions.listSteps(A, 'exe-1')).toEqual([done]);
          expect(await store.executions.get(A, 'exe-1')).toMatchObject({
            status: 'Running',
            wakeAt: null,
            stepsExecuted: 1,
          });
        });

        it('lists steps in seq order, whatever order they were committed in', async () => {
          await store.executions.create(executionFixture({ id: 'exe-1' }));
          for (const seq of [3, 1, 10, 2]) {
            await store.executions.commitStep(step({ id: `exe-1:${seq}`, executionId: 'exe-1', seq }), {});
          }
          await store.executions.create(executionFixture({ id: 'exe-2' }));
          await store.executions.commitStep(step({ id: 'exe-2:1', executionId: 'exe-2', seq: 1 }), {});

          expect((await store.executions.listSteps(A, 'exe-1')).map((s) => s.seq)).toEqual([1, 2, 3, 10]);
          expect(await store.executions.listSteps(A, 'exe-missing')).toEqual([]);
        });

        it('stores every field of a step', async () => {
          await store.executions.create(executionFixture({ id: 'exe-1' }));
          const rich = step({
            id: 'exe-1:1',
            executionId: 'exe-1',
            seq: 1,
            scope: 'ForItems[2]/Retries[0]',
            attempt: 3,
            status: 'Failed',
            latencyMs: 12.75,
            request: {
              method: 'POST',
              url: 'https://api.example/orders',
              headers: { authorization: '[REDACTED]' },
              body: { qty: 2 },
            },
            response: { status: 503, headers: { 'retry-after': '1' }, body: 'Service Unavailable ✗', truncated: false },
            output: { statusCode: 503, body: null, list: [1, 'two', { three: 3 }, null, true] },
            handles: ['error'],
            error: { code: 'HTTP_503', message: 'upstream unavailable', nodeId: 'n1', nodeName: 'CreateOrder' },
            branch: null,
            wakeAt: T0 + 400,
            state: { attemptsLeft: 2 },
          });
          const skipped = step({
            id: 'exe-1:2',
            executionId: 'exe-1',
            seq: 2,
            nodeId: 'n2',
            nodeName: 'Ship',
            nodeType: 'switch',
            status: 'Skipped',
            endedAt: null,
            latencyMs: null,
            request: null,
            response: null,
            output: null,
            handles: [],
            skipKind: 'condition',
            branch: 'big',
            state: null,
          });
          await store.executions.commitStep(rich, {});
          await store.executions.commitStep(skipped, {});
          expect(await store.executions.listSteps(A, 'exe-1')).toEqual([rich, skipped]);
        });

        it('writes neither the step nor the patch when the execution does not exist', async () => {
          const orphan = step({ id: 'exe-missing:1', executionId: 'exe-missing', seq: 1 });
          await expect(store.executions.commitStep(orphan, { stepsExecuted: 1 })).rejects.toMatchObject({
            code: 'EXECUTION_NOT_FOUND',
          });
          expect(await store.executions.listSteps(A, 'exe-missing')).toEqual([]);
        });
      });

      describe('tenant isolation', () => {
        it("treats another tenant's execution as missing for every operation", async () => {
          const theirs = executionFixture({ id: 'exe-a', status: 'Running' });
          await store.executions.create(theirs);
          const theirStep = step({ id: 'exe-a:1', executionId: 'exe-a', seq: 1 });
          await store.executions.commitStep(theirStep, { stepsExecuted: 1 });
          const before = await store.executions.get(A, 'exe-a');

          expect(await store.executions.get(B, 'exe-a')).toBeUndefined();
          expect((await store.executions.list(B)).items).toEqual([]);
          expect((await store.executions.list(B, { flowId: theirs.flowId })).items).toEqual([]);
          expect(await store.executions.listSteps(B, 'exe-a')).toEqual([]);
          await expect(store.executions.update(B, 'exe-a', { status: 'Cancelled' })).rejects.toMatchObject({
            code: 'EXECUTION_NOT_FOUND',
          });
          const intruding = step({ id: 'exe-a:1', executionId: 'exe-a', tenantId: B, seq: 1, nodeName: 'Injected' });
          await expect(store.executions.commitStep(intruding, { status: 'Completed' })).rejects.toMatchObject({
            code: 'EXECUTION_NOT_FOUND',
          });

          expect(await store.executions.get(A, 'exe-a')).toEqual(before);
          expect(await store.executions.listSteps(A, 'exe-a')).toEqual([theirStep]);
        });
      });
    });

    describe('worker leases', () => {
      it('claims a free execution and records the lease', async () => {
        await store.executions.create(executionFixture({ id: 'exe-1', status: 'Queued' }));
        const claimed = await store.executions.claim({ owner: 'w1', now: T0, leaseMs: 30_000, limit: 10 });
        expect(claimed).toHaveLength(1);
        expect(claimed[0]).toMatchObject({ id: 'exe-1', tenantId: A, leaseOwner: 'w1', leaseExpiresAt: T0 + 30_000 });
        expect(await store.executions.get(A, 'exe-1')).toEqual(claimed[0]);

        expect(await store.executions.claim({ owner: 'w2', now: T0 + 29_999, leaseMs: 30_000, limit: 10 })).toEqual([]);
        expect((await store.executions.get(A, 'exe-1'))?.leaseOwner).toBe('w1');
      });

      it('claims an execution whose lease has expired', async () => {
        await store.executions.create(
          executionFixture({ id: 'exe-1', status: 'Running', leaseOwner: 'gone', leaseExpiresAt: T0 }),
        );
        expect(await store.executions.claim({ owner: 'w2', now: T0 - 1, leaseMs: 1000, limit: 10 })).toEqual([]);
        const claimed = await store.executions.claim({ owner: 'w2', now: T0, leaseMs: 1000, limit: 10 });
        expect(claimed.map((record) => [record.id, record.leaseOwner, record.leaseExpiresAt])).toEqual([
          ['exe-1', 'w2', T0 + 1000],
        ]);
      });

      it('takes over leases of the owners it names, expired or not, and only those', async () => {
        await store.executions.create(
          executionFixture({ id: 'exe-dead', status: 'Running', leaseOwner: 'dead', leaseExpiresAt: T0 + 60_000 }),
        );
        await store.executions.create(
          executionFixture({ id: 'exe-live', status: 'Running', leaseOwner: 'live', leaseExpiresAt: T0 + 60_000 }),
        );
        const claimed = await store.executions.claim({
          owner: 'w2',
          now: T0,
          leaseMs: 5000,
          limit: 10,
          takeOverFrom: ['dead', 'also-dead'],
        });
        expect(ids(claimed)).toEqual(['exe-dead']);
        expect(await store.executions.get(A, 'exe-live')).toMatchObject({
          leaseOwner: 'live',
          leaseExpiresAt: T0 + 60_000,
        });
      });

      it('leaves a Waiting execution alone until its wake time', async () => {
        await store.executions.create(executionFixture({ id: 'exe-later', status: 'Waiting', wakeAt: T0 + 5000 }));
        expect(await store.executions.claim({ owner: 'w1', now: T0, leaseMs: 1000, limit: 10 })).toEqual([]);
        expect(ids(await store.executions.claim({ owner: 'w1', now: T0 + 5000, leaseMs: 1000, limit: 10 }))).toEqual([
          'exe-later',
        ]);
      });

      it('takes Waiting executions due by a later time when asked (resuming everything left behind)', async () => {
        await store.executions.create(executionFixture({ id: 'exe-soon', status: 'Waiting', wakeAt: T0 + 5000 }));
        await store.executions.create(executionFixture({ id: 'exe-far', status: 'Waiting', wakeAt: T0 + 500_000 }));
        expect(
          ids(await store.executions.claim({ owner: 'w1', now: T0, leaseMs: 1000, limit: 10, dueBy: T0 + 10_000 })),
        ).toEqual(['exe-soon']);
        expect(
          ids(
            await store.executions.claim({
              owner: 'w1',
              now: T0,
              leaseMs: 1000,
              limit: 10,
              dueBy: Number.MAX_SAFE_INTEGER,
            }),
          ),
        ).toEqual(['exe-far']);
      });

      it('claims Waiting executions without a wake time, and running ones whatever their wake time', async () => {
        await store.executions.create(
          executionFixture({ id: 'exe-waiting', status: 'Waiting', wakeAt: null, createdAt: T0 }),
        );
        await store.executions.create(
          executionFixture({ id: 'exe-running', status: 'Running', wakeAt: T0 + 99_000, createdAt: T0 + 1 }),
        );
        const claimed = await store.executions.claim({ owner: 'w1', now: T0, leaseMs: 1000, limit: 10 });
        expect(sorted(ids(claimed))).toEqual(['exe-running', 'exe-waiting']);
      });

      it('never claims a finished execution', async () => {
        const finished: ExecutionStatus[] = ['Completed', 'Failed', 'TimedOut', 'Cancelled'];
        for (const status of finished) await store.executions.create(executionFixture({ id: `exe-${status}`, status }));
        await store.executions.create(
          executionFixture({
            id: 'exe-expired-lease',
            status: 'Completed',
            leaseOwner: 'dead',
            leaseExpiresAt: T0 - 1,
          }),
        );
        expect(
          await store.executions.claim({ owner: 'w1', now: T0, leaseMs: 1000, limit: 10, takeOverFrom: ['dead'] }),
        ).toEqual([]);
      });

      it('claims at most `limit` executions, oldest first, across tenants', async () => {
        for (let i = 0; i < 5; i += 1) {
          await store.executions.create(
            executionFixture({ id: `exe-${i}`, tenantId: i % 2 === 0 ? A : B, createdAt: T0 - 100 + i }),
          );
        }
        const first = await store.executions.claim({ owner: 'w1', now: T0, leaseMs: 1000, limit: 2 });
        const second = await store.executions.claim({ owner: 'w2', now: T0, leaseMs: 1000, limit: 2 });
        const third = await store.executions.claim({ owner: 'w3', now: T0, leaseMs: 1000, limit: 2 });
        expect(ids(first)).toEqual(['exe-0', 'exe-1']);
        expect(ids(second)).toEqual(['exe-2', 'exe-3']);
        expect(ids(third)).toEqual(['exe-4']);
        expect(first.map((record) => record.tenantId)).toEqual([A, B]);
        expect(await store.executions.claim({ owner: 'w4', now: T0, leaseMs: 1000, limit: 0 })).toEqual([]);
      });

      it("renews every lease of one owner and no one else's", async () => {
        await store.executions.create(
          executionFixture({ id: 'exe-1', status: 'Running', leaseOwner: 'w1', leaseExpiresAt: T0 }),
        );
        await store.executions.create(
          executionFixture({ id: 'exe-2', tenantId: B, status: 'Waiting', leaseOwner: 'w1', leaseExpiresAt: T0 + 5 }),
        );
        await store.executions.create(
          executionFixture({ id: 'exe-3', status: 'Running', leaseOwner: 'w2', leaseExpiresAt: T0 }),
        );
        await store.executions.renewLeases('w1', T0 + 90_000);

        expect((await store.executions.get(A, 'exe-1'))?.leaseExpiresAt).toBe(T0 + 90_000);
        expect((await store.executions.get(B, 'exe-2'))?.leaseExpiresAt).toBe(T0 + 90_000);
        expect((await store.executions.get(A, 'exe-3'))?.leaseExpiresAt).toBe(T0);
        expect(await store.executions.claim({ owner: 'w3', now: T0 + 1, leaseMs: 1000, limit: 10 })).toEqual([
          expect.objectContaining({ id: 'exe-3' }),
        ]);
      });

      it('lists the owners holding leases on unfinished executions', async () => {
        expect(await store.executions.listLeaseOwners()).toEqual([]);
        await store.executions.create(
          executionFixture({ id: 'exe-1', status: 'Running', leaseOwner: 'w1', leaseExpiresAt: T0 }),
        );
        await store.executions.create(
          executionFixture({ id: 'exe-2', status: 'Running', leaseOwner: 'w1', leaseExpiresAt: T0 }),
        );
        await store.executions.create(
          executionFixture({ id: 'exe-3', tenantId: B, status: 'Waiting', leaseOwner: 'w2', leaseExpiresAt: T0 }),
        );
        await store.executions.create(
          executionFixture({ id: 'exe-4', status: 'Completed', leaseOwner: 'w3', leaseExpiresAt: T0 }),
        );
        await store.executions.create(executionFixture({ id: 'exe-5', status: 'Queued' }));
        expect(sorted(await store.executions.listLeaseOwners())).toEqual(['w1', 'w2']);
      });
    });

    describe('tenants', () => {
      it('saves tenants and lists them oldest first', async () => {
        expect(await store.tenants.list()).toEqual([]);
        await store.tenants.create({ id: B, name: 'Beta', createdAt: T0 + 1 });
        await store.tenants.create({ id: A, name: 'Acme', createdAt: T0 });
        expect(await store.tenants.get(A)).toEqual({ id: A, name: 'Acme', createdAt: T0 });
        expect(await store.tenants.get('tenant-missing')).toBeUndefined();
        expect(ids(await store.tenants.list())).toEqual([A, B]);
      });

      it('refuses a second tenant with the same id', async () => {
        await store.tenants.create({ id: A, name: 'Acme', createdAt: T0 });
        await expect(store.tenants.create({ id: A, name: 'Other', createdAt: T0 })).rejects.toMatchObject({
          code: 'CONFLICT',
        });
        expect((await store.tenants.get(A))?.name).toBe('Acme');
      });
    });

    describe('api clients', () => {
      beforeEach(async () => {
        await store.tenants.create({ id: A, name: 'Acme', createdAt: T0 });
        await store.tenants.create({ id: B, name: 'Beta', createdAt: T0 });
      });

      it('stores every field of a client and finds it by id and by secret hash', async () => {
        const client = clientFixture({
          trial: true,
          expiresAt: T0 + 14 * DAY,
          scopes: ['flows:read', 'executions:run'],
        });
        await store.clients.create(client);
        expect(await store.clients.get(A, client.clientId)).toEqual(client);
        expect(await store.clients.findByClientId(client.clientId)).toEqual(client);
        expect(await store.clients.findBySecretHash(client.secretHash)).toEqual(client);
        expect(await store.clients.findByClientId('cli_missing')).toBeUndefined();
        expect(await store.clients.findBySecretHash('0'.repeat(64))).toBeUndefined();
      });

      it('does not share objects with the records it was given or answered', async () => {
        const client = clientFixture();
        await store.clients.create(client);
        client.scopes.push('admin');
        const read = (await store.clients.get(A, client.clientId))!;
        expect(read.scopes).toEqual(['flows:read']);
        read.scopes.push('admin');
        expect((await store.clients.get(A, client.clientId))!.scopes).toEqual(['flows:read']);
      });

      it("treats another tenant's client as missing, except for the credential lookups that name their tenant", async () => {
        const client = clientFixture();
        await store.clients.create(client);
        expect(await store.clients.get(B, client.clientId)).toBeUndefined();
        expect(await store.clients.list(B)).toEqual([]);
        await expect(store.clients.revoke(B, client.clientId, T0)).rejects.toMatchObject({ code: 'CLIENT_NOT_FOUND' });
        await expect(
          store.clients.rotateSecret(B, client.clientId, { secretHash: hash('b-new'), previousSecretExpiresAt: T0 }),
        ).rejects.toMatchObject({ code: 'CLIENT_NOT_FOUND' });
        expect(await store.clients.get(A, client.clientId)).toEqual(client);
        expect((await store.clients.findByClientId(client.clientId))?.tenantId).toBe(A);
      });

      it('lists the clients of one tenant, oldest first', async () => {
        await store.clients.create(clientFixture({ clientId: 'cli_2', secretHash: hash('2'), createdAt: T0 + 2 }));
        await store.clients.create(clientFixture({ clientId: 'cli_1', secretHash: hash('1'), createdAt: T0 + 1 }));
        await store.clients.create(clientFixture({ clientId: 'cli_b', tenantId: B, secretHash: hash('b') }));
        expect((await store.clients.list(A)).map((client) => client.clientId)).toEqual(['cli_1', 'cli_2']);
        expect((await store.clients.list(B)).map((client) => client.clientId)).toEqual(['cli_b']);
      });

      it('refuses a client id or a secret hash already in use, in any tenant', async () => {
        await store.clients.create(clientFixture());
        await expect(
          store.clients.create(clientFixture({ tenantId: B, secretHash: hash('other') })),
        ).rejects.toMatchObject({ code: 'CONFLICT' });
        await expect(store.clients.create(clientFixture({ clientId: 'cli_other', tenantId: B }))).rejects.toMatchObject(
          { code: 'CONFLICT' },
        );
        expect(await store.clients.list(B)).toEqual([]);
      });

      it('refuses a client of a tenant that does not exist', async () => {
        await expect(store.clients.create(clientFixture({ tenantId: 'tenant-missing' }))).rejects.toMatchObject({
          code: 'TENANT_NOT_FOUND',
        });
        expect(await store.clients.findByClientId('cli_1')).toBeUndefined();
      });

      it('rotates a secret: the new one is current, the old one is kept as previous until the given time', async () => {
        const client = clientFixture();
        await store.clients.create(client);
        const rotated = await store.clients.rotateSecret(A, client.clientId, {
          secretHash: hash('new'),
          previousSecretExpiresAt: T0 + DAY,
        });
        expect(rotated).toEqual({
          ...client,
          secretHash: hash('new'),
          previousSecretHash: client.secretHash,
          previousSecretExpiresAt: T0 + DAY,
        });
        expect(await store.clients.get(A, client.clientId)).toEqual(rotated);
        expect((await store.clients.findBySecretHash(hash('new')))?.clientId).toBe(client.clientId);
        expect((await store.clients.findBySecretHash(client.secretHash))?.clientId).toBe(client.clientId);

        const again = await store.clients.rotateSecret(A, client.clientId, {
          secretHash: hash('newer'),
          previousSecretExpiresAt: T0 + 2 * DAY,
        });
        expect(again).toMatchObject({
          secretHash: hash('newer'),
          previousSecretHash: hash('new'),
          previousSecretExpiresAt: T0 + 2 * DAY,
        });
        expect(await store.clients.findBySecretHash(client.secretHash)).toBeUndefined();
      });

      it('revokes a client once: a second revocation keeps the first time', async () => {
        const client = clientFixture();
        await store.clients.create(client);
        expect(await store.clients.revoke(A, client.clientId, T0 + 5)).toEqual({ ...client, revokedAt: T0 + 5 });
        expect(await store.clients.revoke(A, client.clientId, T0 + 9)).toMatchObject({ revokedAt: T0 + 5 });
        expect((await store.clients.get(A, client.clientId))?.revokedAt).toBe(T0 + 5);
        expect((await store.clients.findBySecretHash(client.secretHash))?.revokedAt).toBe(T0 + 5);
      });

      it("replaces a client's scopes, in its own tenant only", async () => {
        const client = clientFixture();
        await store.clients.create(client);
        expect(await store.clients.setScopes(A, client.clientId, ['flows:read', 'operator'])).toEqual({
          ...client,
          scopes: ['flows:read', 'operator'],
        });
        expect((await store.clients.get(A, client.clientId))?.scopes).toEqual(['flows:read', 'operator']);
        await expect(store.clients.setScopes(B, client.clientId, ['admin'])).rejects.toMatchObject({
          code: 'CLIENT_NOT_FOUND',
        });
        expect((await store.clients.get(A, client.clientId))?.scopes).toEqual(['flows:read', 'operator']);
      });
    });

    describe('signing keys', () => {
      it('keeps keys and lists them newest first', async () => {
        const older = {
          kid: 'k1',
          algorithm: 'EdDSA',
          jwk: '{"kty":"OKP","crv":"Ed25519","x":"a","d":"b"}',
          createdAt: T0,
        };
        const newer = {
          kid: 'k2',
          algorithm: 'EdDSA',
          jwk: '{"kty":"OKP","crv":"Ed25519","x":"c","d":"e"}',
          createdAt: T0 + 1,
        };
        expect(await store.signingKeys.list()).toEqual([]);
        await store.signingKeys.create(older);
        await store.signingKeys.create(newer);
        expect(await store.signingKeys.list()).toEqual([newer, older]);
        expect(await store.signingKeys.get('k1')).toEqual(older);
        expect(await store.signingKeys.get('k3')).toBeUndefined();
      });

      it('refuses a second key with the same kid', async () => {
        await store.signingKeys.create({ kid: 'k1', algorithm: 'EdDSA', jwk: '{}', createdAt: T0 });
        await expect(
          store.signingKeys.create({ kid: 'k1', algorithm: 'ES256', jwk: '{}', createdAt: T0 }),
        ).rejects.toMatchObject({ code: 'CONFLICT' });
        expect((await store.signingKeys.get('k1'))?.algorithm).toBe('EdDSA');
      });
    });

    describe('catalog', () => {
      const endpoint = (endpointId: string, extra: Record<string, unknown> = {}): CatalogEndpointInput => ({
        endpointId,
        method: 'GET',
        path: `/${endpointId}`,
        summary: `Summary of ${endpointId}`,
        tags: ['things'],
        endpoint: { id: endpointId, responses: { '200': { description: 'ok' } }, ...extra },
      });
      const spec = (
        endpoints: CatalogEndpointInput[],
        overrides: Partial<CatalogSpecImport> = {},
      ): CatalogSpecImport => ({
        id: 'shop',
        name: 'Shop',
        title: 'Shop API',
        version: '1.0.0',
        sourceVersion: '3.0',
        document: { openapi: '3.0.3', info: { title: 'Shop API', version: '1.0.0' }, paths: {} },
        importedAt: T0,
        endpoints,
        ...overrides,
      });

      it('imports a spec with its endpoints and reads them back', async () => {
        const result = await store.catalog.importSpec(
          A,
          spec([endpoint('listOrders'), endpoint('getOrder', { method: 'GET' })]),
        );
        expect(result).toEqual({
          spec: {
            tenantId: A,
            id: 'shop',
            name: 'Shop',
            title: 'Shop API',
            version: '1.0.0',
            sourceVersion: '3.0',
            endpointCount: 2,
            importedAt: T0,
          },
          added: ['listOrders', 'getOrder'],
          removed: [],
          changed: [],
          unchanged: 0,
        });
        expect(await store.catalog.getSpec(A, 'shop')).toMatchObject({
          title: 'Shop API',
          document: { openapi: '3.0.3' },
        });
        expect(await store.catalog.getEndpoint(A, 'getOrder')).toEqual({
          tenantId: A,
          specId: 'shop',
          ...endpoint('getOrder', { method: 'GET' }),
        });
        const page = await store.catalog.listEndpoints(A);
        expect(page.items.map((item) => item.endpointId)).toEqual(['listOrders', 'getOrder']);
        expect(page.nextCursor).toBeNull();
      });

      it('replaces the previous version of a spec and says what was added, removed and changed', async () => {
        await store.catalog.importSpec(A, spec([endpoint('a'), endpoint('b'), endpoint('c')]));
        const result = await store.catalog.importSpec(
          A,
          spec([endpoint('a'), endpoint('b', { deprecated: true }), endpoint('d')], {
            version: '2.0.0',
            importedAt: T0 + 1,
          }),
        );
        expect(result).toMatchObject({ added: ['d'], removed: ['c'], changed: ['b'], unchanged: 1 });
        expect(result.spec).toMatchObject({ version: '2.0.0', endpointCount: 3, importedAt: T0 + 1 });
        expect((await store.catalog.listEndpoints(A)).items.map((item) => item.endpointId)).toEqual(['a', 'b', 'd']);
        expect(await store.catalog.getEndpoint(A, 'c')).toBeUndefined();
        expect((await store.catalog.getEndpoint(A, 'b'))?.endpoint).toMatchObject({ deprecated: true });
        expect(await store.catalog.listSpecs(A)).toEqual([expect.objectContaining({ id: 'shop', version: '2.0.0' })]);
      });

      it('leaves the previous version whole when an import fails', async () => {
        await store.catalog.importSpec(A, spec([endpoint('a'), endpoint('b')]));
        await expect(
          store.catalog.importSpec(A, spec([endpoint('x'), endpoint('x')], { version: '9' })),
        ).rejects.toMatchObject({
          code: 'VALIDATION_ERROR',
        });
        expect((await store.catalog.getSpec(A, 'shop'))?.version).toBe('1.0.0');
        expect((await store.catalog.listEndpoints(A)).items.map((item) => item.endpointId)).toEqual(['a', 'b']);
      });

      it('keeps tenants apart', async () => {
        await store.catalog.importSpec(A, spec([endpoint('a')]));
        await store.catalog.importSpec(B, spec([endpoint('z')], { title: 'Other' }));
        expect((await store.catalog.listEndpoints(A)).items.map((item) => item.endpointId)).toEqual(['a']);
        expect(await store.catalog.getEndpoint(B, 'a')).toBeUndefined();
        expect((await store.catalog.getSpec(B, 'shop'))?.title).toBe('Other');
        // Re-importing in B does not touch A's spec of the same id.
        const again = await store.catalog.importSpec(B, spec([]));
        expect(again.removed).toEqual(['z']);
        expect(await store.catalog.getEndpoint(A, 'a')).toBeDefined();
      });

      it('searches endpoints by id, method and path, summary and tags, case-insensitively, within a spec', async () => {
        await store.catalog.importSpec(
          A,
          spec([endpoint('listOrders'), { ...endpoint('createInvoice'), method: 'POST', tags: ['Billing'] }]),
        );
        await store.catalog.importSpec(A, spec([endpoint('listUsers')], { id: 'people', name: 'People' }));
        const search = async (text: string, specId?: string) =>
          (await store.catalog.listEndpoints(A, { search: text, ...(specId ? { specId } : {}) })).items.map(
            (item) => item.endpointId,
          );
        expect(await search('ORDERS')).toEqual(['listOrders']);
        expect(await search('post /create')).toEqual(['createInvoice']);
        expect(await search('billing')).toEqual(['createInvoice']);
        expect(await search('summary of list')).toEqual(['listUsers', 'listOrders']);
        expect(await search('list', 'shop')).toEqual(['listOrders']);
        expect(await search('100%')).toEqual([]);
      });

      it('pages through endpoints of several specs in a stable order', async () => {
        await store.catalog.importSpec(
          A,
          spec(
            ['e1', 'e2', 'e3'].map((id) => endpoint(id)),
            { id: 'b-spec' },
          ),
        );
        await store.catalog.importSpec(
          A,
          spec(
            ['e4', 'e5'].map((id) => endpoint(id)),
            { id: 'a-spec' },
          ),
        );
        const pages = await collectPages((cursor) =>
          store.catalog.listEndpoints(A, { limit: 2, ...(cursor ? { cursor } : {}) }),
        );
        expect(pages.map((page) => page.map((item) => item.endpointId))).toEqual([['e4', 'e5'], ['e1', 'e2'], ['e3']]);
        await expect(store.catalog.listEndpoints(A, { cursor: 'nonsense' })).rejects.toMatchObject({
          code: 'VALIDATION_ERROR',
        });
      });

      it('finds an endpoint id used by two specs by naming the spec', async () => {
        await store.catalog.importSpec(A, spec([endpoint('health', { which: 'shop' })]));
        await store.catalog.importSpec(A, spec([endpoint('health', { which: 'people' })], { id: 'people' }));
        expect((await store.catalog.getEndpoint(A, 'health'))?.specId).toBe('people');
        expect((await store.catalog.getEndpoint(A, 'shop:health'))?.endpoint).toMatchObject({ which: 'shop' });
        expect(await store.catalog.getEndpoint(A, 'nope:health')).toBeUndefined();
      });
    });

    describe.skipIf(stores.openAnother === undefined)('two stores on the same data', () => {
      let other: Store;
      beforeEach(async () => {
        other = await stores.openAnother!();
      });
      afterEach(async () => {
        await other.close();
      });

      it("each sees the other's committed executions and steps", async () => {
        await store.executions.create(executionFixture({ id: 'exe-here' }));
        await other.executions.create(executionFixture({ id: 'exe-there' }));
        await other.executions.commitStep(stepFixture({ id: 'exe-there:1', executionId: 'exe-there', seq: 1 }), {
          stepsExecuted: 1,
        });
        expect((await other.executions.get(A, 'exe-here'))?.id).toBe('exe-here');
        expect((await store.executions.get(A, 'exe-there'))?.stepsExecuted).toBe(1);
        expect(await store.executions.listSteps(A, 'exe-there')).toHaveLength(1);
      });

      it('updates and commits steps of an execution the other store just created', async () => {
        await store.executions.create(executionFixture({ id: 'exe-1' }));
        await other.executions.update(A, 'exe-1', { status: 'Running', startedAt: T0 + 1 });
        await other.executions.commitStep(stepFixture({ id: 'exe-1:1', executionId: 'exe-1', seq: 1 }), {
          stepsExecuted: 1,
        });
        expect(await store.executions.get(A, 'exe-1')).toMatchObject({
          status: 'Running',
          startedAt: T0 + 1,
          stepsExecuted: 1,
        });
        expect((await store.executions.listSteps(A, 'exe-1')).map((each) => each.id)).toEqual(['exe-1:1']);
      });

      it('answers CONFLICT to a create of an id the other store created', async () => {
        await store.executions.create(executionFixture({ id: 'exe-1' }));
        await expect(
          other.executions.create(executionFixture({ id: 'exe-1', flowName: 'again' })),
        ).rejects.toMatchObject({ code: 'CONFLICT' });
        expect((await other.executions.get(A, 'exe-1'))?.flowName).toBe('order-lifecycle');
      });

      it('answers EXECUTION_NOT_FOUND in either store for an execution neither created', async () => {
        await expect(other.executions.update(A, 'exe-none', { status: 'Running' })).rejects.toMatchObject({
          code: 'EXECUTION_NOT_FOUND',
        });
        await expect(
          store.executions.commitStep(stepFixture({ id: 'exe-none:1', executionId: 'exe-none', seq: 1 }), {}),
        ).rejects.toMatchObject({
          code: 'EXECUTION_NOT_FOUND',
        });
      });

      it("sees the other's flows", async () => {
        const saved = await other.flows.create(A, flowDocument({ name: 'shared' }));
        expect((await store.flows.get(A, saved.id))?.name).toBe('shared');
      });

      it("reads the other's flow versions and environments as they change, after reading them here", async () => {
        const saved = await store.flows.create(A, flowDocument({ name: 'shared' }));
        const environment = await store.environments.create(A, {
          name: 'shared',
          description: '',
          variables: { baseUrl: 'http://a' },
          secrets: { token: 'one' },
        });
        expect(await store.flows.currentVersion(A, saved.id)).toBe(1);
        expect((await store.environments.resolveByName(A, 'shared'))?.values.token).toBe('one');

        await other.flows.update(A, saved.id, { ...saved, description: 'two' });
        await other.environments.patch(A, environment.id, { secrets: { token: 'two' } });
        expect(await store.flows.currentVersion(A, saved.id)).toBe(2);
        expect((await store.environments.resolveByName(A, 'shared'))?.values.token).toBe('two');
        expect((await store.environments.resolve(A, environment.id))?.values.token).toBe('two');

        await other.flows.delete(A, saved.id);
        await other.environments.delete(A, environment.id);
        expect(await store.flows.currentVersion(A, saved.id)).toBeUndefined();
        expect(await store.environments.resolveByName(A, 'shared')).toBeUndefined();
      });

      it("sees the other's callback deliveries, and a token used there is used here", async () => {
        await store.executions.create(executionFixture({ id: 'exe-1' }));
        await other.webhooks.addDelivery(delivery(), { wakeAt: T0 + 5 });
        expect(await store.webhooks.listDeliveries(['exe-1'])).toHaveLength(1);
        await expect(store.webhooks.addDelivery(delivery(), { wakeAt: T0 + 5 })).rejects.toMatchObject({
          code: 'WEBHOOK_TOKEN_USED',
        });
      });
    });

    describeJobContract(() => store);
    describeSuiteContract(() => store);
    describeEnvironmentContract(() => store);
    describeWebhookContract(() => store);
    describeScheduleContract(() => store, stores.openAnother);
    describeHealthContract(() => store, stores.openAnother);
  });
}

const ids = (items: { id: string }[]): string[] => items.map((item) => item.id);
const sorted = (values: string[]): string[] => [...values].sort();

/** Newest first; how ties are broken is the store's choice, as long as paging agrees with it. */
function expectNewestFirst(times: number[]): void {
  expect(times).toEqual([...times].sort((x, y) => y - x));
}

async function collectPages<T>(
  fetch: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>,
): Promise<T[][]> {
  const pages: T[][] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 100; guard += 1) {
    const page = await fetch(cursor);
    pages.push(page.items);
    if (page.nextCursor === null) return pages;
    cursor = page.nextCursor;
  }
  throw new Error('paging did not end');
}

const step = stepFixture;
