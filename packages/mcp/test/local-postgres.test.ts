import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, silentLogger } from '@svc/engine';
import { openLocalApi } from '@svc/mcp';
import { dropSchemas, freshSchemaName, probePostgres } from '../../engine/test/helpers/postgres-test-db.js';

const probe = await probePostgres();
if (probe.skipReason !== undefined) console.warn(`local-postgres.test.ts: skipped: ${probe.skipReason}`);
const schemas: string[] = [];
afterAll(async () => {
  if (probe.url !== undefined) await dropSchemas(probe.url, schemas);
});

/** Local svc-mcp opens the store SVC_DB names, a PostgreSQL database included. */
describe.skipIf(probe.url === undefined)('local svc-mcp on PostgreSQL', () => {
  it('saves and runs a flow on the database SVC_DB names, and needs SVC_SECRET_KEY for it', async () => {
    const schema = freshSchemaName('mcp');
    schemas.push(schema);
    const admin = new pg.Client({ connectionString: probe.url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await admin.end();
    const target = new URL(probe.url!);
    target.searchParams.set('options', `-c search_path=${schema}`);
    const SVC_DB = target.toString();

    await expect(openLocalApi(loadConfig({ SVC_DB }), silentLogger)).rejects.toMatchObject({ code: 'CONFIG_ERROR' });

    const api = await openLocalApi(
      loadConfig({ SVC_DB, SVC_SECRET_KEY: randomBytes(32).toString('base64') }),
      silentLogger,
    );
    try {
      const flow = await api.createFlow({
        name: 'set-only',
        nodes: [{ id: 'n1', name: 'Set', type: 'variables', position: { x: 0, y: 0 }, config: { set: { a: 1 } } }],
        connections: [],
      });
      const run = await api.runFlow({ flowId: flow.id, waitMs: 10_000 });
      expect(run.status).toBe('Completed');
      expect((await api.listFlows()).flows.map((each) => each.name)).toEqual(['set-only']);
    } finally {
      await api.close();
    }
  });
});
