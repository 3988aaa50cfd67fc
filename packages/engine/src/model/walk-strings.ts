export type JsonPath = (string | number)[];

/** Calls `visit` for every string inside a JSON value, with its path. */
export function walkStrings(value: unknown, visit: (text: string, path: JsonPath) => void, path: JsonPath = []): void {
  if (typeof value === 'string') {
    visit(value, path);
  } else if (Array.isArray(value)) {
    value.forEach((element, index) => walkStrings(element, visit, [...path, index]));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, element] of Object.entries(value)) walkStrings(element, visit, [...path, key]);
  }
}

/** A copy of a JSON value with every string passed through `map` (the input is not changed). */
export function mapStrings(value: unknown, map: (text: string, path: JsonPath) => string, path: JsonPath = []): unknown {
  if (typeof value === 'string') return map(value, path);
  if (Array.isArray(value)) return value.map((element, index) => mapStrings(element, map, [...path, index]));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, element]) => [key, mapStrings(element, map, [...path, key])]));
  }
  return value;
}

/** `['nodes', 2, 'config', 'url']` → `nodes[2].config.url`. */
export function formatJsonPath(path: readonly (string | number | symbol)[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(String(segment))}]`;
  }
  return text;
}
