import { createEgressPolicy, createEngine, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stubAuthenticator } from './stub-authenticator.js';

type Json = Record<string, any>;

/** JSON text of `{"a":{"a":…"x"…}}`, `levels` objects deep (built as text: a value this deep is what is being refused). */
function deepObjectText(levels: number): string {
  return `${'{"a":'.repeat(levels)}"x"${'}'.repeat(levels)}`;
}

function deepArrayText(levels: number): string {
  return `${'['.repeat(levels)}${']'.repeat(levels)}`;
}

/** Whatever the body, the answer is a clear error: never a 500. */
describe('input limits at the REST doors', () => {
  let store: ReturnType<typeof openSqliteStore>;
  let engine: Engine;
  let app: ReturnType<typeof createApp>;

  async function send(method: string, path: string, body: string): Promise<{ status: number; json: Json }> {
    const response = await app.request(path, {
      method,
      headers: { 'X-API-Key': 'key', 'Content-Type': 'application/json' },
      body,
    });
    return { status: response.status, json: (await response.json()) as Json };
  }

  beforeAll(async () => {
    store = openSqliteStore({ path: ':memory:' });
    engine = await createEngine({ store, egress: createEgressPolicy({ mode: 'service' }) });
    app = createApp({
      engine,
      authenticator: stubAuthenticator({ key: { tenantId: 'tenant-a' } }),
      store,
      maxBodyBytes: 1024 * 1024,
    });
  });
  afterAll(async () => {
    await engine?.stop();
    await store?.close();
  });

  const flowWith = (field: string) =>
    `{"name":"deep","variables":${field === 'variables' ? deepObjectText(3_800) : '{}'},"nodes":[{"id":"e","name":"Call","type":"endpoint","config":{"url":"http://example.test/","body":${field === 'body' ? deepArrayText(3_800) : '{}'}}}]}`;

  it.each(['body', 'variables'])(
    'refuses a flow whose %s nests 3,800 levels with VALIDATION_ERROR and the path',
    async (field) => {
      const created = await send('POST', '/api/gateway/flows', flowWith(field));
      expect(created.status).toBe(400);
      expect(created.json.error.code).toBe('VALIDATION_ERROR');
      const expected =
        field === 'body'
          ? /^body\.nodes\[0\]\.config\.body[[\]0]+…?: nests deeper than 64 levels/
          : /^body\.variables(\.a)+: nests deeper than 64 levels/;
      expect(created.json.error.message).toMatch(expected);
      expect(created.json.error.details.problems[0]).toMatchObject({ code: 'TOO_DEEP' });
    },
  );

  it('takes a flow nested within the limit', async () => {
    const created = await send(
      'POST',
      '/api/gateway/flows',
      `{"name":"ok","variables":{"v":${deepObjectText(60)}},"nodes":[{"id":"s","name":"Start","type":"delay","config":{"duration":"1ms"}}]}`,
    );
    expect(created.status, JSON.stringify(created.json)).toBe(201);
  });

  it.each(['env', 'inputs'])(
    'refuses a run whose %s nests 5,000 levels with VALIDATION_ERROR and the path',
    async (field) => {
      const created = await send(
        'POST',
        '/api/gateway/flows',
        `{"name":"run-me-${field}","nodes":[{"id":"s","name":"Start","type":"delay","config":{"duration":"1ms"}}]}`,
      );
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      const run = await send(
        'POST',
        `/api/gateway/flows/${created.json.data.id}/run`,
        `{"${field}":{"deep":${deepObjectText(5_000)}}}`,
      );
      expect(run.status).toBe(400);
      expect(run.json.error.code).toBe('VALIDATION_ERROR');
      expect(run.json.error.message).toMatch(new RegExp(`^body\\.${field}\\.deep(\\.a)+: nests deeper than 64 levels`));
    },
  );

  it('refuses the same run nested too deep when the engine is called directly, as every door does', async () => {
    const flow = await engine.flows.create('tenant-a', {
      name: 'direct',
      nodes: [{ id: 's', name: 'Start', type: 'delay', config: { duration: '1ms' } }],
    });
    const env = JSON.parse(deepObjectText(5_000)) as Record<string, unknown>;
    await expect(engine.startExecution({ tenantId: 'tenant-a', flowId: flow.id, env })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/^env(\.a)+: nests deeper/),
    });
  });

  describe('catalog import', () => {
    const importing = (document: string) => send('POST', '/api/gateway/catalog/import', JSON.stringify({ document }));
    const laughs = [
      'openapi: 3.0.0',
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      ...'bcdefghi'
        .split('')
        .map((name, index) => `${name}: &${name} [${Array(9).fill(`*${'abcdefghi'[index]}`).join(',')}]`),
    ].join('\n');

    it.each([
      ['a self-referencing alias in a sequence', 'openapi: 3.0.0\na: &a [*a]\n', /#\/a\/0: refers to itself/],
      [
        'a self-referencing alias in a mapping',
        'openapi: 3.0.0\ninfo: &i { title: *i }\n',
        /#\/info\/title: refers to itself/,
      ],
      ['an alias bomb (billion laughs)', laughs, /Excessive alias count/],
      [
        'YAML nested 100,000 levels deep',
        `openapi: 3.0.0\nx: ${deepArrayText(100_000)}\n`,
        /nests deeper than 128 levels of mappings and sequences \(at line 2\)/,
      ],
      [
        'YAML block sequences nested 1,000 levels deep',
        `openapi: 3.0.0\nx:\n${Array.from({ length: 1_000 }, (_, index) => `${' '.repeat(index + 1)}- `).join('\n')}a\n`,
        /nests deeper than 128 levels/,
      ],
      [
        'YAML nested 200 levels deep',
        `openapi: 3.0.0\nx: ${deepArrayText(200)}\n`,
        /#\/x[/0]+…?: nests deeper than 128 levels/,
      ],
      [
        'JSON nested 100,000 levels deep',
        `{"openapi":"3.0.0","x":${deepArrayText(100_000)}}`,
        /#\/x[/0]+…?: nests deeper than 128 levels/,
      ],
    ])('answers %s with INVALID_OPENAPI in bounded time', async (_name, document, message) => {
      const started = Date.now();
      const imported = await importing(document);
      expect(imported.status).toBe(400);
      expect(imported.json.error.code).toBe('INVALID_OPENAPI');
      expect(imported.json.error.message).toMatch(message);
      // Generous: the point is that it ends, not how fast (a parser that recursed took 0.5 s to fail, or crashed).
      expect(Date.now() - started).toBeLessThan(10_000);
    });
  });
});
