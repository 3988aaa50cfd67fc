import { extractEndpoints, parseOpenApiDocument } from '@svc/discovery';
import { SvcError } from '@svc/engine';
import { describe, expect, it } from 'vitest';

function problemOf(text: string): { code: string; path: string; message: string; ms: number } {
  const started = Date.now();
  try {
    parseOpenApiDocument(text, 'hostile.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(SvcError);
    const problem = ((error as SvcError).details as { problems: { path: string; message: string }[] }).problems[0]!;
    return { code: (error as SvcError).code, ...problem, ms: Date.now() - started };
  }
  throw new Error('expected the document to be refused');
}

const valid =
  'openapi: 3.0.0\ninfo: { title: Shop, version: "1" }\npaths:\n  /orders:\n    get:\n      responses: { "200": { description: ok } }\n';

describe('OpenAPI documents that would exhaust a parser or a walk', () => {
  it('refuses a YAML alias inside its own anchor, in a sequence and in a mapping', () => {
    expect(problemOf('openapi: 3.0.0\na: &a [*a]\n')).toMatchObject({
      code: 'INVALID_OPENAPI',
      path: '#/a/0',
      message: expect.stringContaining('refers to itself'),
    });
    expect(problemOf(`${valid}x-loop: &l { next: *l }\n`)).toMatchObject({
      code: 'INVALID_OPENAPI',
      path: '#/x-loop/next',
    });
  });

  it('refuses aliases that expand exponentially (billion laughs)', () => {
    const lines = ['openapi: 3.0.0', 'l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let level = 1; level < 10; level += 1)
      lines.push(
        `l${level}: &l${level} [${Array(10)
          .fill(`*l${level - 1}`)
          .join(', ')}]`,
      );
    const problem = problemOf(lines.join('\n'));
    expect(problem.code).toBe('INVALID_OPENAPI');
    expect(problem.message).toMatch(/alias/i);
  });

  it('refuses nesting past 128 levels in YAML and JSON, with the place, and text nested past the parser before parsing', () => {
    expect(problemOf(`openapi: 3.0.0\nx: ${'['.repeat(129)}${']'.repeat(129)}\n`)).toMatchObject({
      code: 'INVALID_OPENAPI',
      path: `#/x${'/0'.repeat(128)}`.slice(0, 200) + '…',
    });
    expect(problemOf(`{"openapi":"3.0.0","x":${'['.repeat(200_000)}${']'.repeat(200_000)}}`)).toMatchObject({
      code: 'INVALID_OPENAPI',
      message: 'nests deeper than 128 levels of mappings and sequences',
    });
    const huge = problemOf(`openapi: 3.0.0\nx: ${'['.repeat(1_000_000)}\n`);
    expect(huge).toMatchObject({
      code: 'INVALID_OPENAPI',
      path: '#',
      message: 'nests deeper than 128 levels of mappings and sequences (at line 2)',
    });
    // Bounded: the scan refuses it before the parser, which crashed the process on this input.
    expect(huge.ms).toBeLessThan(5_000);
  });

  it('refuses references with keys beside "$ref" that would copy a wide target past 1,000,000 keys, at the reference', () => {
    // Such a reference cannot share its target: 700 of them copy its 1,500 keys each.
    const wide = Object.fromEntries(Array.from({ length: 1_500 }, (_, i) => [`x-k${i}`, i]));
    const properties = Object.fromEntries(
      Array.from({ length: 700 }, (_, i) => [`w${i}`, { $ref: '#/components/schemas/Wide', description: 'd' }]),
    );
    const text = JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'Siblings', version: '1' },
      paths: {},
      components: { schemas: { Wide: { type: 'object', ...wide }, W: { type: 'object', properties } } },
    });
    expect(text.length).toBeLessThan(100_000);
    expect(problemOf(text)).toMatchObject({
      code: 'INVALID_OPENAPI',
      path: expect.stringMatching(/^#\/components\/schemas\/W\/properties\/w\d+$/),
      message: expect.stringContaining('1000000 keys'),
    });
  });

  it('still reads a document nested within the limit', () => {
    let schema = '{ type: string }';
    for (let level = 0; level < 40; level += 1) schema = `{ type: object, properties: { p: ${schema} } }`;
    const parsed = parseOpenApiDocument(
      `${valid.replace('{ description: ok }', `{ description: ok, content: { application/json: { schema: ${schema} } } }`)}`,
    );
    expect(parsed.title).toBe('Shop');
  });
});

describe('OpenAPI documents with a "__proto__" key', () => {
  const operation = (operationId: string) => ({ operationId, responses: { '200': { description: 'ok' } } });
  const text = (version: 'openapi' | 'swagger') =>
    `{${version === 'openapi' ? '"openapi":"3.0.3"' : '"swagger":"2.0"'},"info":{"title":"t","version":"1"},"paths":{"/a":{"__proto__":${JSON.stringify(
      { get: operation('hidden') },
    )},"post":${JSON.stringify(operation('visible'))}}},"components":{"schemas":{"S":{"type":"object","properties":{"__proto__":{"type":"string"},"name":{"type":"string"}}}}}}`;

  for (const version of ['openapi', 'swagger'] as const) {
    it(`keeps it as data, never as the prototype of what it is read into (${version})`, () => {
      const parsed = parseOpenApiDocument(text(version), 'proto.json');
      const endpoints = extractEndpoints(parsed.resolved);
      expect(endpoints.map((endpoint) => endpoint.id)).toEqual(['visible']);
      const paths = (parsed.resolved as { paths: Record<string, object> }).paths;
      expect(Object.getPrototypeOf(paths['/a']!)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).get).toBeUndefined();
    });
  }

  it("keeps a schema's property named so when an endpoint's schemas are copied to their budget", () => {
    const schema = '{"type":"object","properties":{"__proto__":{"type":"string"},"name":{"type":"string"}}}';
    const [endpoint] = extractEndpoints(
      parseOpenApiDocument(
        `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/b":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":${schema}}}}}}}}}`,
      ).resolved,
    );
    const properties = (endpoint!.responses['200']!.schema as { properties: Record<string, unknown> }).properties;
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.keys(properties)).toEqual(['__proto__', 'name']);
  });
});

describe('OpenAPI documents whose references nest deeper than the text', () => {
  it('refuses a chain of $refs that each nest further, as a problem of the document, not a stack overflow', () => {
    const nest = (inner: object, depth: number): object => {
      let schema = inner;
      for (let level = 0; level < depth; level += 1) schema = { type: 'object', properties: { p: schema } };
      return schema;
    };
    const schemas: Record<string, object> = {};
    for (let index = 0; index < 200; index += 1) {
      schemas[`S${index}`] = nest(
        index === 199 ? { type: 'string' } : { $ref: `#/components/schemas/S${index + 1}` },
        24,
      );
    }
    const content = { 'application/json': { schema: { $ref: '#/components/schemas/S0' } } };
    const text = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'deep', version: '1' },
      paths: { '/a': { get: { responses: { '200': { description: 'ok', content } } } } },
      components: { schemas },
    });
    expect(problemOf(text)).toMatchObject({
      code: 'INVALID_OPENAPI',
      path: '#',
      message: expect.stringContaining('nested too deep to read'),
    });
  });
});
