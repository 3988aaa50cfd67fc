import { describe, expect, it } from 'vitest';
import { SvcError } from '../errors.js';
import { evaluateTemplate } from './evaluate-template.js';
import { parseTemplate } from './parse-template.js';
import type { ExpressionScope } from './types.js';

function scopeOf(roots: Record<string, unknown>, bindings: Record<string, unknown> = {}): ExpressionScope {
  return {
    lookup: (root) => (Object.hasOwn(roots, root) ? roots[root] : undefined),
    responseBinding: (name) => (Object.hasOwn(bindings, name) ? bindings[name] : undefined),
  };
}

const createResponse = {
  statusCode: 201,
  headers: { 'x-request-id': 'req-7' },
  body: { id: 'ord_1', total: 120, status: 'NEW' },
};

const scope = scopeOf(
  {
    Create: { response: createResponse, statusCode: 201 },
    flowVars: { region: 'eu', count: 3, flag: false, nothing: null, tags: ['a', 'b'], nested: { a: 1 } },
    env: { baseUrl: 'https://api.test' },
    execution: { id: 'exe_1' },
    forNode: { item: { sku: 'X1', qty: 2 }, index: 0 },
  },
  {
    Create: {
      statusCode: 201,
      headers: { 'x-request-id': 'req-7' },
      body: { items: [{ id: 'it_1' }, { id: 'it_2' }] },
    },
  },
);

function run(source: string, over: ExpressionScope = scope): unknown {
  return evaluateTemplate(parseTemplate(source), over);
}

function unresolved(source: string, over: ExpressionScope = scope): SvcError {
  try {
    run(source, over);
  } catch (error) {
    if (error instanceof SvcError) return error;
    throw error;
  }
  throw new Error(`expected ${source} to fail`);
}

