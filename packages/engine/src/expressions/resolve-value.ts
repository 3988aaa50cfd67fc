import { BoundedMap } from '../bounded-map.js';
import { evaluateTemplate } from './evaluate-template.js';
import { parseTemplate } from './parse-template.js';
import type { ExpressionScope, Template } from './types.js';

export interface TemplateResolver {
  /** A copy of `value` with every string that holds `{{…}}` evaluated; parts without templates are shared, not copied. */
  resolve(value: unknown, scope: ExpressionScope): unknown;
  /** Parses through the cache: the same source answers the same `Template` object. */
  parse(source: string): Template;
}

export interface TemplateResolverOptions {
  /** About this many parsed templates are kept, the most recently used. */
  maxCachedTemplates?: number;
}

/** True when a string holds a `{{`, i.e. would be parsed as a template. */
export function hasTemplate(value: string): boolean {
  return value.includes('{{');
}

/**
 * Resolves templates inside any JSON value, parsing each distinct template source once.
 * Runs on every node run, so values without templates come back as the same objects.
 *
 * @example
 * const resolver = createTemplateResolver();
 * resolver.resolve({ url: '{{env.baseUrl}}/orders', method: 'POST' }, scope)
 * // { url: 'https://api.example.com/orders', method: 'POST' }
 */
export function createTemplateResolver(options: TemplateResolverOptions = {}): TemplateResolver {
  const maxCached = options.maxCachedTemplates ?? 10_000;
  const cache = new BoundedMap<string, Template>(maxCached);

  function parse(source: string): Template {
    const cached = cache.get(source);
    if (cached !== undefined) return cached;
    const template = parseTemplate(source);
    cache.set(source, template);
    return template;
  }

  function resolve(value: unknown, scope: ExpressionScope): unknown {
    if (typeof value === 'string') return value.includes('{{') ? evaluateTemplate(parse(value), scope) : value;
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) return resolveArray(value, scope);
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return value;
    return resolveObject(value as Record<string, unknown>, scope);
  }

  function resolveArray(array: readonly unknown[], scope: ExpressionScope): unknown[] {
    let copy: unknown[] | undefined;
    for (let i = 0; i < array.length; i++) {
      const item = array[i];
      const resolved = resolve(item, scope);
      if (copy === undefined) {
        if (resolved === item) continue;
        copy = array.slice(0, i);
      }
      copy.push(resolved);
    }
    return copy ?? (array as unknown[]);
  }

  function resolveObject(object: Record<string, unknown>, scope: ExpressionScope): Record<string, unknown> {
    let copy: Record<string, unknown> | undefined;
    const keys = Object.keys(object);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const item = object[key];
      const resolved = resolve(item, scope);
      if (copy === undefined) {
        if (resolved === item) continue;
        copy = {};
        for (let j = 0; j < i; j++) setOwn(copy, keys[j]!, object[keys[j]!]);
      }
      setOwn(copy, key, resolved);
    }
    return copy ?? object;
  }

  return { resolve, parse };
}

/** Plain assignment of `__proto__` would set the prototype instead of a key (JSON.parse makes such keys). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
