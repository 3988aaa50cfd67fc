/**
 * The `{{…}}` templates a scaffolded flow writes. A name that is not a plain identifier is read
 * with a quoted key (`{{flowVars['user-id']}}`), which the expression language accepts.
 */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function quoted(text: string, quote: '"' | "'"): string {
  return `${quote}${text.replace(/\\/g, '\\\\').replace(quote === '"' ? /"/g : /'/g, `\\${quote}`)}${quote}`;
}

function member(root: string, name: string): string {
  return IDENTIFIER.test(name) ? `${root}.${name}` : `${root}[${quoted(name, "'")}]`;
}

/** `{{flowVars.customerName}}`; `optional` adds `?`, so a missing value leaves the field out instead of failing. */
export function flowVarTemplate(name: string, options: { optional?: boolean } = {}): string {
  return `{{${member('flowVars', name)}${options.optional ? '?' : ''}}}`;
}

/** `{{env.baseUrl}}`, or `{{env.baseUrl ?? "https://api.example.com"}}` with a default. */
export function envTemplate(name: string, fallback?: string): string {
  return fallback === undefined
    ? `{{${member('env', name)}}}`
    : `{{${member('env', name)} ?? ${quoted(fallback, '"')}}}`;
}

/** `{{ResponseBinding.CreateOrder.body.id}}` from a producer step, a source and a dotted path. */
export function responseBindingTemplate(step: string, source: 'body' | 'headers', path: string): string {
  const segments = parseFieldPath(path);
  let text = `ResponseBinding.${step}.${source}`;
  for (const segment of segments)
    text +=
      typeof segment === 'number'
        ? `[${segment}]`
        : IDENTIFIER.test(segment)
          ? `.${segment}`
          : `[${quoted(segment, "'")}]`;
  return `{{${text}}}`;
}

/**
 * A dotted field path as segments: `items[0].sku` and `items.0.sku` → `['items', 0, 'sku']`.
 * An empty path (or `$`) is the whole value.
 */
export function parseFieldPath(path: string): Array<string | number> {
  const trimmed = path.trim().replace(/^\$\.?/, '');
  if (trimmed === '') return [];
  const segments: Array<string | number> = [];
  for (const part of trimmed.split('.')) {
    const match = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (match === null) {
      segments.push(part);
      continue;
    }
    const [, key = '', indexes = ''] = match;
    if (key !== '') segments.push(/^\d+$/.test(key) ? Number(key) : key);
    for (const index of indexes.matchAll(/\[(\d+)\]/g)) segments.push(Number(index[1]));
  }
  return segments;
}

/** `petstore_auth` → `petstoreAuth`, `X-Partner-Key` → `xPartnerKey`: a readable identifier for an env or input name. */
export function camelIdentifier(text: string, fallback: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '');
  if (words.length === 0) return fallback;
  const joined = words
    .map((word, index) =>
      index === 0 ? word.charAt(0).toLowerCase() + word.slice(1) : word.charAt(0).toUpperCase() + word.slice(1),
    )
    .join('');
  return /^[0-9]/.test(joined) ? `${fallback}${joined.charAt(0).toUpperCase()}${joined.slice(1)}` : joined;
}

/**
 * A value taken from a spec (an example, a default) as it may stand in a flow: strings are read
 * as templates there, so a `{{` in data is broken up (`{ {`) rather than run as an expression.
 */
export function literal(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('{{') ? value.replace(/\{\{/g, '{ {') : value;
  if (Array.isArray(value)) return value.map(literal);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, literal(entry)]));
  return value;
}
