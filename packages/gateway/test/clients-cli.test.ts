import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '@svc/engine/sqlite';
import { startGatewayServer, type GatewayServer } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSvc } from './cli.js';

type Json = Record<string, any>;

describe('svc tenants and svc clients', () => {
  let dir: string;
  let db: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-clients-'));
    db = join(dir, 'svc.db');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function svc(...args: string[]): Promise<{ code: number | null; json: Json; stderr: string }> {
    const result = await spawnSvc(args, { SVC_DB: db }).done;
    let json: Json = {};
    try {
      json = JSON.parse(result.stdout) as Json;
    } catch {
      // Left empty: the test reads `code` and `stderr`.
    }
    return { code: result.code, json, stderr: result.stderr };
  }

  /** The gateway on the same file, in this process, to check what the commands made. */
  async function withGateway<T>(work: (server: GatewayServer) => Promise<T>): Promise<T> {
    const store = openSqliteStore({ path: db });
    const server = await startGatewayServer({ store, port: 0, host: '127.0.0.1' });
    try {
      return await work(server);
    } finally {
      await server.close();
      await store.close();
    }
  }
  const status = (server: GatewayServer, key: string) =>
    fetch(`${server.url}/api/gateway/flows`, { headers: { 'X-API-Key': key } }).then((response) => response.status);

  it('creates a tenant and a client whose secret the gateway accepts; lists never show a secret', async () => {
    const tenant = await svc('tenants', 'create', 'Initech', '--id', 'initech');
    expect(tenant).toMatchObject({ code: 0, json: { id: 'initech', name: 'Initech' } });
    expect((await svc('tenants', 'list')).json.items.map((item: Json) => item.id)).toEqual(['initech']);

    const made = await svc(
      'clients',
      'create',
      'ci',
      '--tenant',
      'initech',
      '--scopes',
      'flows:read,flows:write',
      '--trial',
    );
    expect(made.code).toBe(0);
    expect(made.json).toMatchObject({
      tenantId: 'initech',
      name: 'ci',
      scopes: ['flows:read', 'flows:write'],
      trial: true,
    });
    expect(Date.parse(made.json.expiresAt) - Date.parse(made.json.createdAt)).toBe(14 * 24 * 60 * 60 * 1000);
    expect(made.json.clientSecret).toMatch(/^svc_sk_/);

    const listed = await svc('clients', 'list', '--tenant', 'initech');
    expect(listed.json.items.map((item: Json) => item.clientId)).toEqual([made.json.clientId]);
    expect(JSON.stringify(listed.json)).not.toContain('svc_sk_');

    await withGateway(async (server) => expect(await status(server, made.json.clientSecret)).toBe(200));
  });

  it('rotates (the old secret keeps working for now) and revokes (nothing works any more)', async () => {
    const made = (await svc('clients', 'create', 'rotating', '--tenant', 'initech', '--scopes', 'flows:read')).json;
    const rotated = await svc('clients', 'rotate', made.clientId);
    expect(rotated.code).toBe(0);
    expect(rotated.json.clientSecret).not.toBe(made.clientSecret);
    expect(Date.parse(rotated.json.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23 * 60 * 60 * 1000);
    await withGateway(async (server) => {
      expect(await status(server, made.clientSecret)).toBe(200);
      expect(await status(server, rotated.json.clientSecret)).toBe(200);
    });

    const revoked = await svc('clients', 'revoke', made.clientId);
    expect(revoked.json.revokedAt).toEqual(expect.any(String));
    await withGateway(async (server) => {
      expect(await status(server, made.clientSecret)).toBe(401);
      expect(await status(server, rotated.json.clientSecret)).toBe(401);
    });
  });

  it('makes the README trial client with the least-privilege default, never admin', async () => {
    const trial = await svc('clients', 'create', 'trial-dev', '--tenant', 'initech', '--trial');
    expect(trial.code).toBe(0);
    expect(trial.json).toMatchObject({ tenantId: 'initech', scopes: ['flows:read', 'executions:run'], trial: true });
    await withGateway(async (server) => {
      expect(await status(server, trial.json.clientSecret)).toBe(200);
      const backoffice = await fetch(`${server.url}/api/backoffice/clients`, {
        headers: { 'X-API-Key': trial.json.clientSecret },
      });
      expect(backoffice.status).toBe(403);
    });
    const admin = await svc('clients', 'create', 'initech-admin', '--tenant', 'initech', '--scopes', 'admin');
    expect(admin.json.scopes).toEqual(['admin']);
  });

  it('refuses to rotate or revoke a revoked client, saying when it was revoked', async () => {
    const made = (await svc('clients', 'create', 'gone', '--tenant', 'initech')).json;
    expect((await svc('clients', 'revoke', made.clientId)).code).toBe(0);
    for (const action of ['rotate', 'revoke']) {
      const again = await svc('clients', action, made.clientId);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/client "cli_\w+" was revoked on \d{4}-/);
      expect(again.json).toEqual({});
    }
  });

  it('fails with a message for an unknown tenant, client or scope', async () => {
    const noTenant = await svc('clients', 'create', 'x', '--tenant', 'nowhere');
    expect(noTenant.code).toBe(1);
    expect(noTenant.stderr).toContain('tenant "nowhere" not found');
    const noClient = await svc('clients', 'revoke', 'cli_nobody');
    expect(noClient.code).toBe(1);
    expect(noClient.stderr).toContain('client "cli_nobody" not found');
    const badScope = await svc('clients', 'create', 'x', '--scopes', 'flows:nuke');
    expect(badScope.code).toBe(2);
    expect(badScope.stderr).toContain('known scopes: flows:read');
  });

  it("logs the store's warnings through the configured logger, as JSON when SVC_LOG_FORMAT=json", async () => {
    const path = join(dir, 'old.db');
    mkdirSync(`${path}-execlog`);
    const result = await spawnSvc(['tenants', 'list'], { SVC_DB: path, SVC_LOG_FORMAT: 'json' }).done;
    expect(result.code).toBe(0);
    const lines = result.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Json);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        msg: expect.stringContaining('an execution log from an earlier version'),
        directory: `${path}-execlog`,
      }),
    );
    expect(JSON.parse(result.stdout)).toEqual({ items: [] });
  });
});
