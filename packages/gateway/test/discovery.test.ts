import { readFileSync } from 'node:fs';
import { createEngine, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stubAuthenticator } from './stub-authenticator.js';
import { apiCaller, type Json } from './api-call.js';

const spotify = readFileSync(new URL('../../discovery/test/fixtures/spotify-subset.json', import.meta.url), 'utf8');
const FOCUS = 'create a playlist for me named "Focus"';

describe('REST /api/gateway/discovery', () => {
  let engine: Engine;
  let store: ReturnType<typeof openSqliteStore>;
  let app: ReturnType<typeof createApp>;
  const authenticator = stubAuthenticator({
    'key-a': { tenantId: 'tenant-a' },
    'key-empty': { tenantId: 'tenant-empty' },
    'key-a-read': { tenantId: 'tenant-a', scopes: ['catalog:read'] },
    'key-a-flows': { tenantId: 'tenant-a', scopes: ['flows:read', 'flows:write'] },
    'key-a-author': { tenantId: 'tenant-a', scopes: ['catalog:read', 'flows:write'] },
  });

  const call = apiCaller(() => app);

  beforeAll(async () => {
    store = openSqliteStore({ path: ':memory:' });
    engine = await createEngine({ store });
    app = createApp({ engine, authenticator, store });
    const imported = await call('POST', '/api/gateway/catalog/import', {
      body: { document: spotify, name: 'spotify' },
    });
    expect(imported.status).toBe(200);
  });
  afterAll(async () => {
    await engine?.stop();
    await store?.close();
  });

  it('plans a requirement into a roadmap in the envelope, with method and path as the spec writes them', async () => {
    const planned = await call('POST', '/api/gateway/discovery/roadmaps', {
      key: 'key-a-read',
      body: { requirement: FOCUS },
    });
    expect(planned.status, JSON.stringify(planned.json)).toBe(200);
    const roadmap = planned.json.data;
    expect(roadmap.requirement).toBe(FOCUS);
    expect(roadmap.steps.map((step: Json) => `${step.method} ${step.path}`)).toEqual([
      'GET /me',
      'POST /users/{user_id}/playlists',
    ]);
    expect(roadmap.bindings[0]).toMatchObject({ to: { step: roadmap.steps[1].name, in: 'path', name: 'user_id' } });
    expect(roadmap.confidence).toBeGreaterThan(0);
  });

  it('answers 409 CATALOG_EMPTY for a tenant without a catalog, and 404 SPEC_NOT_FOUND for an unknown spec', async () => {
    const empty = await call('POST', '/api/gateway/discovery/roadmaps', {
      key: 'key-empty',
      body: { requirement: FOCUS },
    });
    expect(empty).toMatchObject({
      status: 409,
      json: {
        success: false,
        error: { code: 'CATALOG_EMPTY', message: expect.stringContaining('svc_import_openapi') },
      },
    });
    const unknown = await call('POST', '/api/gateway/discovery/roadmaps', {
      body: { requirement: FOCUS, specId: 'stripe' },
    });
    expect(unknown).toMatchObject({ status: 404, json: { error: { code: 'SPEC_NOT_FOUND' } } });
  });

  it('answers VALIDATION_ERROR with paths for a bad body', async () => {
    const blank = await call('POST', '/api/gateway/discovery/roadmaps', { body: { requirement: '' } });
    expect(blank).toMatchObject({
      status: 400,
      json: { error: { code: 'VALIDATION_ERROR', details: { problems: [{ path: 'body.requirement' }] } } },
    });
    const long = await call('POST', '/api/gateway/discovery/roadmaps', { body: { requirement: 'x'.repeat(2001) } });
    expect(long.json.error.code).toBe('VALIDATION_ERROR');
    const broken = await call('POST', '/api/gateway/discovery/scaffolds', {
      body: { roadmap: { requirement: FOCUS } },
    });
    expect(broken.status).toBe(400);
    expect(broken.json.error.details.problems.map((problem: Json) => problem.path)).toEqual(
      expect.arrayContaining(['body.roadmap.steps', 'body.roadmap.confidence']),
    );
    const roadmap = (await call('POST', '/api/gateway/discovery/roadmaps', { body: { requirement: FOCUS } })).json.data;
    const both = await call('POST', '/api/gateway/discovery/scaffolds', { body: { requirement: FOCUS, roadmap } });
    expect(both).toMatchObject({
      status: 400,
      json: {
        error: {
          details: { problems: [{ path: 'body.roadmap', message: 'give exactly one of roadmap and requirement' }] },
        },
      },
    });
    const neither = await call('POST', '/api/gateway/discovery/scaffolds', { body: {} });
    expect(neither).toMatchObject({
      status: 400,
      json: { error: { code: 'VALIDATION_ERROR', details: { problems: [{ path: 'body.requirement' }] } } },
    });
  });

  it('scaffolds a planned roadmap into a saved flow: 201 with the flow and the roadmap', async () => {
    const roadmap = (await call('POST', '/api/gateway/discovery/roadmaps', { body: { requirement: FOCUS } })).json.data;
    const scaffolded = await call('POST', '/api/gateway/discovery/scaffolds', {
      key: 'key-a-author',
      body: { roadmap, name: 'focus-playlist' },
    });
    expect(scaffolded.status, JSON.stringify(scaffolded.json)).toBe(201);
    const { flow } = scaffolded.json.data;
    expect(scaffolded.json.data.roadmap).toEqual(roadmap);
    expect(flow).toMatchObject({ name: 'focus-playlist', version: 1 });
    expect(flow.nodes.map((node: Json) => node.name)).toEqual(roadmap.steps.map((step: Json) => step.name));
    expect(flow.nodes[1].config.url).toContain(`{{ResponseBinding.${roadmap.steps[0].name}.body.id}}`);
    expect(scaffolded.headers.get('location')).toBe(`/api/gateway/flows/${flow.id}`);
    const read = await call('GET', `/api/gateway/flows/${flow.id}`);
    expect(read.json.data.flowData.canvasGroups[0].nodeIds).toEqual(flow.nodes.map((node: Json) => node.id));
  });

  it('scaffolds straight from a requirement', async () => {
    const scaffolded = await call('POST', '/api/gateway/discovery/scaffolds', { body: { requirement: FOCUS } });
    expect(scaffolded.status).toBe(201);
    expect(scaffolded.json.data.roadmap.steps).toHaveLength(2);
    expect(scaffolded.json.data.flow.variables).toEqual({ name: 'Focus' });
  });

  it('needs catalog:read and flows:write to scaffold', async () => {
    const flowCount = async () => (await call('GET', '/api/gateway/flows')).json.data.items.length;
    const before = await flowCount();
    const readOnly = await call('POST', '/api/gateway/discovery/scaffolds', {
      key: 'key-a-read',
      body: { requirement: FOCUS },
    });
    expect(readOnly).toMatchObject({
      status: 403,
      json: { error: { code: 'INSUFFICIENT_SCOPE', details: { requiredScope: 'flows:write' } } },
    });
    const flowsOnly = await call('POST', '/api/gateway/discovery/scaffolds', {
      key: 'key-a-flows',
      body: { requirement: FOCUS },
    });
    expect(flowsOnly).toMatchObject({
      status: 403,
      json: { error: { code: 'INSUFFICIENT_SCOPE', details: { requiredScope: 'catalog:read' } } },
    });
    const planWithoutCatalog = await call('POST', '/api/gateway/discovery/roadmaps', {
      key: 'key-a-flows',
      body: { requirement: FOCUS },
    });
    expect(planWithoutCatalog.status).toBe(403);
    expect(await flowCount()).toBe(before);
  });

  it('answers ENDPOINT_NOT_FOUND with the path of a step naming an endpoint the catalog lacks', async () => {
    const roadmap = (await call('POST', '/api/gateway/discovery/roadmaps', { body: { requirement: FOCUS } })).json.data;
    roadmap.steps[0].endpointId = 'whoami';
    const missing = await call('POST', '/api/gateway/discovery/scaffolds', { body: { roadmap } });
    expect(missing).toMatchObject({
      status: 404,
      json: { error: { code: 'ENDPOINT_NOT_FOUND', details: { problems: [{ path: 'roadmap.steps[0].endpointId' }] } } },
    });
  });

  it('is described in the gateway’s OpenAPI document with its scopes and the same body schemas', async () => {
    const document = (await (await app.request('/api/openapi.json')).json()) as Json;
    const plan = document.paths['/api/gateway/discovery/roadmaps'].post;
    const scaffold = document.paths['/api/gateway/discovery/scaffolds'].post;
    expect(plan.security[0]).toEqual({ oauth2: ['catalog:read'] });
    expect(scaffold.security[0]).toEqual({ oauth2: ['catalog:read', 'flows:write'] });
    expect(plan.responses['409'].description).toContain('CATALOG_EMPTY');
    expect(scaffold.responses['404'].description).toContain('ENDPOINT_NOT_FOUND');
    expect(scaffold.responses['201']).toBeDefined();
    expect(document.components.schemas.PlanRoadmapBody).toMatchObject({
      required: ['requirement'],
      properties: { requirement: { minLength: 1, maxLength: 2000 } },
    });
    expect(document.components.schemas.Roadmap.required).toEqual(
      expect.arrayContaining(['steps', 'bindings', 'inputs', 'confidence']),
    );
  });
});
