export type JsonPath = (string | number)[];

/*
 * The walkers below keep their own stack rather than recursing: a JSON value from outside (a
 * response body, a YAML document) may nest deeper than the call stack goes, and a walker must
 * not be the place where that fails. They visit in document order, as recursion would, and a
 * path is built only for the strings visited (from links to the parent), so a value nested n
 * deep costs n steps, not n².
 */

/** How a value was reached: its key and the link of its container. */
interface PathLink {
  readonly parent: PathLink | undefined;
  readonly key: string | number;
}

function pathFrom(root: JsonPath, link: PathLink | undefined): JsonPath {
  const tail: (string | number)[] = [];
  for (let at = link; at !== undefined; at = at.parent) tail.push(at.key);
  return [...root, ...tail.reverse()];
}

function entriesOf(value: object): [string | number, unknown][] {
  return Array.isArray(value) ? value.map((element, index) => [index, element]) : Object.entries(value);
}

/** Calls `visit` for every string inside a JSON value, with its path. */
export function walkStrings(value: unknown, visit: (text: string, path: JsonPath) => void, path: JsonPath = []): void {
  const stack: { value: unknown; link: PathLink | undefined }[] = [{ value, link: undefined }];
  while (stack.length > 0) {
    const { value: current, link } = stack.pop()!;
    if (typeof current === 'string') {
      visit(current, pathFrom(path, link));
    } else if (current !== null && typeof current === 'object') {
      const entries = entriesOf(current);
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, element] = entries[index]!;
        stack.push({ value: element, link: { parent: link, key } });
      }
    }
  }
}

/** Sets an own property, also for the key `__proto__` (which plain assignment would treat as the prototype). */
function setOwn(target: Record<string, unknown>, key: string, element: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value: element, enumerable: true, writable: true, configurable: true });
  else target[key] = element;
}

/** A copy of a JSON value with every string passed through `map`; `path` is built only when `withPaths`. */
function copyMappingStrings(
  value: unknown,
  map: (text: string, path: JsonPath) => string,
  root: JsonPath,
  withPaths: boolean,
): unknown {
  const copy = (current: unknown, link: PathLink | undefined): unknown => {
    if (typeof current === 'string') return map(current, withPaths ? pathFrom(root, link) : root);
    if (Array.isArray(current)) return new Array<unknown>(current.length);
    if (current !== null && typeof current === 'object') return {};
    return current;
  };
  const result = copy(value, undefined);
  if (result === null || typeof result !== 'object') return result;
  // Each task fills one slot of a copied container from the same slot of its source.
  const stack: { source: unknown; target: unknown; link: PathLink }[] = [];
  const pushChildren = (source: object, target: unknown, link: PathLink | undefined) => {
    const entries = entriesOf(source);
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [key, element] = entries[index]!;
      stack.push({ source: element, target, link: { parent: link, key } });
    }
  };
  pushChildren(value as object, result, undefined);
  while (stack.length > 0) {
    const { source, target, link } = stack.pop()!;
    const copied = copy(source, link);
    if (Array.isArray(target)) target[link.key as number] = copied;
    else setOwn(target as Record<string, unknown>, String(link.key), copied);
    if (copied !== null && typeof copied === 'object') pushChildren(source as object, copied, link);
  }
  return result;
}

/** A copy of a JSON value with every string passed through `map` (the input is not changed). */
export function mapStrings(
  value: unknown,
  map: (text: string, path: JsonPath) => string,
  path: JsonPath = [],
): unknown {
  return copyMappingStrings(value, map, path, true);
}

/** `mapStrings` without the paths, for the hot paths that do not need them (redacting a trace). */
export function mapStringsOnly(value: unknown, map: (text: string) => string): unknown {
  return copyMappingStrings(value, map, [], false);
}

/** `['nodes', 2, 'config', 'url']` → `nodes[2].config.url`. */
export function formatJsonPath(path: readonly (string | number | symbol)[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment))
      text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(String(segment))}]`;
  }
  return text;
}
