import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_KEPT_ALERT_DELIVERIES,
  type AlertChannelDefinition,
  type AlertDeliveryRecord,
  type CheckStateRecord,
  type CheckTransition,
  type Store,
} from '@svc/engine';
import { A, B, T0 } from './fixtures.js';

export function channelDefinition(overrides: Partial<AlertChannelDefinition> = {}): AlertChannelDefinition {
  return {
    name: 'ops',
    type: 'slack',
    enabled: true,
    repeatEveryMs: null,
    settings: { destination: 'https://hooks.slack.com' },
    secrets: { url: 'https://hooks.slack.com/services/T000/B000/very-secret-token' },
    ...overrides,
  };
}

export function checkState(
  overrides: Partial<Omit<CheckStateRecord, 'version'>> = {},
): Omit<CheckStateRecord, 'version'> {
  return {
    tenantId: A,
    suiteId: 'ste_1',
    flowId: 'flw_1',
    checkName: 'orders-health',
    state: 'failing',
    since: T0,
    streak: 1,
    lastRunAt: T0,
    lastExecutionId: 'exe-1',
    lastFailure: {
      at: T0,
      executionId: 'exe-1',
      step: 'GetHealth',
      error: { code: 'ASSERTION_FAILED', message: 'statusCode == 200: got 503' },
    },
    notifiedAt: { alc_1: T0 },
    ...overrides,
  };
}

export function alertDelivery(overrides: Partial<AlertDeliveryRecord> = {}): AlertDeliveryRecord {
  return {
    id: 'alr_1',
    tenantId: A,
    suiteId: 'ste_1',
    channelId: 'alc_1',
    channelType: 'slack',
    flowId: 'flw_1',
    event: 'failing',
    alert: {
      event: 'failing',
      suite: { id: 'ste_1', name: 'api-health' },
      check: { flowId: 'flw_1', name: 'orders-health' },
      state: 'failing',
      since: new Date(T0).toISOString(),
      error: { code: 'ASSERTION_FAILED', message: 'statusCode == 200: got 503', step: 'GetHealth' },
      executionId: 'exe-1',
      executionUrl: 'http://127.0.0.1:8080/api/gateway/executions/exe-1',
      time: new Date(T0).toISOString(),
    },
    status: 'pending',
    attempts: 0,
    nextAttemptAt: T0,
    lastError: null,
    responseStatus: null,
    createdAt: T0,
    updatedAt: T0,
    deliveredAt: null,
    ...overrides,
  };
}

const transition = (overrides: Partial<CheckTransition> = {}): CheckTransition => ({
  expectedVersion: null,
  next: checkState(),
  deliveries: [],
  ...overrides,
});

/**
 * The health-check cases of the store contract (see `describeStoreContract`): alert channels with
 * sealed secrets, check transitions that apply once, and deliveries claimed once.
 */