describe('evaluateTemplate', () => {
  describe('reading paths', () => {
    it('reads a node response path', () => {
      expect(run('{{Create.response.body.id}}')).toBe('ord_1');
      expect(run('{{Create.statusCode}}')).toBe(201);
    });

    it('reads ResponseBinding through responseBinding(name)', () => {
      const asked: string[] = [];
      const spy: ExpressionScope = {
        lookup: () => undefined,
        responseBinding: (name) => {
          asked.push(name);
          return { body: { items: [{ id: 'it_1' }] } };
        },
      };
      expect(run('{{ResponseBinding.Create.body.items[0].id}}', spy)).toBe('it_1');
      expect(asked).toEqual(['Create']);
    });

    it('reads a quoted header key', () => {
      expect(run("{{ResponseBinding.Create.headers['x-request-id']}}")).toBe('req-7');
    });

    it('reads flowVars, env, execution and loop context', () => {
      expect(run('{{flowVars.region}}')).toBe('eu');
      expect(run('{{env.baseUrl}}')).toBe('https://api.test');
      expect(run('{{execution.id}}')).toBe('exe_1');
      expect(run('{{forNode.item}}')).toEqual({ sku: 'X1', qty: 2 });
    });

    it('answers a root with no segments as the whole value', () => {
      expect(run('{{env}}')).toEqual({ baseUrl: 'https://api.test' });
    });
  });

  describe('typed value or string', () => {
    it('yields the typed value of a single expression', () => {
      expect(run('{{flowVars.count}}')).toBe(3);
      expect(run('{{ flowVars.flag }}')).toBe(false);
      expect(run('{{flowVars.nothing}}')).toBeNull();
      expect(run('{{flowVars.tags}}')).toEqual(['a', 'b']);
      expect(run('{{flowVars.nested}}')).toEqual({ a: 1 });
    });

    it('answers the very object in the data for a single expression, not a copy', () => {
      const nested = { a: 1 };
      expect(run('{{flowVars.nested}}', scopeOf({ flowVars: { nested } }))).toBe(nested);
    });

    it('yields a string when text surrounds the expression', () => {
      expect(run('n={{flowVars.count}}')).toBe('n=3');
      expect(run(' {{flowVars.count}}')).toBe(' 3');
      expect(run('{{flowVars.flag}}!')).toBe('false!');
      expect(run('{{env.baseUrl}}/orders/{{Create.response.body.id}}')).toBe('https://api.test/orders/ord_1');
    });

    it('JSON-encodes objects and arrays inside text', () => {
      expect(run('tags={{flowVars.tags}} n={{flowVars.nested}}')).toBe('tags=["a","b"] n={"a":1}');
    });

    it('writes null and undefined as empty text', () => {
      expect(run('[{{flowVars.nothing}}]')).toBe('[]');
      expect(run('[{{flowVars.missing?}}]')).toBe('[]');
    });

    it('returns text without expressions unchanged', () => {
      expect(run('no templates here')).toBe('no templates here');
    });
  });

  describe('optional and default', () => {
    it('answers undefined for a missing optional path', () => {
      expect(run('{{ Create.response.body.nick? }}')).toBeUndefined();
      expect(run('{{ Nobody.body? }}')).toBeUndefined();
      expect(run('{{ ResponseBinding.Nobody.body? }}')).toBeUndefined();
    });

    it('answers the value of an optional path that exists', () => {
      expect(run('{{ Create.response.body.id? }}')).toBe('ord_1');
    });

    it('answers the default for a missing path', () => {
      expect(run("{{ Create.response.body.nick ?? 'anon' }}")).toBe('anon');
      expect(run('{{ flowVars.tags[5] ?? 0 }}')).toBe(0);
      expect(run("hi {{ X.nick ?? 'anon' }}")).toBe('hi anon');
    });

    it('answers the default for a null value, not for false or 0', () => {
      expect(run("{{ flowVars.nothing ?? 'dflt' }}")).toBe('dflt');
      expect(run('{{ flowVars.flag ?? true }}')).toBe(false);
      expect(run('{{ forNode.index ?? 9 }}')).toBe(0);
    });
  });

  describe('missing values', () => {
    it('names the missing key and lists the keys that exist', () => {
      const error = unresolved('{{Create.response.body.idd}}');
      expect(error.code).toBe('EXPRESSION_UNRESOLVED');
      expect(error.message).toBe(
        '{{Create.response.body.idd}}: no "idd" in Create.response.body (keys: id, total, status)',
      );
      expect(error.details).toEqual({ expression: 'Create.response.body.idd', missingAt: 'Create.response.body.idd' });
    });

    it('lists at most ten keys', () => {
      const wide = Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`k${i}`, i]));
      const error = unresolved('{{flowVars.wide.zz}}', scopeOf({ flowVars: { wide } }));
      expect(error.message).toBe(
        '{{flowVars.wide.zz}}: no "zz" in flowVars.wide (keys: k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, … 4 more)',
      );
    });

    it('says so when the object has no keys', () => {
      expect(unresolved('{{flowVars.x}}', scopeOf({ flowVars: {} })).message).toBe(
        '{{flowVars.x}}: no "x" in flowVars (it has no keys)',
      );
    });

    it('reports an unknown root', () => {
      const error = unresolved('{{Craete.statusCode}}');
      expect(error.message).toBe('{{Craete.statusCode}}: unknown name "Craete"');
      expect(error.details).toEqual({ expression: 'Craete.statusCode', missingAt: 'Craete' });
    });

    it('reports a node without a response binding', () => {
      const error = unresolved('{{ResponseBinding.Later.body.id}}');
      expect(error.message).toMatch(/^\{\{ResponseBinding\.Later\.body\.id\}\}: no response from "Later"/);
      expect(error.details).toEqual({
        expression: 'ResponseBinding.Later.body.id',
        missingAt: 'ResponseBinding.Later',
      });
    });

    it('reports an index out of range with the length', () => {
      const error = unresolved('{{ResponseBinding.Create.body.items[2].id}}');
      expect(error.message).toBe(
        '{{ResponseBinding.Create.body.items[2].id}}: no index 2 in ResponseBinding.Create.body.items (length 2)',
      );
      expect(error.details).toEqual({
        expression: 'ResponseBinding.Create.body.items[2].id',
        missingAt: 'ResponseBinding.Create.body.items[2]',
      });
    });

    it('reports a key read of a value that is not an object', () => {
      expect(unresolved('{{flowVars.region.code}}').message).toBe(
        '{{flowVars.region.code}}: cannot read "code" of flowVars.region: it is a string ("eu")',
      );
      expect(unresolved('{{flowVars.nothing.code}}').message).toBe(
        '{{flowVars.nothing.code}}: cannot read "code" of flowVars.nothing: it is null',
      );
      expect(unresolved('{{flowVars.tags.length}}').message).toBe(
        '{{flowVars.tags.length}}: cannot read "length" of flowVars.tags: it is an array',
      );
    });

    it('reports an index read of a value that is not an array', () => {
      expect(unresolved('{{flowVars.nested[0]}}').message).toBe(
        '{{flowVars.nested[0]}}: flowVars.nested is an object, not an array',
      );
    });

    it('treats a missing value inside mixed text as an error too', () => {
      expect(unresolved('id={{Create.response.body.idd}}').code).toBe('EXPRESSION_UNRESOLVED');
    });
  });

  describe('reads data only', () => {
    it('never reads inherited properties', () => {
      const inherited = Object.create({ secret: 'from prototype' }) as object;
      expect(unresolved('{{flowVars.o.secret}}', scopeOf({ flowVars: { o: inherited } })).code).toBe(
        'EXPRESSION_UNRESOLVED',
      );
      expect(unresolved('{{flowVars.o.toString}}', scopeOf({ flowVars: { o: {} } })).code).toBe(
        'EXPRESSION_UNRESOLVED',
      );
    });

    it('never calls a getter', () => {
      let called = false;
      const withGetter = {
        get trap() {
          called = true;
          return 'ran';
        },
      };
      expect(unresolved('{{flowVars.o.trap}}', scopeOf({ flowVars: { o: withGetter } })).code).toBe(
        'EXPRESSION_UNRESOLVED',
      );
      expect(called).toBe(false);
    });

    it('never walks into a function', () => {
      const fn = Object.assign(() => 'x', { name2: 'n' });
      expect(unresolved('{{flowVars.f.name2}}', scopeOf({ flowVars: { f: fn } })).message).toMatch(/it is a function$/);
    });

    it('never follows __proto__, constructor or prototype, even in a hand-built template', () => {
      const data = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
      const template = {
        source: 'x',
        single: true,
        parts: [
          {
            kind: 'expression' as const,
            expression: {
              kind: 'path' as const,
              root: 'flowVars',
              segments: [{ kind: 'key' as const, key: '__proto__' }],
              optional: false,
              source: 'flowVars.__proto__',
            },
          },
        ],
      };
      expect(() => evaluateTemplate(template, scopeOf({ flowVars: data }))).toThrow(/no "__proto__" in flowVars/);
    });

    it('returns a string value holding "{{" as it is, without evaluating it', () => {
      const data = scopeOf({ flowVars: { evil: '{{env.secret}}' }, env: { secret: 's3cr3t' } });
      expect(run('{{flowVars.evil}}', data)).toBe('{{env.secret}}');
      expect(run('x {{flowVars.evil}} y', data)).toBe('x {{env.secret}} y');
    });
  });
});
