import type { NeededInput } from './endpoint-profile.js';

/**
 * Whether a value the requirement gives can fill an input as it is: a number fills a numeric or
 * an id-like input, an identifier (`a3f9…`, `b-1942`) any text input, and a plain name (`priya`,
 * `Middlemarch`) only an input that takes a name, not an id (`book Middlemarch` must be looked up first).
 */
export function valueFits(value: string, need: NeededInput): boolean {
  const type = (need.schema as { type?: unknown } | undefined)?.type;
  const numeric = /^\d+(\.\d+)?$/.test(value);
  const identifier = !numeric && !/\s/.test(value) && (/\d/.test(value) || value.length >= 20);
  // `id` described as `Use branch name instead of id` takes a name.
  const takesName = /\b(name|username|slug|handle|login)\b/i.test(need.description);
  const idName = !takesName && (/(^|[_-]|[a-z])(id|ids|uuid|guid)$/i.test(need.name) || /^(id|ids)$/i.test(need.name));
  if (type === 'integer' || type === 'number') return numeric;
  if (numeric) return !/name|slug|login|handle/i.test(need.name);
  if (identifier) return true;
  return !idName;
}
