import { readFileSync } from 'node:fs';
import { createEngine, createManualClock, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createCatalogService,
  createDiscoveryService,
  describeRunNeeds,
  planRoadmapBodySchema,
  renderRoadmap,
  roadmapSchema,
  scaffoldFlowBodySchema,
  type CatalogService,
  type DiscoveryService,
} from '../src/index.js';

const spotify = readFileSync(new URL('./fixtures/spotify-subset.json', import.meta.url), 'utf8');
const shop = readFileSync(new URL('./fixtures/shop.openapi.yaml', import.meta.url), 'utf8');
const TENANT = 'discovery';
const FOCUS = 'create a playlist for me named "Focus"';

describe('DiscoveryService', () => {
  let store: ReturnType<typeof openSqliteStore>;
  let engine: Engine;
  let catalog: CatalogService;
  let discovery: DiscoveryService;
  let pagesRead: number;

  beforeEach(async () => {
    store = openSqliteStore({ path: ':memory:' });
    engine = await createEngine({ store });
    // A manual clock: two imports share a timestamp, and the revision must still change.
    const real = createCatalogService({ repository: store.catalog, clock: createManualClock(1_000) });
    pagesRead = 0;
    catalog = {
      ...real,
      listEndpoints: (tenantId, query) => {
        pagesRead += 1;
        return real.listEndpoints(tenantId, query);
      },
    };
    discovery = createDiscoveryService({ catalog, flows: engine.flows });
  });
  afterEach(async () => {
    await engine.stop();
    await store.close();
  });

  it('answers CATALOG_EMPTY, saying how to import, while the catalog has no endpoint', async () => {
    await expect(discovery.plan(TENANT, { requirement: FOCUS })).rejects.toMatchObject({
      code: 'CATALOG_EMPTY',
      message: expect.stringContaining('svc_import_openapi'),
    });
    await expect(discovery.scaffold(TENANT, { requirement: FOCUS })).rejects.toMatchObject({ code: 'CATALOG_EMPTY' });
  });

  it('plans GET /me then POST /users/{user_id}/playlists, the user id bound into the path', async () => {
    await catalog.importOpenApi(TENANT, spotify, { name: 'spotify' });
    const roadmap = await discovery.plan(TENANT, { requirement: FOCUS });
    expect(roadmap.steps.map((step) => `${step.method} ${step.path}`)).toEqual([
      'GET /me',
      'POST /users/{user_id}/playlists',
    ]);
    const [me, create] = roadmap.steps;
    expect(roadmap.bindings).toContainEqual(
      expect.objectContaining({
        from: expect.objectContaining({ step: me!.name, path: 'id' }),
        to: { step: create!.name, in: 'path', name: 'user_id' },
      }),
    );
    expect(roadmap.inputs).toContainEqual(expect.objectContaining({ name: 'name', example: 'Focus' }));
    // What the planner answers is what the wire accepts back.
    expect(roadmapSchema.parse(roadmap)).toEqual(roadmap);
    const text = renderRoadmap(roadmap);
    expect(text).toMatch(/^ 1\. GET \/me {2}— /m);
    expect(text).toMatch(/^ 2\. POST \/users\/\{user_id\}\/playlists {2}— /m);
    expect(text).toContain(`{{ResponseBinding.${me!.name}.body.id}} → ${create!.name} path user_id`);
    expect(text).toContain('name = "Focus"');
  });

  it('builds the planner index once per catalog revision, and again after an import', async () => {
    await catalog.importOpenApi(TENANT, spotify, { name: 'spotify' });
    await discovery.plan(TENANT, { requirement: FOCUS });
    const afterFirst = pagesRead;
    await discovery.plan(TENANT, { requirement: 'list the tracks of a playlist' });
    expect(pagesRead).toBe(afterFirst);

    // Same name, same manual timestamp, one endpoint fewer: a changed catalog all the same.
    const trimmed = JSON.parse(spotify) as { paths: Record<string, unknown> };
    delete trimmed.paths['/me'];
    await catalog.importOpenApi(TENANT, JSON.stringify(trimmed), { name: 'spotify' });
    const replanned = await discovery.plan(TENANT, { requirement: FOCUS });
    expect(pagesRead).toBeGreaterThan(afterFirst);
    expect(replanned.steps.map((step) => step.path)).not.toContain('/me');
  });

  it('plans within one spec when given specId, and answers SPEC_NOT_FOUND for an unknown one', async () => {
    await catalog.importOpenApi(TENANT, spotify, { name: 'spotify' });
    await catalog.importOpenApi(TENANT, shop, { name: 'shop' });
    const roadmap = await discovery.plan(TENANT, {
      requirement: 'create a customer and place an order',
      specId: 'shop',
    });
    expect(roadmap.steps.length).toBeGreaterThan(0);
    expect(new Set(roadmap.steps.map((step) => step.specId))).toEqual(new Set(['shop']));
    await expect(discovery.plan(TENANT, { requirement: FOCUS, specId: 'nope' })).rejects.toMatchObject({
      code: 'SPEC_NOT_FOUND',
    });
  });

  it('scaffolds a requirement into a saved flow that names its steps and what a run needs', async () => {
    await catalog.importOpenApi(TENANT, spotify, { name: 'spotify' });
    const { flow, roadmap } = await discovery.scaffold(TENANT, { requirement: FOCUS, name: 'focus-playlist' });
    expect(flow).toMatchObject({ name: 'focus-playlist', version: 1 });
    expect(flow.nodes.map((node) => node.name)).toEqual(roadmap.steps.map((step) => step.name));
    expect((await engine.flows.get(TENANT, flow.id)).id).toBe(flow.id);
    const needs = describeRunNeeds(flow);
    expect(needs.env.map((variable) => variable.name)).toEqual(['baseUrl', 'oauth20Token']);
    expect(needs.env[0]).toMatchObject({ required: false, default: 'https://api.spotify.com/v1' });
    expect(needs.env[1]).toMatchObject({
      required: true,
      usedBy: [`${roadmap.steps[0]!.name} header Authorization`, `${roadmap.steps[1]!.name} header Authorization`],
    });
    expect(needs.inputs).toEqual([expect.objectContaining({ name: 'name', required: false, default: 'Focus' })]);
  });

  it('answers ENDPOINT_NOT_FOUND with the path of every step the catalog does not have', async () => {
    await catalog.importOpenApi(TENANT, spotify, { name: 'spotify' });
    const roadmap = await discovery.plan(TENANT, { requirement: FOCUS });
    const edited = {
      ...roadmap,
      steps: roadmap.steps.map((step, index) => (index === 1 ? { ...step, endpointId: 'make-playlist' } : step)),
    };
    await expect(discovery.scaffold(TENANT, { roadmap: edited })).rejects.toMatchObject({
      code: 'ENDPOINT_NOT_FOUND',
      details: {
        problems: [{ path: 'roadmap.steps[1].endpointId', message: expect.stringContaining('make-playlist') }],
      },
    });
    await expect(discovery.scaffold(TENANT, { roadmap, requirement: FOCUS })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
  });

  it('keeps tenants apart', async () => {
    await catalog.importOpenApi(TENANT, spotify, { name: 'spotify' });
    await discovery.plan(TENANT, { requirement: FOCUS });
    await expect(discovery.plan('other', { requirement: FOCUS })).rejects.toMatchObject({ code: 'CATALOG_EMPTY' });
  });
});

describe('discovery wire schemas', () => {
  it('bound the requirement to 1..2000 characters', () => {
    expect(planRoadmapBodySchema.safeParse({ requirement: '' }).success).toBe(false);
    expect(planRoadmapBodySchema.safeParse({ requirement: 'x'.repeat(2001) }).success).toBe(false);
    expect(planRoadmapBodySchema.safeParse({ requirement: 'x'.repeat(2000) }).success).toBe(true);
    expect(planRoadmapBodySchema.safeParse({ requirement: 'x', extra: 1 }).success).toBe(false);
  });

  it('take exactly one of roadmap and requirement to scaffold, and check a roadmap’s shape', () => {
    const neither = scaffoldFlowBodySchema.safeParse({ name: 'x' });
    expect(neither.success).toBe(false);
    expect(neither.error?.issues[0]).toMatchObject({
      path: ['requirement'],
      message: 'give exactly one of roadmap and requirement',
    });
    const bad = scaffoldFlowBodySchema.safeParse({
      roadmap: {
        requirement: 'x',
        steps: [{ name: 'A' }],
        bindings: [],
        inputs: [],
        confidence: 2,
        actions: [],
        decidedBy: 'scores',
      },
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((issue) => issue.path.join('.'))).toEqual(
      expect.arrayContaining(['roadmap.steps.0.endpointId', 'roadmap.confidence']),
    );
  });
});
