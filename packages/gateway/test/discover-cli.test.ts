import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '@svc/engine/sqlite';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSvc } from './cli.js';

type Json = Record<string, any>;

const fixture = fileURLToPath(new URL('../../discovery/test/fixtures/spotify-subset.json', import.meta.url));
const FOCUS = 'create a playlist for me named "Focus"';

describe('svc discover', () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-discover-cli-'));
    env = { SVC_DB: join(dir, 'svc.db') };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says to import a spec first while the catalog is empty (exit 1), and refuses an empty requirement (exit 2)', async () => {
    const empty = await spawnSvc(['discover', FOCUS], env).done;
    expect(empty.code).toBe(1);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toContain('CATALOG_EMPTY');
    expect(empty.stderr).toContain('svc catalog import');
    const blank = await spawnSvc(['discover', ''], env).done;
    expect(blank.code).toBe(2);
    expect((await spawnSvc(['discover'], env).done).code).toBe(2);
  });

  it('prints exactly one JSON object, the roadmap, after svc catalog import', async () => {
    const imported = await spawnSvc(['catalog', 'import', fixture, '--name', 'spotify'], env).done;
    expect(imported.code, imported.stderr).toBe(0);
    const result = await spawnSvc(['discover', FOCUS, '--json'], env).done;
    expect(result.code, result.stderr).toBe(0);
    const roadmap = JSON.parse(result.stdout) as Json;
    expect(roadmap.requirement).toBe(FOCUS);
    expect(roadmap.steps.map((step: Json) => `${step.method} ${step.path}`)).toEqual([
      'GET /me',
      'POST /users/{user_id}/playlists',
    ]);
    expect(roadmap.bindings[0]).toMatchObject({
      expression: `{{ResponseBinding.${roadmap.steps[0].name}.body.id}}`,
      to: { in: 'path', name: 'user_id' },
    });
    expect(roadmap).not.toHaveProperty('flowId');
  });

  it('prints a readable plan: numbered steps with METHOD /path and reason, bindings, inputs, confidence', async () => {
    const result = await spawnSvc(['discover', FOCUS], env).done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Plan for .*\(confidence 0\.\d\d, 2 steps\):$/m);
    expect(result.stdout).toMatch(/^ 1\. GET \/me {2}— \S/m);
    expect(result.stdout).toMatch(/^ 2\. POST \/users\/\{user_id\}\/playlists {2}— \S/m);
    expect(result.stdout).toContain('Bindings:');
    expect(result.stdout).toContain('name = "Focus"');
  });

  it('with --scaffold --json saves the flow and prints the roadmap with its flowId, still one object', async () => {
    const result = await spawnSvc(['discover', FOCUS, '--scaffold', '--json', '--name', 'focus-cli'], env).done;
    expect(result.code, result.stderr).toBe(0);
    const roadmap = JSON.parse(result.stdout) as Json;
    expect(roadmap.flowId).toMatch(/^flw_/);
    expect(roadmap.steps).toHaveLength(2);
    const store = openSqliteStore({ path: env.SVC_DB! });
    try {
      const flow = await store.flows.get('default', roadmap.flowId);
      expect(flow).toMatchObject({ name: 'focus-cli' });
      expect(flow!.nodes.map((node) => node.name)).toEqual(roadmap.steps.map((step: Json) => step.name));
    } finally {
      await store.close();
    }
    const text = await spawnSvc(['discover', FOCUS, '--scaffold'], env).done;
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/Saved flow ".+" \(id flw_\w+, version 1\)/);
    expect(text.stdout).toContain('oauth20Token (required)');
  });

  it('answers exit 1 when nothing matches, and 2 for --name without --scaffold', async () => {
    const nothing = await spawnSvc(['discover', 'bake a sourdough loaf', '--json'], env).done;
    expect(nothing.code).toBe(1);
    expect(JSON.parse(nothing.stdout).steps).toEqual([]);
    expect((await spawnSvc(['discover', FOCUS, '--name', 'x'], env).done).code).toBe(2);
  });
});
