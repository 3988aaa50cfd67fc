import { createRequire } from 'node:module';
import type { LineCounter, Node } from 'yaml';

type YamlPackage = typeof import('yaml');
let yamlPackage: YamlPackage | undefined;

/**
 * The `yaml` package (it keeps where each value is written), loaded when a first problem is
 * located: flow files are read with js-yaml, and a command whose files are valid never needs it.
 */
function yaml(): YamlPackage {
  yamlPackage ??= createRequire(import.meta.url)('yaml') as YamlPackage;
  return yamlPackage;
}

/**
 * Splits a path as `formatJsonPath` writes it (`nodes[2].config["x-api-key"]`) into its segments;
 * undefined for text that is not such a path.
 * @example parseJsonPath('flows[1].name'); // ['flows', 1, 'name']
 */
export function parseJsonPath(path: string): (string | number)[] | undefined {
  const segments: (string | number)[] = [];
  const pattern = /(?:^|\.)([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  let at = 0;
  while (at < path.length) {
    pattern.lastIndex = at;
    const match = pattern.exec(path);
    if (match === null) return undefined;
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else segments.push(JSON.parse(match[3]!) as string);
    at = pattern.lastIndex;
  }
  return segments;
}

/**
 * Answers the line (1-based) where a JSON path of a YAML or JSON file's value is written: the line
 * of the key of an object's field, of an array's item; for a path that goes past what the file
 * holds (a required field that is missing), the line of the deepest part that is there. Meant for
 * text that parsed already (the file's problems are being reported), so it parses once, lazily.
 * @example
 * const lineOf = createLineLocator('name: smoke\nflows:\n  - a.yaml\n');
 * lineOf('flows[0]'); // 3
 */
export function createLineLocator(text: string): (path: string) => number | undefined {
  let parsed: { contents: Node | null; lines: LineCounter } | undefined;
  return (path) => {
    const segments = parseJsonPath(path);
    if (segments === undefined) return undefined;
    const { isMap, isSeq, LineCounter: Lines, parseDocument } = yaml();
    if (parsed === undefined) {
      const lines = new Lines();
      // Aliases are not followed: a path is located where it is written.
      const document = parseDocument(text, { lineCounter: lines, keepSourceTokens: false, uniqueKeys: false });
      parsed = { contents: (document.contents as Node | null) ?? null, lines };
    }
    let node: Node | null = parsed.contents;
    let offset = node?.range?.[0];
    for (const segment of segments) {
      if (isMap(node)) {
        const pair = node.items.find((item) => {
          const key = item.key as { value?: unknown } | null;
          return key !== null && String(key.value ?? key) === String(segment);
        });
        if (pair === undefined) break;
        offset = (pair.key as Node | null)?.range?.[0] ?? offset;
        node = (pair.value as Node | null) ?? null;
      } else if (isSeq(node) && typeof segment === 'number') {
        const item = node.items[segment] as Node | undefined;
        if (item === undefined) break;
        offset = item.range?.[0] ?? offset;
        node = item;
      } else {
        break;
      }
    }
    return offset === undefined ? undefined : parsed.lines.linePos(offset).line;
  };
}
