import { readFileSync } from 'node:fs';
import { systemClock } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createClient, startGatewayServer } from '@svc/gateway';
import { createRemoteApi } from '@svc/mcp';
import { describe, expect, it } from 'vitest';
import { connect, structured, textOf } from '../../mcp/test/helpers.js';

const spotify = readFileSync(new URL('../../discovery/test/fixtures/spotify-subset.json', import.meta.url), 'utf8');

describe('svc-mcp catalog tools in remote mode, against the real REST gateway', () => {
  it('imports through POST /api/gateway/catalog/import and lists through GET /api/gateway/catalog/endpoints', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const server = await startGatewayServer({ store, port: 0, host: '127.0.0.1' });
    const tenantId = server.bootstrapped!.tenantId;
    const { clientSecret } = await createClient(store, systemClock, {
      tenantId,
      name: 'svc-mcp',
      scopes: ['catalog:read', 'catalog:write'],
    });
    const { clientSecret: readOnly } = await createClient(store, systemClock, {
      tenantId,
      name: 'reader',
      scopes: ['catalog:read'],
    });
    const mcp = await connect(createRemoteApi({ baseUrl: server.url, apiKey: clientSecret }));
    const reader = await connect(createRemoteApi({ baseUrl: server.url, apiKey: readOnly }));
    try {
      const imported = await mcp.call('svc_import_openapi', { document: spotify, name: 'spotify' });
      expect(imported.isError, textOf(imported)).toBeFalsy();
      expect(structured(imported)).toMatchObject({
        spec: { id: 'spotify', title: 'Spotify Web API', endpointCount: 5 },
        removed: [],
      });
      const listed = await mcp.call('svc_list_endpoints', { search: 'playlist' });
      expect(structured<{ endpoints: Array<{ id: string }> }>(listed).endpoints.map((endpoint) => endpoint.id)).toEqual(
        ['create-playlist', 'get-playlists-tracks', 'add-tracks-to-playlist', 'remove-tracks-playlist'],
      );
      expect((await store.catalog.listEndpoints(tenantId)).items).toHaveLength(5);

      const denied = await reader.call('svc_import_openapi', { document: spotify });
      expect(structured(denied)).toMatchObject({ error: { code: 'INSUFFICIENT_SCOPE' } });
      const broken = await mcp.call('svc_import_openapi', { document: '{"swagger": "2.0", "info": {"title": "x"}}' });
      expect(structured(broken)).toMatchObject({
        error: { code: 'INVALID_OPENAPI', problems: [{ path: '#/paths', message: 'paths is missing' }] },
      });
    } finally {
      await reader.close();
      await mcp.close();
      await server.close();
      await store.close();
    }
  });
});
