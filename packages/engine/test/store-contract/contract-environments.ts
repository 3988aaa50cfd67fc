import { describe, expect, it } from 'vitest';
import type { EnvironmentDefinition, Store } from '@svc/engine';
import { A, B, tick } from './fixtures.js';

function environment(overrides: Partial<EnvironmentDefinition> = {}): EnvironmentDefinition {
  return {
    name: 'staging',
    description: 'the staging stack',
    variables: { baseUrl: 'http://localhost:4010', retries: 3 },
    secrets: { greeting: 'hunter2-very-secret' },
    ...overrides,
  };
}

/** The environment cases of the store contract (see `describeStoreContract`). */
export function describeEnvironmentContract(current: () => Store): void {
  describe('environments', () => {
    it('saves an environment with an envr_ id, answering secrets as *** and naming them', async () => {
      const store = current();
      const saved = await store.environments.create(A, environment());
      expect(saved.id).toMatch(/^envr_[a-z2-7]{20}$/);
      expect(saved).toMatchObject({
        tenantId: A,
        name: 'staging',
        variables: { baseUrl: 'http://localhost:4010', retries: 3, greeting: '***' },
        secretKeys: ['greeting'],
      });
      expect(saved.updatedAt).toBe(saved.createdAt);
      expect(await store.environments.get(A, saved.id)).toEqual(saved);
      expect(await store.environments.findByName(A, 'staging')).toEqual(saved);
      expect(JSON.stringify(await store.environments.list(A))).not.toContain('hunter2');
    });

    it('resolves the decrypted values for a run, in its own tenant only', async () => {
      const store = current();
      const saved = await store.environments.create(A, environment());
      expect(await store.environments.resolve(A, saved.id)).toEqual({
        id: saved.id,
        name: 'staging',
        values: { baseUrl: 'http://localhost:4010', retries: 3, greeting: 'hunter2-very-secret' },
        secretKeys: ['greeting'],
      });
      expect(await store.environments.resolve(B, saved.id)).toBeUndefined();
    });

    it('resolves by name as by id, and every resolve reads what was last written', async () => {
      const store = current();
      const saved = await store.environments.create(A, environment());
      expect(await store.environments.resolveByName(A, 'staging')).toEqual(
        await store.environments.resolve(A, saved.id),
      );
      expect(await store.environments.resolveByName(B, 'staging')).toBeUndefined();
      expect(await store.environments.resolveByName(A, saved.id)).toBeUndefined();
      // A run may change what it was given; the next resolve is not changed by that.
      (await store.environments.resolve(A, saved.id))!.values.greeting = 'changed by a caller';
      expect((await store.environments.resolveByName(A, 'staging'))?.values.greeting).toBe('hunter2-very-secret');
      // The same secret written again, then another: each resolve answers the last write.
      await store.environments.patch(A, saved.id, { secrets: { greeting: 'hunter2-very-secret' } });
      expect((await store.environments.resolve(A, saved.id))?.values.greeting).toBe('hunter2-very-secret');
      await store.environments.patch(A, saved.id, { secrets: { greeting: 'rotated-1' } });
      expect((await store.environments.resolveByName(A, 'staging'))?.values.greeting).toBe('rotated-1');
      await store.environments.patch(A, saved.id, { secrets: { greeting: 'rotated-2' }, variables: { retries: 4 } });
      expect(await store.environments.resolve(A, saved.id)).toMatchObject({
        values: { greeting: 'rotated-2', retries: 4 },
        secretKeys: ['greeting'],
      });
      await store.environments.update(A, saved.id, environment({ name: 'renamed', secrets: {} }));
      expect(await store.environments.resolveByName(A, 'staging')).toBeUndefined();
      expect(await store.environments.resolveByName(A, 'renamed')).toMatchObject({ secretKeys: [] });
      await store.environments.delete(A, saved.id);
      expect(await store.environments.resolve(A, saved.id)).toBeUndefined();
      expect(await store.environments.resolveByName(A, 'renamed')).toBeUndefined();
    });

    it('refuses a second environment with the same name in a tenant, not in another tenant', async () => {
      const store = current();
      const first = await store.environments.create(A, environment());
      await expect(store.environments.create(A, environment())).rejects.toMatchObject({
        code: 'CONFLICT',
        message: 'an environment named "staging" already exists',
      });
      await expect(
        store.environments.create(A, environment({ name: 'other' }), { id: first.id }),
      ).rejects.toMatchObject({ code: 'CONFLICT' });
      await expect(store.environments.create(B, environment())).resolves.toMatchObject({
        tenantId: B,
        name: 'staging',
      });
      const other = await store.environments.create(A, environment({ name: 'prod' }));
      await expect(store.environments.update(A, other.id, environment())).rejects.toMatchObject({ code: 'CONFLICT' });
    });

    it('hides another tenant’s environment: get, findByName, list, update, patch and delete', async () => {
      const store = current();
      const saved = await store.environments.create(A, environment());
      expect(await store.environments.get(B, saved.id)).toBeUndefined();
      expect(await store.environments.findByName(B, 'staging')).toBeUndefined();
      expect(await store.environments.list(B)).toEqual([]);
      await expect(store.environments.update(B, saved.id, environment())).rejects.toMatchObject({
        code: 'ENVIRONMENT_NOT_FOUND',
      });
      await expect(store.environments.patch(B, saved.id, { variables: { x: 1 } })).rejects.toMatchObject({
        code: 'ENVIRONMENT_NOT_FOUND',
      });
      expect(await store.environments.delete(B, saved.id)).toBe(false);
      expect(await store.environments.get(A, saved.id)).toEqual(saved);
    });

    it('replaces a definition on update, keeping the secrets it is told to keep', async () => {
      const store = current();
      const saved = await store.environments.create(
        A,
        environment({ secrets: { greeting: 'hunter2-very-secret', apiToken: 'tok-1234' } }),
      );
      await tick();
      const updated = await store.environments.update(
        A,
        saved.id,
        environment({ name: 'renamed', variables: { baseUrl: 'http://b' }, secrets: {} }),
        { keepSecrets: ['greeting'] },
      );
      expect(updated).toMatchObject({
        id: saved.id,
        name: 'renamed',
        createdAt: saved.createdAt,
        variables: { baseUrl: 'http://b', greeting: '***' },
        secretKeys: ['greeting'],
      });
      expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(saved.updatedAt));
      expect((await store.environments.resolve(A, saved.id))?.values).toEqual({
        baseUrl: 'http://b',
        greeting: 'hunter2-very-secret',
      });
    });

    it('patches single variables, keeping the others', async () => {
      const store = current();
      const saved = await store.environments.create(A, environment());
      const patched = await store.environments.patch(A, saved.id, {
        variables: { greeting: 'hello' },
        secrets: { apiToken: 'tok-9999' },
        unset: ['retries'],
      });
      expect(patched.variables).toEqual({ baseUrl: 'http://localhost:4010', greeting: 'hello', apiToken: '***' });
      expect(patched.secretKeys).toEqual(['apiToken']);
      expect((await store.environments.resolve(A, saved.id))?.values).toEqual({
        baseUrl: 'http://localhost:4010',
        greeting: 'hello',
        apiToken: 'tok-9999',
      });
    });

    it('deletes an environment and frees its name', async () => {
      const store = current();
      const saved = await store.environments.create(A, environment());
      expect(await store.environments.delete(A, saved.id)).toBe(true);
      expect(await store.environments.delete(A, saved.id)).toBe(false);
      expect(await store.environments.get(A, saved.id)).toBeUndefined();
      await expect(store.environments.create(A, environment())).resolves.toMatchObject({ name: 'staging' });
    });

    it('lists a tenant’s environments by name', async () => {
      const store = current();
      await store.environments.create(A, environment({ name: 'staging' }));
      await store.environments.create(A, environment({ name: 'prod' }));
      expect((await store.environments.list(A)).map((one) => one.name)).toEqual(['prod', 'staging']);
    });
  });
}
