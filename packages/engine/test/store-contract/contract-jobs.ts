import { describe, expect, it } from 'vitest';
import type { Store } from '@svc/engine';
import { A, B, T0, jobFixture } from './fixtures.js';

const INTERRUPTED = { code: 'JOB_INTERRUPTED', message: 'the process running the job stopped; start it again' };

/** The job cases of the store contract (see `describeStoreContract`). */
export function describeJobContract(current: () => Store): void {
  describe('jobs', () => {
    it('saves a job and reads every field back', async () => {
      const job = jobFixture({
        input: { nested: { list: [1, 'two', null] }, unicode: 'Zürich ✓' },
        progress: 'starting',
      });
      await current().jobs.create(job);
      expect(await current().jobs.get(A, job.id)).toEqual(job);
    });

    it('refuses a second job with the same id in a tenant, and keeps tenants apart', async () => {
      const store = current();
      await store.jobs.create(jobFixture({ id: 'job_1', kind: 'first' }));
      await expect(store.jobs.create(jobFixture({ id: 'job_1', kind: 'second' }))).rejects.toMatchObject({
        code: 'CONFLICT',
      });
      await store.jobs.create(jobFixture({ id: 'job_1', tenantId: B, kind: 'theirs' }));
      expect((await store.jobs.get(A, 'job_1'))?.kind).toBe('first');
      expect((await store.jobs.get(B, 'job_1'))?.kind).toBe('theirs');
      expect(await store.jobs.get(B, 'job_missing')).toBeUndefined();
    });

    it('updates an active job, stamps updatedAt, and stores a result or an error', async () => {
      const store = current();
      await store.jobs.create(jobFixture({ id: 'job_ok', updatedAt: T0 - 5 }));
      const progressed = await store.jobs.updateActive(A, 'job_ok', { progress: '2 of 3' });
      expect(progressed.applied).toBe(true);
      expect(progressed.record).toMatchObject({ progress: '2 of 3', status: 'Running' });
      expect(progressed.record.updatedAt).not.toBe(T0 - 5);

      const done = await store.jobs.updateActive(A, 'job_ok', {
        status: 'Completed',
        result: { cases: 12 },
        endedAt: T0 + 9,
        owner: null,
        leaseExpiresAt: null,
      });
      expect(done.record).toMatchObject({
        status: 'Completed',
        result: { cases: 12 },
        endedAt: T0 + 9,
        owner: null,
        leaseExpiresAt: null,
        error: null,
      });
      expect(await store.jobs.get(A, 'job_ok')).toEqual(done.record);

      await store.jobs.create(jobFixture({ id: 'job_bad' }));
      await store.jobs.updateActive(A, 'job_bad', {
        status: 'Failed',
        error: { code: 'UPSTREAM_DOWN', message: 'no answer' },
        endedAt: T0 + 1,
      });
      expect(await store.jobs.get(A, 'job_bad')).toMatchObject({
        status: 'Failed',
        error: { code: 'UPSTREAM_DOWN', message: 'no answer' },
        result: null,
      });
    });

    it('leaves a finished job as it ended: the first end wins', async () => {
      const store = current();
      await store.jobs.create(jobFixture({ id: 'job_1' }));
      await store.jobs.updateActive(A, 'job_1', { status: 'Failed', error: INTERRUPTED, endedAt: T0 + 1 });
      const late = await store.jobs.updateActive(A, 'job_1', { status: 'Completed', result: { late: true } });
      expect(late.applied).toBe(false);
      expect(late.record).toMatchObject({ status: 'Failed', error: INTERRUPTED, result: null });
    });

    it("answers JOB_NOT_FOUND when updating a missing job or another tenant's", async () => {
      const store = current();
      await store.jobs.create(jobFixture({ id: 'job_1' }));
      await expect(store.jobs.updateActive(B, 'job_1', { progress: 'x' })).rejects.toMatchObject({
        code: 'JOB_NOT_FOUND',
      });
      await expect(store.jobs.updateActive(A, 'job_missing', { progress: 'x' })).rejects.toMatchObject({
        code: 'JOB_NOT_FOUND',
      });
      expect((await store.jobs.get(A, 'job_1'))?.progress).toBeNull();
    });

    it('lists a tenant’s jobs newest first, filtered by kind and status, page by page', async () => {
      const store = current();
      for (let i = 0; i < 5; i += 1) {
        await store.jobs.create(
          jobFixture({
            id: `job_${i}`,
            createdAt: T0 + i,
            kind: i % 2 === 0 ? 'testgen' : 'other',
            status: i === 4 ? 'Completed' : 'Running',
          }),
        );
      }
      await store.jobs.create(jobFixture({ id: 'job_b', tenantId: B, createdAt: T0 + 10 }));
      const all = await store.jobs.list(A);
      expect(all.items.map((job) => job.id)).toEqual(['job_4', 'job_3', 'job_2', 'job_1', 'job_0']);
      expect((await store.jobs.list(A, { kind: 'testgen' })).items.map((job) => job.id)).toEqual([
        'job_4',
        'job_2',
        'job_0',
      ]);
      expect((await store.jobs.list(A, { status: 'Completed' })).items.map((job) => job.id)).toEqual(['job_4']);
      const first = await store.jobs.list(A, { limit: 2 });
      const second = await store.jobs.list(A, { limit: 2, cursor: first.nextCursor! });
      const third = await store.jobs.list(A, { limit: 2, cursor: second.nextCursor! });
      expect([first, second, third].map((page) => page.items.map((job) => job.id))).toEqual([
        ['job_4', 'job_3'],
        ['job_2', 'job_1'],
        ['job_0'],
      ]);
      expect(third.nextCursor).toBeNull();
      await expect(store.jobs.list(A, { cursor: 'nonsense' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    });

    it("renews the leases of one owner's active jobs only", async () => {
      const store = current();
      await store.jobs.create(jobFixture({ id: 'job_mine', owner: 'w1', leaseExpiresAt: T0 }));
      await store.jobs.create(
        jobFixture({ id: 'job_mine_b', tenantId: B, owner: 'w1', leaseExpiresAt: T0, status: 'Queued' }),
      );
      await store.jobs.create(jobFixture({ id: 'job_done', owner: 'w1', leaseExpiresAt: T0, status: 'Completed' }));
      await store.jobs.create(jobFixture({ id: 'job_theirs', owner: 'w2', leaseExpiresAt: T0 }));
      await store.jobs.renewLeases('w1', T0 + 60_000);
      expect((await store.jobs.get(A, 'job_mine'))?.leaseExpiresAt).toBe(T0 + 60_000);
      expect((await store.jobs.get(B, 'job_mine_b'))?.leaseExpiresAt).toBe(T0 + 60_000);
      expect((await store.jobs.get(A, 'job_done'))?.leaseExpiresAt).toBe(T0);
      expect((await store.jobs.get(A, 'job_theirs'))?.leaseExpiresAt).toBe(T0);
      expect([...(await store.jobs.listLeaseOwners())].sort()).toEqual(['w1', 'w2']);
    });

    it('interrupts active jobs whose lease expired or whose owner is dead, across tenants, once', async () => {
      const store = current();
      await store.jobs.create(jobFixture({ id: 'job_expired', owner: 'gone', leaseExpiresAt: T0 }));
      await store.jobs.create(
        jobFixture({ id: 'job_expired_b', tenantId: B, status: 'Queued', owner: 'gone', leaseExpiresAt: T0 - 1 }),
      );
      await store.jobs.create(jobFixture({ id: 'job_live', owner: 'live', leaseExpiresAt: T0 + 1 }));
      await store.jobs.create(jobFixture({ id: 'job_dead_owner', owner: 'dead', leaseExpiresAt: T0 + 60_000 }));
      await store.jobs.create(
        jobFixture({ id: 'job_finished', status: 'Completed', owner: null, leaseExpiresAt: T0 - 100 }),
      );

      const marked = await store.jobs.interruptOrphans({ now: T0, deadOwners: ['dead'], error: INTERRUPTED });
      expect(marked.map((job) => `${job.tenantId}/${job.id}`).sort()).toEqual([
        `${A}/job_dead_owner`,
        `${A}/job_expired`,
        `${B}/job_expired_b`,
      ]);
      expect(await store.jobs.get(A, 'job_expired')).toMatchObject({
        status: 'Failed',
        error: INTERRUPTED,
        endedAt: T0,
        owner: null,
        leaseExpiresAt: null,
      });
      expect(await store.jobs.get(A, 'job_live')).toMatchObject({ status: 'Running', owner: 'live' });
      expect(await store.jobs.get(A, 'job_finished')).toMatchObject({ status: 'Completed', error: null });
      expect(await store.jobs.interruptOrphans({ now: T0, deadOwners: ['dead'], error: INTERRUPTED })).toEqual([]);
    });
  });
}
