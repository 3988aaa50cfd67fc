import { readFileSync } from 'node:fs';
import { systemClock } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createClient, startGatewayServer } from '@svc/gateway';
import { createRemoteApi } from '@svc/mcp';
import { describe, expect, it } from 'vitest';
import { connect, structured, textOf } from '../../mcp/test/helpers.js';

const spotify = readFileSync(new URL('../../discovery/test/fixtures/spotify-subset.json', import.meta.url), 'utf8');
const FOCUS = 'create a playlist for me named "Focus"';

describe('svc-mcp discovery tools in remote mode, against the real REST gateway', () => {
  it('plans through POST /api/gateway/discovery/roadmaps and scaffolds through POST /api/gateway/discovery/scaffolds', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const server = await startGatewayServer({ store, port: 0, host: '127.0.0.1' });
    const tenantId = server.bootstrapped!.tenantId;
    const { clientSecret } = await createClient(store, systemClock, {
      tenantId,
      name: 'svc-mcp',
      scopes: ['catalog:read', 'catalog:write', 'flows:read', 'flows:write'],
    });
    const { clientSecret: readOnly } = await createClient(store, systemClock, {
      tenantId,
      name: 'reader',
      scopes: ['catalog:read'],
    });
    const mcp = await connect(createRemoteApi({ baseUrl: server.url, apiKey: clientSecret }));
    const reader = await connect(createRemoteApi({ baseUrl: server.url, apiKey: readOnly }));
    try {
      const empty = await mcp.call('svc_plan_roadmap', { requirement: FOCUS });
      expect(structured(empty)).toMatchObject({ error: { code: 'CATALOG_EMPTY' } });

      expect((await mcp.call('svc_import_openapi', { document: spotify, name: 'spotify' })).isError).toBeFalsy();
      const planned = await reader.call('svc_plan_roadmap', { requirement: FOCUS });
      expect(planned.isError, textOf(planned)).toBeFalsy();
      const roadmap = structured<{ steps: Array<{ name: string; method: string; path: string }> }>(planned);
      expect(roadmap.steps.map((step) => `${step.method} ${step.path}`)).toEqual([
        'GET /me',
        'POST /users/{user_id}/playlists',
      ]);
      expect(textOf(planned)).toMatch(/^ 1\. GET \/me {2}— /m);

      const denied = await reader.call('svc_scaffold_flow', { roadmap });
      expect(structured(denied)).toMatchObject({
        error: { code: 'INSUFFICIENT_SCOPE', message: expect.stringContaining('flows:write') },
      });

      const scaffolded = await mcp.call('svc_scaffold_flow', { roadmap, name: 'focus-remote' });
      expect(scaffolded.isError, textOf(scaffolded)).toBeFalsy();
      const out = structured<{ flowId: string; nodes: Array<{ name: string }>; env: Array<{ name: string }> }>(
        scaffolded,
      );
      expect(out.nodes.map((node) => node.name)).toEqual(roadmap.steps.map((step) => step.name));
      expect(out.env.map((variable) => variable.name)).toEqual(['baseUrl', 'oauth20Token']);
      expect((await store.flows.get(tenantId, out.flowId))?.name).toBe('focus-remote');

      const unknown = await mcp.call('svc_scaffold_flow', {
        roadmap: { ...roadmap, steps: roadmap.steps.map((step) => ({ ...step, endpointId: 'nope' })) },
      });
      expect(structured(unknown)).toMatchObject({ error: { code: 'ENDPOINT_NOT_FOUND' } });
    } finally {
      await reader.close();
      await mcp.close();
      await server.close();
      await store.close();
    }
  });
});
