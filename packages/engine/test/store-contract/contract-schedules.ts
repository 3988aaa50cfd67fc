import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScheduleDefinition, ScheduleLastRun, Store } from '@svc/engine';
import { A, B, T0 } from './fixtures.js';

export function scheduleDefinition(overrides: Partial<ScheduleDefinition> = {}): ScheduleDefinition {
  return {
    name: 'weekday-smoke',
    description: '',
    target: { type: 'flow', id: 'flw_a' },
    cron: '30 8 * * 1-5',
    timezone: 'UTC',
    environment: null,
    enabled: true,
    overlap: 'skip',
    ...overrides,
  };
}

function lastRun(overrides: Partial<ScheduleLastRun> = {}): ScheduleLastRun {
  return {
    at: T0,
    dueAt: T0,
    runId: 'run-1',
    outcome: 'running',
    error: null,
    endedAt: null,
    missed: 0,
    manual: false,
    ...overrides,
  };
}

/**
 * The schedule cases of the store contract (see `describeStoreContract`). With `openAnother`, the
 * claim is also raced from a second store on the same data: exactly one of them wins.
 */
export function describeScheduleContract(current: () => Store, openAnother?: () => Promise<Store> | Store): void {
  describe('schedules', () => {
    it('saves a schedule with an sch_ id, its next due time and an empty history', async () => {
      const saved = await current().schedules.create(A, scheduleDefinition(), { nextDueAt: T0 + 1000 });
      expect(saved.id).toMatch(/^sch_[a-z2-7]{20}$/);
      expect(saved).toMatchObject({
        ...scheduleDefinition(),
        tenantId: A,
        nextDueAt: T0 + 1000,
        lastRun: null,
        skippedRuns: 0,
        missedRuns: 0,
        lastSkippedAt: null,
      });
      expect(await current().schedules.get(A, saved.id)).toEqual(saved);
      expect(await current().schedules.findByName(A, 'weekday-smoke')).toEqual(saved);
      expect(await current().schedules.findByName(A, 'Weekday-Smoke')).toBeUndefined();
    });

    it('keeps a paused schedule, its suite target, time zone and environment', async () => {
      const definition = scheduleDefinition({
        target: { type: 'suite', id: 'ste_1' },
        timezone: 'Europe/Zurich',
        environment: 'staging',
        enabled: false,
        overlap: 'allow',
      });
      const saved = await current().schedules.create(A, definition, { nextDueAt: null });
      expect(await current().schedules.get(A, saved.id)).toMatchObject({ ...definition, nextDueAt: null });
    });

    it('refuses a second schedule with the same name in a tenant, not in another tenant', async () => {
      const store = current();
      const first = await store.schedules.create(A, scheduleDefinition({ name: 'nightly' }), { nextDueAt: T0 });
      await expect(
        store.schedules.create(A, scheduleDefinition({ name: 'nightly' }), { nextDueAt: T0 }),
      ).rejects.toMatchObject({ code: 'CONFLICT', message: 'a schedule named "nightly" already exists' });
      const theirs = await store.schedules.create(B, scheduleDefinition({ name: 'nightly' }), {
        nextDueAt: T0,
        id: first.id,
      });
      expect(theirs.id).toBe(first.id);
    });

    it("treats another tenant's schedule as missing for every operation", async () => {
      const store = current();
      const mine = await store.schedules.create(A, scheduleDefinition(), { nextDueAt: T0 });
      expect(await store.schedules.get(B, mine.id)).toBeUndefined();
      expect(await store.schedules.findByName(B, mine.name)).toBeUndefined();
      expect((await store.schedules.list(B)).items).toEqual([]);
      await expect(store.schedules.update(B, mine.id, scheduleDefinition(), { nextDueAt: T0 })).rejects.toMatchObject({
        code: 'SCHEDULE_NOT_FOUND',
      });
      await expect(store.schedules.recordRun(B, mine.id, lastRun())).rejects.toMatchObject({
        code: 'SCHEDULE_NOT_FOUND',
      });
      expect(
        await store.schedules.claim({
          tenantId: B,
          id: mine.id,
          dueAt: T0,
          nextDueAt: T0 + 1,
          outcome: { fire: lastRun() },
        }),
      ).toBe(false);
      expect(await store.schedules.delete(B, mine.id)).toBe(false);
      expect(await store.schedules.get(A, mine.id)).toEqual(mine);
    });

    it('replaces the definition and next due time on update, keeping the history', async () => {
      const store = current();
      const saved = await store.schedules.create(A, scheduleDefinition(), { nextDueAt: T0 });
      await store.schedules.claim({
        tenantId: A,
        id: saved.id,
        dueAt: T0,
        nextDueAt: T0 + 10,
        outcome: { fire: lastRun({ missed: 2 }) },
      });
      const updated = await store.schedules.update(
        A,
        saved.id,
        scheduleDefinition({ cron: '*/15 * * * *', name: 'often' }),
        {
          nextDueAt: T0 + 900_000,
        },
      );
      expect(updated).toMatchObject({ cron: '*/15 * * * *', name: 'often', nextDueAt: T0 + 900_000, missedRuns: 2 });
      expect(updated.lastRun).toEqual(lastRun({ missed: 2 }));
      expect(await store.schedules.get(A, saved.id)).toEqual(updated);
      await store.schedules.create(A, scheduleDefinition({ name: 'taken' }), { nextDueAt: null });
      await expect(
        store.schedules.update(A, saved.id, scheduleDefinition({ name: 'taken' }), { nextDueAt: null }),
      ).rejects.toMatchObject({ code: 'CONFLICT' });
    });

    it('lists oldest first in pages, the enabled ones only when asked', async () => {
      const store = current();
      const ids: string[] = [];
      for (let index = 0; index < 5; index += 1) {
        const saved = await store.schedules.create(
          A,
          scheduleDefinition({ name: `s${index}`, enabled: index % 2 === 0 }),
          {
            nextDueAt: index % 2 === 0 ? T0 : null,
          },
        );
        ids.push(saved.id);
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await store.schedules.list(A, { limit: 2, ...(cursor ? { cursor } : {}) });
        seen.push(...page.items.map((item) => item.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(seen.sort()).toEqual([...ids].sort());
      expect(await store.schedules.count(A)).toBe(5);
      expect(await store.schedules.count(B)).toBe(0);
      const enabled = await store.schedules.list(A, { enabledOnly: true });
      expect(enabled.items.map((item) => item.name).sort()).toEqual(['s0', 's2', 's4']);
      await expect(store.schedules.list(A, { cursor: '!!!' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    });

    it('lists the due schedules of every tenant, earliest first, never a paused one', async () => {
      const store = current();
      await store.schedules.create(A, scheduleDefinition({ name: 'later' }), { nextDueAt: T0 + 5 });
      await store.schedules.create(B, scheduleDefinition({ name: 'first' }), { nextDueAt: T0 + 1 });
      await store.schedules.create(A, scheduleDefinition({ name: 'future' }), { nextDueAt: T0 + 100 });
      await store.schedules.create(A, scheduleDefinition({ name: 'paused', enabled: false }), { nextDueAt: null });
      const due = await store.schedules.listDue(T0 + 5, 10);
      expect(due.map((each) => [each.tenantId, each.name])).toEqual([
        [B, 'first'],
        [A, 'later'],
      ]);
      expect(await store.schedules.listDue(T0 + 5, 1)).toHaveLength(1);
    });

    it('claims a due run once: a second claim of the same due time loses', async () => {
      const store = current();
      const saved = await store.schedules.create(A, scheduleDefinition(), { nextDueAt: T0 });
      const claim = { tenantId: A, id: saved.id, dueAt: T0, nextDueAt: T0 + 60_000 };
      expect(await store.schedules.claim({ ...claim, outcome: { fire: lastRun({ missed: 3 }) } })).toBe(true);
      expect(await store.schedules.claim({ ...claim, outcome: { fire: lastRun({ runId: 'run-2' }) } })).toBe(false);
      expect(await store.schedules.get(A, saved.id)).toMatchObject({
        nextDueAt: T0 + 60_000,
        lastRun: lastRun({ missed: 3 }),
        missedRuns: 3,
      });
      expect(await store.schedules.listDue(T0 + 1, 10)).toEqual([]);
    });

    it('records a skip: the next due time moves on, the count and time of skips too', async () => {
      const store = current();
      const saved = await store.schedules.create(A, scheduleDefinition(), { nextDueAt: T0 });
      await store.schedules.recordRun(A, saved.id, lastRun());
      expect(
        await store.schedules.claim({
          tenantId: A,
          id: saved.id,
          dueAt: T0,
          nextDueAt: T0 + 10,
          outcome: { skip: { at: T0 + 2, missed: 1 } },
        }),
      ).toBe(true);
      expect(await store.schedules.get(A, saved.id)).toMatchObject({
        nextDueAt: T0 + 10,
        skippedRuns: 1,
        lastSkippedAt: T0 + 2,
        missedRuns: 1,
        lastRun: lastRun(),
      });
    });

    it('does not claim a paused schedule', async () => {
      const store = current();
      const saved = await store.schedules.create(A, scheduleDefinition(), { nextDueAt: T0 });
      await store.schedules.update(A, saved.id, scheduleDefinition({ enabled: false }), { nextDueAt: T0 });
      expect(
        await store.schedules.claim({
          tenantId: A,
          id: saved.id,
          dueAt: T0,
          nextDueAt: T0 + 1,
          outcome: { fire: lastRun() },
        }),
      ).toBe(false);
    });

    it('finishes the last run only while it is still that run', async () => {
      const store = current();
      const saved = await store.schedules.create(A, scheduleDefinition(), { nextDueAt: T0 });
      await store.schedules.recordRun(A, saved.id, lastRun({ runId: 'run-1' }));
      const end = { outcome: 'passed' as const, error: null, endedAt: T0 + 50 };
      expect(await store.schedules.finishRun(A, saved.id, 'run-0', end)).toBe(false);
      expect(await store.schedules.finishRun(B, saved.id, 'run-1', end)).toBe(false);
      expect(await store.schedules.finishRun(A, saved.id, 'run-1', end)).toBe(true);
      expect((await store.schedules.get(A, saved.id))?.lastRun).toEqual(
        lastRun({ outcome: 'passed', endedAt: T0 + 50 }),
      );
    });

    it('deletes a schedule', async () => {
      const store = current();
      const saved = await store.schedules.create(A, scheduleDefinition(), { nextDueAt: T0 });
      expect(await store.schedules.delete(A, saved.id)).toBe(true);
      expect(await store.schedules.get(A, saved.id)).toBeUndefined();
      expect(await store.schedules.delete(A, saved.id)).toBe(false);
    });

    describe.skipIf(openAnother === undefined)('two stores on the same data', () => {
      let other: Store;
      beforeEach(async () => {
        other = await openAnother!();
      });
      afterEach(async () => {
        await other.close();
      });

      it('lets exactly one of them claim the same due run', async () => {
        const saved = await current().schedules.create(A, scheduleDefinition(), { nextDueAt: T0 });
        // Both see the run due before either claims it, as two processes polling together do.
        const stores = [current(), other];
        const seen = await Promise.all(stores.map((store) => store.schedules.listDue(T0, 10)));
        const [mine, theirs] = await Promise.all(
          stores.map((store, index) =>
            store.schedules.claim({
              tenantId: A,
              id: saved.id,
              dueAt: seen[index]![0]!.nextDueAt!,
              nextDueAt: T0 + 60_000,
              outcome: { fire: lastRun({ runId: `run-${index}` }) },
            }),
          ),
        );
        expect([mine, theirs].filter(Boolean)).toHaveLength(1);
        const winner = mine ? 'run-0' : 'run-1';
        expect((await other.schedules.get(A, saved.id))?.lastRun?.runId).toBe(winner);
      });
    });
  });
}