export function describeHealthContract(current: () => Store, openAnother?: () => Promise<Store> | Store): void {
  describe('alert channels', () => {
    it('saves a channel with an alc_ id and answers the names of its secrets, never their values', async () => {
      const store = current();
      const saved = await store.alertChannels.create(A, 'ste_1', channelDefinition());
      expect(saved.id).toMatch(/^alc_[a-z2-7]{20}$/);
      expect(saved).toMatchObject({
        tenantId: A,
        suiteId: 'ste_1',
        name: 'ops',
        type: 'slack',
        enabled: true,
        repeatEveryMs: null,
        settings: { destination: 'https://hooks.slack.com' },
        secretKeys: ['url'],
      });
      expect(saved.updatedAt).toBe(saved.createdAt);
      expect(await store.alertChannels.get(A, 'ste_1', saved.id)).toEqual(saved);
      expect(await store.alertChannels.list(A, 'ste_1')).toEqual([saved]);
      expect(JSON.stringify(await store.alertChannels.list(A, 'ste_1'))).not.toContain('very-secret-token');
      expect(await store.alertChannels.openSecrets(A, saved.id)).toEqual({
        url: 'https://hooks.slack.com/services/T000/B000/very-secret-token',
      });
    });

    it('hides a channel from another tenant and another suite', async () => {
      const store = current();
      const saved = await store.alertChannels.create(A, 'ste_1', channelDefinition());
      expect(await store.alertChannels.get(B, 'ste_1', saved.id)).toBeUndefined();
      expect(await store.alertChannels.get(A, 'ste_2', saved.id)).toBeUndefined();
      expect(await store.alertChannels.list(B, 'ste_1')).toEqual([]);
      expect(await store.alertChannels.openSecrets(B, saved.id)).toBeUndefined();
      await expect(store.alertChannels.update(B, 'ste_1', saved.id, channelDefinition())).rejects.toMatchObject({
        code: 'ALERT_CHANNEL_NOT_FOUND',
      });
      expect(await store.alertChannels.delete(B, 'ste_1', saved.id)).toBe(false);
      expect(await store.alertChannels.get(A, 'ste_1', saved.id)).toEqual(saved);
    });

    it('refuses a second channel of one name in a suite, not in another suite', async () => {
      const store = current();
      await store.alertChannels.create(A, 'ste_1', channelDefinition());
      await expect(store.alertChannels.create(A, 'ste_1', channelDefinition())).rejects.toMatchObject({
        code: 'CONFLICT',
        message: 'the suite already has an alert channel named "ops"',
      });
      await expect(store.alertChannels.create(A, 'ste_2', channelDefinition())).resolves.toMatchObject({
        suiteId: 'ste_2',
      });
      const other = await store.alertChannels.create(A, 'ste_1', channelDefinition({ name: 'pager' }));
      await expect(store.alertChannels.update(A, 'ste_1', other.id, channelDefinition())).rejects.toMatchObject({
        code: 'CONFLICT',
      });
    });

    it('replaces a definition on update, secrets included, and deletes', async () => {
      const store = current();
      const saved = await store.alertChannels.create(A, 'ste_1', channelDefinition());
      const updated = await store.alertChannels.update(
        A,
        'ste_1',
        saved.id,
        channelDefinition({
          type: 'pagerduty',
          enabled: false,
          repeatEveryMs: 3_600_000,
          settings: { severity: 'error' },
          secrets: { routingKey: 'R0UT1NG', signingSecret: 'whsec_x' },
        }),
      );
      expect(updated).toMatchObject({
        id: saved.id,
        type: 'pagerduty',
        enabled: false,
        repeatEveryMs: 3_600_000,
        settings: { severity: 'error' },
        secretKeys: ['routingKey', 'signingSecret'],
        createdAt: saved.createdAt,
      });
      expect(await store.alertChannels.openSecrets(A, saved.id)).toEqual({
        routingKey: 'R0UT1NG',
        signingSecret: 'whsec_x',
      });
      expect(await store.alertChannels.delete(A, 'ste_1', saved.id)).toBe(true);
      expect(await store.alertChannels.get(A, 'ste_1', saved.id)).toBeUndefined();
      expect(await store.alertChannels.delete(A, 'ste_1', saved.id)).toBe(false);
    });
  });

  describe('health checks', () => {
    it('applies a first transition over no state, then only over the version it was decided on', async () => {
      const store = current();
      expect(await store.health.getCheck(A, 'ste_1', 'flw_1')).toBeUndefined();
      expect(await store.health.transition(transition({ deliveries: [alertDelivery()] }))).toBe(true);
      const first = await store.health.getCheck(A, 'ste_1', 'flw_1');
      expect(first).toEqual({ ...checkState(), version: 1 });
      // A second run that decided on "no state yet" lost the race: nothing of it is written.
      expect(await store.health.transition(transition({ deliveries: [alertDelivery({ id: 'alr_2' })] }))).toBe(false);
      expect((await store.health.listDeliveries(A, 'ste_1')).items.map((d) => d.id)).toEqual(['alr_1']);
      const recovered = checkState({ state: 'healthy', since: T0 + 60_000, notifiedAt: {}, lastRunAt: T0 + 60_000 });
      expect(await store.health.transition(transition({ expectedVersion: 2, next: recovered }))).toBe(false);
      expect(await store.health.transition(transition({ expectedVersion: 1, next: recovered }))).toBe(true);
      expect(await store.health.getCheck(A, 'ste_1', 'flw_1')).toEqual({ ...recovered, version: 2 });
      expect(await store.health.listChecks(A, 'ste_1')).toEqual([{ ...recovered, version: 2 }]);
    });

    it('keeps each tenant’s checks apart', async () => {
      const store = current();
      await store.health.transition(transition());
      await store.health.transition(transition({ next: checkState({ tenantId: B, state: 'healthy' }) }));
      expect((await store.health.getCheck(A, 'ste_1', 'flw_1'))?.state).toBe('failing');
      expect((await store.health.getCheck(B, 'ste_1', 'flw_1'))?.state).toBe('healthy');
      expect(await store.health.listChecks(B, 'ste_2')).toEqual([]);
    });
  });

  describe('alert deliveries', () => {
    it('lists a suite’s deliveries newest first, by status and check, in pages', async () => {
      const store = current();
      const deliveries = [1, 2, 3].map((n) =>
        alertDelivery({ id: `alr_${n}`, createdAt: T0 + n, flowId: n === 2 ? 'flw_2' : 'flw_1' }),
      );
      await store.health.transition(transition({ deliveries }));
      const first = await store.health.listDeliveries(A, 'ste_1', { limit: 2 });
      expect(first.items.map((d) => d.id)).toEqual(['alr_3', 'alr_2']);
      const second = await store.health.listDeliveries(A, 'ste_1', { limit: 2, cursor: first.nextCursor! });
      expect(second).toEqual({ items: [deliveries[0]], nextCursor: null });
      expect((await store.health.listDeliveries(A, 'ste_1', { flowId: 'flw_2' })).items.map((d) => d.id)).toEqual([
        'alr_2',
      ]);
      expect((await store.health.listDeliveries(A, 'ste_1', { status: 'delivered' })).items).toEqual([]);
      expect((await store.health.listDeliveries(B, 'ste_1')).items).toEqual([]);
      expect(await store.health.getDelivery(A, 'alr_1')).toEqual(deliveries[0]);
      expect(await store.health.getDelivery(B, 'alr_1')).toBeUndefined();
    });

    it('claims due deliveries once, counting the attempt and moving the due time by the lease', async () => {
      const store = current();
      await store.health.transition(
        transition({
          deliveries: [
            alertDelivery({ id: 'alr_due', nextAttemptAt: T0 }),
            alertDelivery({ id: 'alr_later', nextAttemptAt: T0 + 10_000 }),
            alertDelivery({ id: 'alr_b', tenantId: B, nextAttemptAt: T0 - 1 }),
          ],
        }),
      );
      const oldest = await store.health.claimDue({ now: T0, leaseMs: 60_000, limit: 1 });
      expect(oldest.map((d) => d.id)).toEqual(['alr_b']);
      const claimed = [...oldest, ...(await store.health.claimDue({ now: T0, leaseMs: 60_000, limit: 10 }))].sort(
        (x, y) => x.id.localeCompare(y.id),
      );
      expect(claimed.map((d) => [d.id, d.attempts, d.nextAttemptAt])).toEqual([
        ['alr_b', 1, T0 + 60_000],
        ['alr_due', 1, T0 + 60_000],
      ]);
      expect(await store.health.claimDue({ now: T0 + 1, leaseMs: 60_000, limit: 10 })).toEqual([]);
      // A claim whose sender died comes back once its lease passed.
      const again = await store.health.claimDue({ now: T0 + 60_000, leaseMs: 60_000, limit: 5 });
      expect(again.map((d) => [d.id, d.attempts]).sort()).toEqual([
        ['alr_b', 2],
        ['alr_due', 2],
        ['alr_later', 1],
      ]);
    });

    it('claims at most perChannel of one channel, and none of the channels it is told to skip', async () => {
      const store = current();
      await store.health.transition(
        transition({
          deliveries: [
            alertDelivery({ id: 'alr_a1', channelId: 'alc_a', nextAttemptAt: T0 - 3 }),
            alertDelivery({ id: 'alr_a2', channelId: 'alc_a', nextAttemptAt: T0 - 2 }),
            alertDelivery({ id: 'alr_b1', channelId: 'alc_b', nextAttemptAt: T0 - 1 }),
            alertDelivery({ id: 'alr_c1', channelId: 'alc_c', nextAttemptAt: T0 }),
          ],
        }),
      );
      const first = await store.health.claimDue({
        now: T0,
        leaseMs: 1_000,
        limit: 10,
        perChannel: 1,
        skipChannelIds: ['alc_c'],
      });
      expect(first.map((d) => d.id).sort()).toEqual(['alr_a1', 'alr_b1']);
      const second = await store.health.claimDue({ now: T0, leaseMs: 1_000, limit: 10, perChannel: 1 });
      expect(second.map((d) => d.id).sort()).toEqual(['alr_a2', 'alr_c1']);
    });

    it('records an attempt’s outcome only for the attempt still held', async () => {
      const store = current();
      await store.health.transition(transition({ deliveries: [alertDelivery()] }));
      const [claimed] = await store.health.claimDue({ now: T0, leaseMs: 1_000, limit: 1 });
      const lastError = { code: 'NETWORK_ERROR', message: 'connection refused' };
      expect(
        await store.health.finishAttempt(A, 'alr_1', 1, {
          status: 'pending',
          at: T0 + 5,
          nextAttemptAt: T0 + 10_000,
          lastError,
          responseStatus: null,
        }),
      ).toBe(true);
      expect(await store.health.getDelivery(A, 'alr_1')).toMatchObject({
        status: 'pending',
        attempts: 1,
        nextAttemptAt: T0 + 10_000,
        lastError,
        updatedAt: T0 + 5,
      });
      const [second] = await store.health.claimDue({ now: T0 + 10_000, leaseMs: 1_000, limit: 1 });
      expect(second?.attempts).toBe(2);
      // The first attempt's late outcome no longer applies, nor one from another tenant.
      expect(
        await store.health.finishAttempt(A, 'alr_1', claimed!.attempts, {
          status: 'delivered',
          at: T0 + 10_001,
          responseStatus: 200,
        }),
      ).toBe(false);
      expect(
        await store.health.finishAttempt(B, 'alr_1', 2, { status: 'delivered', at: T0 + 10_002, responseStatus: 200 }),
      ).toBe(false);
      expect(
        await store.health.finishAttempt(A, 'alr_1', 2, { status: 'delivered', at: T0 + 10_003, responseStatus: 202 }),
      ).toBe(true);
      expect(await store.health.getDelivery(A, 'alr_1')).toMatchObject({
        status: 'delivered',
        attempts: 2,
        nextAttemptAt: null,
        lastError: null,
        responseStatus: 202,
        deliveredAt: T0 + 10_003,
      });
      expect(await store.health.claimDue({ now: T0 + 99_999, leaseMs: 1_000, limit: 5 })).toEqual([]);
    });

    it('keeps the newest deliveries of a suite, and every pending one', async () => {
      const store = current();
      const many = (prefix: string, status: AlertDeliveryRecord['status'], count: number, from: number) =>
        Array.from({ length: count }, (_, n) =>
          alertDelivery({ id: `${prefix}_${String(n).padStart(4, '0')}`, status, createdAt: T0 + from + n }),
        );
      await store.health.transition(transition({ deliveries: many('alr_p', 'pending', 5, 0) }));
      await store.health.transition(
        transition({ expectedVersion: 1, deliveries: many('alr_d', 'delivered', MAX_KEPT_ALERT_DELIVERIES, 10) }),
      );
      // The newest 1,000 are the delivered ones; the older pending ones stay all the same.
      expect(await store.health.getDelivery(A, 'alr_p_0000')).toBeDefined();
      expect(await store.health.getDelivery(A, 'alr_d_0000')).toBeDefined();
      await store.health.transition(
        transition({ expectedVersion: 2, deliveries: many('alr_n', 'failed', 2, 10 + MAX_KEPT_ALERT_DELIVERIES) }),
      );
      expect(await store.health.getDelivery(A, 'alr_d_0000')).toBeUndefined();
      expect(await store.health.getDelivery(A, 'alr_d_0001')).toBeUndefined();
      expect(await store.health.getDelivery(A, 'alr_d_0002')).toBeDefined();
      expect(await store.health.getDelivery(A, 'alr_p_0000')).toBeDefined();
      expect(await store.health.getDelivery(A, 'alr_n_0001')).toBeDefined();
    });

    it('removes a deleted suite’s channels, checks and deliveries, in its tenant only', async () => {
      const store = current();
      const channel = await store.alertChannels.create(A, 'ste_1', channelDefinition());
      await store.alertChannels.create(B, 'ste_1', channelDefinition());
      await store.health.transition(transition({ deliveries: [alertDelivery()] }));
      await store.health.transition(
        transition({ next: checkState({ tenantId: B }), deliveries: [alertDelivery({ tenantId: B })] }),
      );
      await store.health.deleteSuite(A, 'ste_1');
      expect(await store.alertChannels.get(A, 'ste_1', channel.id)).toBeUndefined();
      expect(await store.health.listChecks(A, 'ste_1')).toEqual([]);
      expect((await store.health.listDeliveries(A, 'ste_1')).items).toEqual([]);
      expect(await store.alertChannels.list(B, 'ste_1')).toHaveLength(1);
      expect(await store.health.listChecks(B, 'ste_1')).toHaveLength(1);
      expect((await store.health.listDeliveries(B, 'ste_1')).items).toHaveLength(1);
    });
  });

  describe.skipIf(openAnother === undefined)('health checks on two stores on the same data', () => {
    let other: Store;
    beforeEach(async () => {
      other = await openAnother!();
    });
    afterEach(async () => {
      await other.close();
    });

    it('lets one of two stores deciding on the same state apply it, and hands a due delivery to one', async () => {
      const store = current();
      const results = await Promise.all([
        store.health.transition(transition({ deliveries: [alertDelivery({ id: 'alr_x' })] })),
        other.health.transition(transition({ deliveries: [alertDelivery({ id: 'alr_y' })] })),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const [mine, theirs] = await Promise.all([
        store.health.claimDue({ now: T0, leaseMs: 60_000, limit: 5 }),
        other.health.claimDue({ now: T0, leaseMs: 60_000, limit: 5 }),
      ]);
      expect(mine.length + theirs.length).toBe(1);
    });

    it('opens the other store’s sealed channel secrets', async () => {
      const store = current();
      const saved = await other.alertChannels.create(A, 'ste_1', channelDefinition());
      expect((await store.alertChannels.openSecrets(A, saved.id))?.url).toContain('very-secret-token');
    });
  });
}
