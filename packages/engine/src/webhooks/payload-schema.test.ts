import { Ajv } from 'ajv';
import { describe, expect, it, vi } from 'vitest';
import { SvcError } from '../errors.js';
import {
  checkPayloadSchema,
  createPayloadValidator,
  MAX_EXPANDED_SUBSCHEMAS,
  MAX_PAYLOAD_PROBLEMS,
  MAX_PAYLOAD_SCHEMA_BYTES,
} from './payload-schema.js';
import { MAX_FORMAT_INPUT_LENGTH } from './payload-formats.js';

const orderSchema = {
  type: 'object',
  required: ['orderId', 'status', 'lines'],
  additionalProperties: false,
  properties: {
    orderId: { type: 'string', pattern: '^ord_[0-9a-z]+$' },
    status: { enum: ['PENDING', 'PAID'] },
    email: { type: 'string', format: 'email' },
    paidAt: { type: 'string', format: 'date-time' },
    lines: {
      type: 'array',
      minItems: 1,
      items: { type: 'object', required: ['sku'], properties: { sku: { type: 'string' }, qty: { type: 'integer' } } },
    },
  },
};

/** Milliseconds `work` holds the thread. */
function timed(work: () => void): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

describe('createPayloadValidator', () => {
  const payloads = createPayloadValidator();

  it('answers [] for a valid body', () => {
    const body = { orderId: 'ord_42', status: 'PAID', email: 'a@example.com', lines: [{ sku: 'A', qty: 1 }] };
    expect(payloads.check(orderSchema, body)).toEqual([]);
  });

  it('answers every problem at once, each with its JSON Pointer', () => {
    const problems = payloads.check(orderSchema, {
      orderId: 'ORD-42',
      status: 'LOST',
      email: 'not an address',
      paidAt: 'yesterday',
      lines: [{ qty: 1.5 }],
      extra: true,
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: '/orderId', message: 'must match pattern "^ord_[0-9a-z]+$"' },
        { path: '/status', message: 'must be equal to one of the allowed values: "PENDING", "PAID"' },
        { path: '/email', message: 'must match format "email"' },
        { path: '/paidAt', message: 'must match format "date-time"' },
        { path: '/lines/0/sku', message: 'is required' },
        { path: '/lines/0/qty', message: 'must be integer' },
        { path: '/extra', message: 'is not an allowed property' },
      ]),
    );
    expect(problems).toHaveLength(7);
  });

  it('points at the whole body with "" and escapes ~ and / in names', () => {
    expect(payloads.check({ type: 'object' }, [])).toEqual([{ path: '', message: 'must be object' }]);
    expect(payloads.check({ required: ['a/b~c'] }, {})).toEqual([{ path: '/a~1b~0c', message: 'is required' }]);
  });

  it('compiles two patterns of one schema each on its own', () => {
    const schema = { properties: { a: { pattern: '^a+$' }, b: { pattern: '^b+$' } } };
    expect(payloads.check(schema, { a: 'aaa', b: 'bbb' })).toEqual([]);
    expect(payloads.check(schema, { a: 'bbb', b: 'aaa' }).map((problem) => problem.path)).toEqual(['/a', '/b']);
  });

  it('matches `^(a+)+$` against "aaaa…!" in linear time (no catastrophic backtracking)', () => {
    const schema = { type: 'string', pattern: '^(a+)+$' };
    // A backtracking engine takes seconds at 30 characters and doubles with each one more.
    const evil = 'a'.repeat(100_000) + '!';
    let problems: unknown;
    const ms = timed(() => (problems = payloads.check(schema, evil)));
    expect(problems).toEqual([{ path: '', message: 'must match pattern "^(a+)+$"' }]);
    expect(payloads.check(schema, 'a'.repeat(1000))).toEqual([]);
    expect(ms).toBeLessThan(1_000);
  });

  it('applies patternProperties on the linear engine too', () => {
    const schema = { patternProperties: { '^(x+x+)+y$': { type: 'number' } } };
    const key = 'x'.repeat(50_000);
    const ms = timed(() => expect(payloads.check(schema, { [key]: 'text', [`${key}y`]: 'text' })).toHaveLength(1));
    expect(ms).toBeLessThan(1_000);
  });

  it('refuses a format check on text longer than the bound without running it', () => {
    const schema = { type: 'string', format: 'uri' };
    expect(payloads.check(schema, `https://example.com/${'a'.repeat(100)}`)).toEqual([]);
    const long = `https://example.com/${'a'.repeat(MAX_FORMAT_INPUT_LENGTH)}`;
    expect(payloads.check(schema, long)).toEqual([{ path: '', message: 'must match format "uri"' }]);
  });

  it('checks uniqueItems of 20,000 distinct objects in linear time', () => {
    const schema = { type: 'array', uniqueItems: true };
    const items = Array.from({ length: 20_000 }, (_, index) => ({ id: index, tags: [index % 7] }));
    const ms = timed(() => expect(payloads.check(schema, items)).toEqual([]));
    expect(ms).toBeLessThan(1_000);
    const withDuplicate = [...items, { tags: [3], id: 3 }];
    expect(payloads.check(schema, withDuplicate)).toEqual([
      { path: '', message: 'must NOT have duplicate items (items ## 3 and 20000 are identical)' },
    ]);
  });

  it('answers at most MAX_PAYLOAD_PROBLEMS problems and counts the rest', () => {
    const problems = payloads.check({ type: 'array', items: { type: 'string' } }, new Array(250).fill(1));
    expect(problems).toHaveLength(MAX_PAYLOAD_PROBLEMS);
    expect(problems.at(-1)!.message).toBe('must be string (and 150 more problems not listed)');
  });

  it('answers a body nested too deep as one problem instead of walking it', () => {
    let body: unknown = 1;
    for (let depth = 0; depth < 10_000; depth += 1) body = [body];
    const problems = payloads.check({ type: 'array', uniqueItems: true }, body);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toBe('nests deeper than 64 levels');
  });

  it('throws VALIDATION_ERROR with the problems for a schema that does not check', () => {
    let error: unknown;
    try {
      payloads.check({ properties: { id: { pattern: '(?=a)b' } } }, {});
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SvcError);
    expect((error as SvcError).code).toBe('VALIDATION_ERROR');
    expect((error as SvcError).details).toEqual({
      problems: [expect.objectContaining({ path: '/properties/id/pattern' })],
    });
  });

  it('compiles each distinct schema once and keeps only a bounded number', () => {
    const compile = vi.spyOn(Ajv.prototype, 'compile');
    try {
      const small = createPayloadValidator({ maxCachedSchemas: 4 });
      const schema = { type: 'object', properties: { n: { type: 'number' } } };
      for (let round = 0; round < 200; round += 1) expect(small.check({ ...schema }, { n: round })).toEqual([]);
      // Once to check the schema, once to compile it for payloads: not once per check.
      expect(compile).toHaveBeenCalledTimes(2);
      for (let index = 0; index < 50; index += 1) {
        expect(small.check({ const: index }, index)).toEqual([]);
        expect(small.check({ const: index }, -1)).toEqual([{ path: '', message: 'must be equal to constant' }]);
      }
      expect(compile).toHaveBeenCalledTimes(2 + 50 * 2);
      // Ajv's own cache (keyed by schema object) is emptied after each compile: only the bounded map holds them.
      for (const ajv of new Set(compile.mock.contexts)) {
        expect((ajv as unknown as { _cache: Map<unknown, unknown> })._cache.size).toBeLessThanOrEqual(1);
      }
      small.check(schema, { n: 1 });
      expect(compile).toHaveBeenCalledTimes(2 + 50 * 2 + 2);
    } finally {
      compile.mockRestore();
    }
  });
});

