import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, loadConfig, newExecutionRecord } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';

const SECRET = 'plaintext-secret-4d9c1e';
const directory = mkdtempSync(join(tmpdir(), 'svc-secrets-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Every byte SQLite keeps for the store: the database, its write-ahead log and shared memory. */
function storeBytes(path: string): string {
  return ['', '-wal', '-shm']
    .map((suffix) => `${path}${suffix}`)
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString('latin1'))
    .join('');
}

describe('secrets at rest', () => {
  it('makes a 0600 key file beside the store, keeps no secret in the clear, and reads it back after a restart', async () => {
    const path = join(directory, 'first.db');
    const store = openSqliteStore({ path });
    const saved = await store.environments.create('acme', {
      name: 'staging',
      description: '',
      variables: { baseUrl: 'http://x' },
      secrets: { greeting: SECRET },
    });
    // A run's env keeps the secret value too: it is sealed in the execution's row as well.
    const record = newExecutionRecord({
      id: '0190a000-0000-7000-8000-000000000001',
      tenantId: 'acme',
      flowId: 'flw_1',
      flowVersion: 1,
      flowName: 'f',
      env: { greeting: SECRET },
      secretKeys: ['greeting'],
      createdAt: Date.now(),
    });
    await store.executions.create(record);
    expect((await store.executions.get('acme', record.id))?.env).toEqual({ greeting: SECRET });
    expect(storeBytes(path)).not.toContain(SECRET);
    expect(storeBytes(path)).toContain('http://x');
    await store.close();
    expect(storeBytes(path)).not.toContain(SECRET);

    const keyFile = `${path}.key`;
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64')).toHaveLength(32);

    const reopened = openSqliteStore({ path });
    expect((await reopened.environments.resolve('acme', saved.id))?.values).toEqual({
      baseUrl: 'http://x',
      greeting: SECRET,
    });
    expect((await reopened.executions.get('acme', record.id))?.env).toEqual({ greeting: SECRET });
    await reopened.close();
  });

  it('uses SVC_SECRET_KEY when set (no key file), and a wrong key is SECRET_UNREADABLE, not a crash', async () => {
    const path = join(directory, 'configured.db');
    const config = loadConfig({ SVC_SECRET_KEY: randomBytes(32).toString('hex') });
    const store = openSqliteStore({ path, secretKey: config.secretKey! });
    const saved = await store.environments.create('acme', {
      name: 'prod',
      description: '',
      variables: {},
      secrets: { greeting: SECRET },
    });
    await store.close();
    expect(existsSync(`${path}.key`)).toBe(false);

    const wrong = openSqliteStore({
      path,
      secretKey: loadConfig({ SVC_SECRET_KEY: randomBytes(32).toString('base64') }).secretKey!,
    });
    try {
      // Reads that show no secret still work; only what needs the value fails, with a clear code.
      expect((await wrong.environments.get('acme', saved.id))?.variables).toEqual({ greeting: '***' });
      await expect(wrong.environments.resolve('acme', saved.id)).rejects.toMatchObject({
        code: 'SECRET_UNREADABLE',
        message: expect.stringContaining('SVC_SECRET_KEY'),
      });
      const engine = await createEngine({ store: wrong });
      try {
        const refused = await engine.environments.resolveRun('acme', { env: 'prod' }).catch((error: unknown) => error);
        expect(refused).toMatchObject({ code: 'SECRET_UNREADABLE' });
        expect(String((refused as Error).message)).not.toContain(SECRET);
      } finally {
        await engine.stop();
      }
    } finally {
      await wrong.close();
    }
  });

  it('refuses a bad SVC_SECRET_KEY with CONFIG_ERROR naming it, without echoing the value', () => {
    for (const value of ['short', randomBytes(16).toString('base64'), 'z'.repeat(64)]) {
      let error: unknown;
      try {
        loadConfig({ SVC_SECRET_KEY: value });
      } catch (caught) {
        error = caught;
      }
      expect(error).toMatchObject({
        code: 'CONFIG_ERROR',
        message: expect.stringContaining('SVC_SECRET_KEY must be a 32-byte key'),
      });
      expect((error as Error).message).not.toContain(value);
    }
    expect(loadConfig({}).secretKey).toBeUndefined();
  });

  it('refuses a key file that holds no key with CONFIG_ERROR naming the file', () => {
    const path = join(directory, 'broken.db');
    writeFileSync(`${path}.key`, 'not a key\n', { mode: 0o600 });
    expect(() => openSqliteStore({ path })).toThrow(
      expect.objectContaining({ code: 'CONFIG_ERROR', message: expect.stringContaining(`${path}.key`) }),
    );
  });
});
