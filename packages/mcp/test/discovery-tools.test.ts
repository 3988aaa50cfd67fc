import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connect, connectWithSampling, openMemoryEngine, structured, textOf, type Connected } from './helpers.js';
import { startSpotifyApi } from './spotify-api.js';

const spotify = readFileSync(new URL('../../discovery/test/fixtures/spotify-subset.json', import.meta.url), 'utf8');
const FOCUS = 'create a playlist for me named "Focus"';

interface RoadmapOut {
  requirement: string;
  steps: Array<{
    name: string;
    method: string;
    path: string;
    endpointId: string;
    reason: string;
    score: number;
    role: string;
  }>;
  bindings: Array<{ expression: string; to: { step: string; in: string; name: string } }>;
  inputs: Array<{ name: string; example?: unknown }>;
  confidence: number;
}
interface ScaffoldOut {
  flowId: string;
  name: string;
  nodes: Array<{ id: string; name: string; method: string; path: string }>;
  env: Array<{ name: string; required: boolean; default?: unknown; usedBy: string[] }>;
  inputs: Array<{ name: string; required: boolean; default?: unknown }>;
  run: { tool: string; arguments: { flowId: string; env: Record<string, unknown> } };
  roadmap: RoadmapOut;
}

describe('discovery tools over a real MCP client (local mode)', () => {
  let memory: Awaited<ReturnType<typeof openMemoryEngine>>;
  let mcp: Connected;
  beforeEach(async () => {
    memory = await openMemoryEngine();
    mcp = await connect(memory.api);
  });
  afterEach(async () => {
    await mcp.close();
    await memory.close();
  });

  const importSpotify = async () => {
    const imported = await mcp.call('svc_import_openapi', { document: spotify, name: 'spotify' });
    expect(imported.isError, textOf(imported)).toBeFalsy();
  };

  it('answers CATALOG_EMPTY, pointing at svc_import_openapi, before anything is imported', async () => {
    const result = await mcp.call('svc_plan_roadmap', { requirement: FOCUS });
    expect(result.isError).toBe(true);
    expect(structured(result)).toMatchObject({
      error: { code: 'CATALOG_EMPTY', message: expect.stringContaining('svc_import_openapi') },
    });
  });

  it('plans GET /me then POST /users/{user_id}/playlists, and renders numbered steps, bindings and inputs', async () => {
    await importSpotify();
    const result = await mcp.call('svc_plan_roadmap', { requirement: FOCUS });
    expect(result.isError, textOf(result)).toBeFalsy();
    const roadmap = structured<RoadmapOut>(result);
    expect(roadmap.steps.map((step) => `${step.method} ${step.path}`)).toEqual([
      'GET /me',
      'POST /users/{user_id}/playlists',
    ]);
    expect(roadmap.bindings).toEqual([
      expect.objectContaining({
        expression: `{{ResponseBinding.${roadmap.steps[0]!.name}.body.id}}`,
        to: { step: roadmap.steps[1]!.name, in: 'path', name: 'user_id' },
      }),
    ]);
    expect(roadmap.inputs).toEqual([expect.objectContaining({ name: 'name', example: 'Focus' })]);
    const text = textOf(result);
    expect(text).toContain(`Plan for ${JSON.stringify(FOCUS)} (confidence`);
    expect(text).toMatch(/^ 1\. GET \/me {2}— \S/m);
    expect(text).toMatch(/^ 2\. POST \/users\/\{user_id\}\/playlists {2}— \S/m);
    expect(text).toContain('Bindings:');
    expect(text).toContain('name = "Focus"');
    expect(text).toContain('svc_scaffold_flow');
    // Deterministic: the same requirement on the same catalog gives the same roadmap.
    expect(structured(await mcp.call('svc_plan_roadmap', { requirement: FOCUS }))).toEqual(roadmap);
  });

  it('refuses a requirement longer than 2000 characters before planning', async () => {
    const result = await mcp.call('svc_plan_roadmap', { requirement: 'x'.repeat(2001) });
    expect(result.isError).toBe(true);
  });

  it('scaffolds a roadmap into a saved flow and says how to run it', async () => {
    await importSpotify();
    const roadmap = structured<RoadmapOut>(await mcp.call('svc_plan_roadmap', { requirement: FOCUS }));
    const result = await mcp.call('svc_scaffold_flow', { roadmap, name: 'focus-playlist' });
    expect(result.isError, textOf(result)).toBeFalsy();
    const out = structured<ScaffoldOut>(result);
    expect(out).toMatchObject({
      name: 'focus-playlist',
      nodes: roadmap.steps.map((step) =>
        expect.objectContaining({ name: step.name, method: step.method, path: step.path }),
      ),
    });
    expect(out.env).toEqual([
      expect.objectContaining({ name: 'baseUrl', required: false, default: 'https://api.spotify.com/v1' }),
      expect.objectContaining({ name: 'oauth20Token', required: true }),
    ]);
    expect(out.run).toEqual({
      tool: 'svc_run_flow',
      arguments: { flowId: out.flowId, env: { baseUrl: 'https://api.spotify.com/v1', oauth20Token: '<oauth20Token>' } },
    });
    const text = textOf(result);
    expect(text).toContain(`Saved flow "focus-playlist" (id ${out.flowId}, version 1) with 2 node(s):`);
    expect(text).toContain('svc_run_flow {"flowId"');
    expect(text).toContain('oauth20Token (required)');

    const flow = structured<{ flow: { nodes: Array<{ name: string }> } }>(
      await mcp.call('svc_get_flow', { flowId: out.flowId }),
    ).flow;
    expect(flow.nodes.map((node) => node.name)).toEqual(roadmap.steps.map((step) => step.name));
  });

  it('answers VALIDATION_ERROR without exactly one of roadmap and requirement, and ENDPOINT_NOT_FOUND for an unknown step', async () => {
    await importSpotify();
    const neither = await mcp.call('svc_scaffold_flow', { name: 'x' });
    expect(neither.isError).toBe(true);
    expect(textOf(neither)).toContain('give exactly one of roadmap (from svc_plan_roadmap) and requirement at roadmap');
    const roadmap = structured<RoadmapOut>(await mcp.call('svc_plan_roadmap', { requirement: FOCUS }));
    roadmap.steps[1]!.endpointId = 'create-mixtape';
    const unknown = await mcp.call('svc_scaffold_flow', { roadmap });
    expect(unknown.isError).toBe(true);
    expect(structured(unknown)).toMatchObject({
      error: { code: 'ENDPOINT_NOT_FOUND', message: expect.stringContaining('roadmap.steps[1].endpointId') },
    });
  });

  it('end to end: scaffolds a requirement, then svc_run_flow runs it against a server implementing the spec → Completed', async () => {
    const token = 'tok_spotify_e2e';
    const api = await startSpotifyApi(token, 'ada');
    try {
      await importSpotify();
      const scaffolded = await mcp.call('svc_scaffold_flow', { requirement: FOCUS });
      expect(scaffolded.isError, textOf(scaffolded)).toBeFalsy();
      const { run, inputs } = structured<ScaffoldOut>(scaffolded);
      expect(inputs).toEqual([expect.objectContaining({ name: 'name', required: false, default: 'Focus' })]);

      const ran = await mcp.call(run.tool, {
        ...run.arguments,
        env: { ...run.arguments.env, baseUrl: api.url, oauth20Token: token },
      });
      expect(ran.isError, textOf(ran)).toBeFalsy();
      const execution = structured<{ execution: { status: string; nodesExecuted: number } }>(ran).execution;
      expect(execution, textOf(ran)).toMatchObject({ status: 'Completed', nodesExecuted: 2 });
      expect(api.seen.map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual([
        'GET /me 200',
        'POST /users/ada/playlists 201',
      ]);
      expect(api.seen[1]!.body).toMatchObject({ name: 'Focus' });
      expect(api.seen.every((request) => request.authorization === `Bearer ${token}`)).toBe(true);
      // The token is redacted from what the assistant reads.
      expect(textOf(ran)).not.toContain(token);
    } finally {
      await api.close();
    }
  });
});

describe("svc_plan_roadmap with the assistant's model (sampling)", () => {
  it("re-plans with the model's choice among the candidates when the client offers sampling", async () => {
    const memory = await openMemoryEngine();
    const sampling = await connectWithSampling(memory.api, '{"choices":[{"action":0,"candidate":1}]}');
    try {
      await sampling.call('svc_import_openapi', { document: spotify, name: 'spotify' });
      const plain = structured<RoadmapOut & { actions: Array<{ candidates: Array<{ endpointId: string }> }> }>(
        await sampling.call('svc_plan_roadmap', { requirement: FOCUS }),
      );
      expect(sampling.prompts).toHaveLength(0);
      const assisted = await sampling.call('svc_plan_roadmap', { requirement: FOCUS, assist: true });
      expect(assisted.isError, textOf(assisted)).toBeFalsy();
      const roadmap = structured<RoadmapOut & { decidedBy: string }>(assisted);
      expect(sampling.prompts).toHaveLength(1);
      expect(roadmap.decidedBy).toBe('sampling');
      expect(roadmap.steps.find((step) => step.role === 'requested')?.endpointId).toBe(
        plain.actions[0]!.candidates[1]!.endpointId,
      );
    } finally {
      await sampling.close();
      await memory.close();
    }
  });

  it('keeps the scores and says why when the client does not offer sampling', async () => {
    const memory = await openMemoryEngine();
    const mcp = await connect(memory.api);
    try {
      await mcp.call('svc_import_openapi', { document: spotify, name: 'spotify' });
      const result = await mcp.call('svc_plan_roadmap', { requirement: FOCUS, assist: true });
      const roadmap = structured<RoadmapOut & { decidedBy: string; notes?: string[]; confidence: number }>(result);
      expect(roadmap.decidedBy).toBe('scores');
      expect(roadmap.notes).toContain('this client does not offer MCP sampling; the scores decided');
      // An inferred producer step makes the plan less than sure: the text lists the candidates to choose from.
      expect(roadmap.confidence).toBeLessThan(0.8);
      expect(textOf(result)).toContain("Low confidence: choose among each action's candidates");
      expect(roadmap.steps.map((step) => `${step.method} ${step.path}`)).toEqual([
        'GET /me',
        'POST /users/{user_id}/playlists',
      ]);
    } finally {
      await mcp.close();
      await memory.close();
    }
  });
});