describe('checkPayloadSchema', () => {
  it('accepts a draft-07 schema with definitions, local $refs, formats and extensions', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: 'https://example.com/order.json',
      title: 'Order',
      definitions: { money: { type: 'number', minimum: 0 } },
      type: 'object',
      properties: { total: { $ref: '#/definitions/money' }, at: { type: 'string', format: 'date-time' } },
      'x-owner': 'billing',
      example: { total: 1 },
    };
    expect(checkPayloadSchema(schema)).toEqual([]);
    expect(createPayloadValidator().check(schema, { total: -1 })).toEqual([
      { path: '/total', message: 'must be >= 0' },
    ]);
  });

  it('names the place of each problem against the meta-schema', () => {
    const problems = checkPayloadSchema({ properties: { id: { type: 'strnig' }, n: { minLength: -1 } } });
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: '/properties/n/minLength', message: 'must be >= 0' },
        {
          path: '/properties/id/type',
          message: expect.stringContaining('must be equal to one of the allowed values: "array", "boolean"'),
        },
        { path: '/properties/id/type', message: 'must be array' },
      ]),
    );
    // The anyOf that both `type` lines belong to says nothing more.
    expect(problems).toHaveLength(3);
  });

  it('refuses a pattern the linear-time engine cannot run, and one that is no regular expression', () => {
    expect(checkPayloadSchema({ pattern: '^(?=.*\\d).+$' })).toEqual([
      { path: '/pattern', message: expect.stringContaining('is not supported') },
    ]);
    expect(checkPayloadSchema({ pattern: '^(a)\\1$' })[0]!.path).toBe('/pattern');
    expect(checkPayloadSchema({ pattern: '^(?<x>a)\\k<x>$' })[0]!.message).toContain('backreferences');
    expect(checkPayloadSchema({ patternProperties: { '^(?!x)': {} } })).toEqual([
      { path: '/patternProperties/^(?!x)', message: expect.stringContaining('linear-time engine') },
    ]);
    expect(checkPayloadSchema({ pattern: '(' })[0]!.path).toBe('/pattern');
  });

  it('accepts a classic evil pattern, since it runs in linear time here', () => {
    expect(checkPayloadSchema({ type: 'string', pattern: '^(a+)+$' })).toEqual([]);
  });

  it('refuses unknown keywords and formats, naming them', () => {
    expect(checkPayloadSchema({ properties: { a: { requird: true, format: 'e-mail' } } })).toEqual([
      { path: '/properties/a/requird', message: 'unknown keyword "requird" (a typo? extensions are named x-…)' },
      {
        path: '/properties/a/format',
        message: expect.stringContaining('unknown format "e-mail"; known formats: date'),
      },
    ]);
  });

  it('does not mistake data for keywords (const, enum, default)', () => {
    expect(checkPayloadSchema({ const: { pattern: '(?=x)', requird: 1 }, default: { $ref: '#/nowhere' } })).toEqual([]);
  });

  it('refuses a $ref that points outside the schema or at nothing', () => {
    expect(checkPayloadSchema({ properties: { a: { $ref: 'https://example.com/s.json' } } })).toEqual([
      { path: '/properties/a/$ref', message: expect.stringContaining('nothing is fetched') },
    ]);
    expect(checkPayloadSchema({ $ref: '#/definitions/missing' })[0]!.path).toBe('/$ref');
  });

  it('refuses a recursive schema', () => {
    const tree = { type: 'object', properties: { children: { type: 'array', items: { $ref: '#' } } } };
    expect(checkPayloadSchema(tree)).toEqual([
      { path: '/properties/children/items/$ref', message: expect.stringContaining('recursive payload schemas') },
    ]);
    const mutual = { definitions: { a: { $ref: '#/definitions/b' }, b: { items: { $ref: '#/definitions/a' } } } };
    expect(checkPayloadSchema(mutual)[0]!.message).toContain('leads back');
  });

  it('refuses $refs that double at each level', () => {
    const definitions: Record<string, unknown> = { d0: { type: 'string' } };
    for (let level = 1; level <= 20; level += 1) {
      definitions[`d${level}`] = {
        anyOf: [{ $ref: `#/definitions/d${level - 1}` }, { $ref: `#/definitions/d${level - 1}` }],
      };
    }
    const problems = checkPayloadSchema({ definitions, $ref: '#/definitions/d20' });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toContain(`expands to more than ${MAX_EXPANDED_SUBSCHEMAS} subschemas`);
  });

  it('refuses schemas that are too large or too deep, and another draft', () => {
    const big = { enum: Array.from({ length: 10_000 }, (_, index) => `value-${index}`) };
    expect(checkPayloadSchema(big)).toEqual([
      { path: '', message: expect.stringContaining(`a payload schema holds at most ${MAX_PAYLOAD_SCHEMA_BYTES}`) },
    ]);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 20; level += 1) deep = { properties: { a: deep } };
    expect(checkPayloadSchema(deep)[0]!.message).toBe('nests deeper than 32 levels');
    expect(checkPayloadSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema' })).toEqual([
      { path: '/$schema', message: expect.stringContaining('draft-07') },
    ]);
    expect(checkPayloadSchema({ properties: { a: { $id: 'x' } } })).toEqual([
      { path: '/properties/a/$id', message: 'only the root of a payload schema may have an $id' },
    ]);
  });
});
