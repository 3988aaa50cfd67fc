/** What the expression autocomplete can offer at a node: names upstream of it and what they hold. */
export interface ExpressionScope {
  /** Nodes upstream of the edited one (expressions may read only those). */
  upstream: readonly { name: string; type: string }[];
  /** Response body fields seen in the last run, by node name (`id`, `items`, `customer.email`). */
  responseFields: Readonly<Record<string, readonly string[]>>;
  flowVars: readonly string[];
  envNames: readonly string[];
}

export interface Completion {
  /** The whole path, e.g. `CreateOrder.response.body.id`. */
  value: string;
  detail: string;
}

export interface CompletionResult {
  /** The span of text a chosen completion replaces. */
  from: number;
  to: number;
  items: Completion[];
}

const MAX_ITEMS = 30;

function candidates(scope: ExpressionScope): Completion[] {
  const all: Completion[] = [];
  const add = (value: string, detail: string) => all.push({ value, detail });
  for (const { name, type } of scope.upstream) {
    if (type === 'for') {
      for (const field of ['item', 'index', 'total', 'isFirst', 'isLast']) add(`${name}.${field}`, 'loop item');
      continue;
    }
    if (type === 'repeat') {
      for (const field of ['iteration', 'index', 'total']) add(`${name}.${field}`, 'loop iteration');
      continue;
    }
    if (type === 'collect') {
      add(`ResponseBinding.${name}.body.items`, 'collected items');
      continue;
    }
    if (type === 'component-webhook') add(`${name}.callbackUrl`, 'callback URL of the wait');
    add(`${name}.statusCode`, 'response status');
    add(`${name}.response.body`, 'response body');
    add(`${name}.response.headers`, 'response headers');
    add(`ResponseBinding.${name}.body`, 'response body');
    for (const field of scope.responseFields[name] ?? []) {
      add(`${name}.response.body.${field}`, 'from the last run');
      add(`ResponseBinding.${name}.body.${field}`, 'from the last run');
    }
  }
  for (const name of scope.flowVars) add(`flowVars.${name}`, 'flow variable');
  for (const name of scope.envNames) add(`env.${name}`, 'environment');
  return all;
}

/**
 * The completions for the caret in `text`, when it is inside an open `{{ … }}`: every path that
 * starts with what is typed so far (case-insensitive), the shortest first. Outside a template,
 * or with nothing that matches, answers undefined.
 * @example expressionCompletions('{{Cre', 5, scope)?.items[0]?.value // 'CreateOrder.statusCode'
 */
export function expressionCompletions(
  text: string,
  caret: number,
  scope: ExpressionScope,
): CompletionResult | undefined {
  const before = text.slice(0, caret);
  const open = before.lastIndexOf('{{');
  if (open === -1 || before.indexOf('}}', open) !== -1) return undefined;
  const typedStart = open + 2 + (/^\s*/.exec(before.slice(open + 2))?.[0].length ?? 0);
  const typed = before.slice(typedStart);
  if (!/^[\w.[\]'"-]*$/.test(typed)) return undefined;
  const lower = typed.toLowerCase();
  const items = candidates(scope)
    .filter((item) => item.value.toLowerCase().startsWith(lower) && item.value !== typed)
    .sort((a, b) => a.value.length - b.value.length || a.value.localeCompare(b.value))
    .slice(0, MAX_ITEMS);
  return items.length === 0 ? undefined : { from: typedStart, to: caret, items };
}

/** The text after choosing `value`: the typed part replaced, the template closed when it was not. */
export function applyCompletion(
  text: string,
  result: CompletionResult,
  value: string,
): { text: string; caret: number } {
  const after = text.slice(result.to);
  const closing = /^\s*}}/.test(after) ? '' : '}}';
  const next = `${text.slice(0, result.from)}${value}${closing}${after}`;
  return { text: next, caret: result.from + value.length + closing.length };
}

/** Field paths of a JSON body, for the autocomplete: `id`, `customer`, `customer.email`, … */
export function fieldPaths(body: unknown, depth = 3, prefix = ''): string[] {
  if (depth === 0 || body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const paths: string[] = [];
  for (const [key, value] of Object.entries(body as Record<string, unknown>).slice(0, 50)) {
    if (!/^[A-Za-z_$][\w$]*$/.test(key)) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    paths.push(path, ...fieldPaths(value, depth - 1, path));
  }
  return paths;
}
