import { isIdentifier } from './parse-template.js';
import type { PathExpression, PathSegment } from './types.js';

/**
 * Writes an expression back as canonical source: `.name` where the key is a plain name,
 * `['key']` otherwise, `[0]` for indexes, then `?` and ` ?? default` when present.
 *
 * @example
 * formatPathExpression(parseTemplate("{{ X.headers[\"x-id\"] ?? 'none' }}").parts[0].expression)
 * // "X.headers['x-id'] ?? 'none'"
 */
export function formatPathExpression(expr: PathExpression): string {
  let text = formatPath(expr.root, expr.segments, expr.segments.length);
  if (expr.optional) text += '?';
  if (expr.fallback) text += ` ?? ${formatLiteral(expr.fallback.value)}`;
  return text;
}

/** The root and the first `count` segments, e.g. `Create.response.body` for an error message. */
export function formatPath(root: string, segments: readonly PathSegment[], count: number): string {
  let text = root;
  for (let i = 0; i < count; i++) {
    const segment = segments[i];
    if (segment === undefined) break;
    if (segment.kind === 'index') text += `[${segment.index}]`;
    else if (isIdentifier(segment.key)) text += `.${segment.key}`;
    else text += `[${quote(segment.key)}]`;
  }
  return text;
}

/** Single-quoted, escaping only what the template parser knows how to read back. */
export function quote(text: string, mark: "'" | '"' = "'"): string {
  return `${mark}${text.replace(/\\/g, '\\\\').replace(mark === "'" ? /'/g : /"/g, `\\${mark}`)}${mark}`;
}

function formatLiteral(value: unknown): string {
  return typeof value === 'string' ? quote(value) : (JSON.stringify(value) ?? 'null');
}
