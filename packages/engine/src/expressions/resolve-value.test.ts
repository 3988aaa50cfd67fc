import { describe, expect, it } from 'vitest';
import { createTemplateResolver, hasTemplate } from './resolve-value.js';
import type { ExpressionScope } from './types.js';

const scope: ExpressionScope = {
  lookup: (root) =>
    ({
      env: { baseUrl: 'https://api.test' },
      flowVars: { region: 'eu', qty: 2, ids: [1, 2] },
    })[root],
  responseBinding: (name) => (name === 'Create' ? { body: { id: 'ord_1' } } : undefined),
};

describe('hasTemplate', () => {
  it('is true only for strings holding "{{"', () => {
    expect(hasTemplate('{{a.b}}')).toBe(true);
    expect(hasTemplate('x {{ a.b }} y')).toBe(true);
    expect(hasTemplate('plain { text }')).toBe(false);
    expect(hasTemplate('')).toBe(false);
  });
});

describe('createTemplateResolver', () => {
  it('resolves templates deep inside objects and arrays', () => {
    const resolver = createTemplateResolver();
    const config = {
      method: 'POST',
      url: '{{env.baseUrl}}/orders/{{ResponseBinding.Create.body.id}}',
      body: {
        region: '{{flowVars.region}}',
        lines: [{ qty: '{{flowVars.qty}}' }, 'fixed', 7, null, true],
        ids: '{{flowVars.ids}}',
      },
    };
    expect(resolver.resolve(config, scope)).toEqual({
      method: 'POST',
      url: 'https://api.test/orders/ord_1',
      body: { region: 'eu', lines: [{ qty: 2 }, 'fixed', 7, null, true], ids: [1, 2] },
    });
  });

  it('does not change its input', () => {
    const resolver = createTemplateResolver();
    const config = { a: ['{{flowVars.region}}'], b: { c: '{{flowVars.qty}}' } };
    const before = structuredClone(config);
    resolver.resolve(config, scope);
    expect(config).toEqual(before);
  });

  it('returns values without templates as the same objects', () => {
    const resolver = createTemplateResolver();
    const untouched = { headers: { accept: 'application/json' }, list: [1, 'two', { three: 3 }] };
    const config = { url: '{{env.baseUrl}}', untouched };
    const resolved = resolver.resolve(config, scope) as typeof config;
    expect(resolved).not.toBe(config);
    expect(resolved.untouched).toBe(untouched);
    expect(resolver.resolve(untouched, scope)).toBe(untouched);
    expect(resolver.resolve('plain', scope)).toBe('plain');
    expect(resolver.resolve(42, scope)).toBe(42);
  });

  it('keeps a "__proto__" key as data when copying', () => {
    const resolver = createTemplateResolver();
    const config = JSON.parse('{"__proto__": {"x": 1}, "url": "{{env.baseUrl}}"}') as Record<string, unknown>;
    const resolved = resolver.resolve(config, scope) as Record<string, unknown>;
    expect(Object.getPrototypeOf(resolved)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(resolved, '__proto__')?.value).toEqual({ x: 1 });
    expect(resolved['url']).toBe('https://api.test');
  });

  it('parses each template source once', () => {
    const resolver = createTemplateResolver();
    const first = resolver.parse('{{env.baseUrl}}/a');
    expect(resolver.parse('{{env.baseUrl}}/a')).toBe(first);
    expect(resolver.parse('{{env.baseUrl}}/b')).not.toBe(first);
  });

  it('reuses the cached template when resolving the same string again', () => {
    const resolver = createTemplateResolver();
    resolver.resolve({ a: '{{flowVars.region}}' }, scope);
    const cached = resolver.parse('{{flowVars.region}}');
    resolver.resolve(['{{flowVars.region}}'], scope);
    expect(resolver.parse('{{flowVars.region}}')).toBe(cached);
  });

  it('drops the oldest templates past its bound', () => {
    const resolver = createTemplateResolver({ maxCachedTemplates: 2 });
    const a = resolver.parse('{{a.x}}');
    const b = resolver.parse('{{b.x}}');
    resolver.parse('{{c.x}}');
    expect(resolver.parse('{{b.x}}')).toBe(b);
    expect(resolver.parse('{{a.x}}')).not.toBe(a);
  });

  it('keeps separate caches per resolver', () => {
    expect(createTemplateResolver().parse('{{a.x}}')).not.toBe(createTemplateResolver().parse('{{a.x}}'));
  });

  it('lets a syntax error through', () => {
    expect(() => createTemplateResolver().resolve({ url: '{{ env. }}' }, scope)).toThrow(
      expect.objectContaining({ code: 'EXPRESSION_SYNTAX' }),
    );
  });
});
