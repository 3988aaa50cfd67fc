import { SvcError } from '../errors.js';
import { quote } from './format-path.js';
import { isIdentifier, scanTemplate } from './parse-template.js';
import { RESERVED_ROOTS, type PathExpression, type Template } from './types.js';

/**
 * Node names a template reads: roots that are not reserved, and the name after `ResponseBinding.`.
 * Each name once, in order of first use.
 *
 * @example
 * templateNodeReferences(parseTemplate('{{Create.statusCode}} {{ResponseBinding.Get.body}} {{flowVars.x}}'))
 * // ['Create', 'Get']
 */
export function templateNodeReferences(
  template: Template,
  /** Expressions that read no node's result (a value that exists before the node runs). */
  skip?: (expression: PathExpression) => boolean,
): string[] {
  const names: string[] = [];
  for (const part of template.parts) {
    if (part.kind !== 'expression') continue;
    if (skip?.(part.expression)) continue;
    const { root, segments } = part.expression;
    let name: string | undefined;
    if (root === 'ResponseBinding') {
      const first = segments[0];
      if (first?.kind === 'key') name = first.key;
    } else if (!RESERVED_ROOTS.has(root)) {
      name = root;
    }
    if (name !== undefined && !names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * Rewrites references to node `from` as `to`: roots equal to `from` and `ResponseBinding.<from>`.
 * Every other character of the source stays as it was. Throws `EXPRESSION_SYNTAX` when the
 * source does not parse, since its references cannot be known.
 *
 * @example
 * renameNodeInTemplate('{{ Create.body.id }} from {{flowVars.Create}}', 'Create', 'CreateOrder')
 * // '{{ CreateOrder.body.id }} from {{flowVars.Create}}'
 */
export function renameNodeInTemplate(source: string, from: string, to: string): string {
  assertRenamable(from, to);
  if (!source.includes(from) || !source.includes('{{')) return source;
  const { template, spans } = scanTemplate(source);
  const edits: { start: number; end: number; text: string }[] = [];
  let index = 0;
  for (const part of template.parts) {
    if (part.kind !== 'expression') continue;
    const span = spans[index++]!;
    const { root, segments } = part.expression;
    if (root === from) {
      edits.push({ start: span.root.start, end: span.root.end, text: to });
    } else if (root === 'ResponseBinding') {
      const first = segments[0];
      const firstSpan = span.segments[0];
      if (first?.kind === 'key' && first.key === from && firstSpan) {
        const text = firstSpan.quote === '' ? to : quote(to, firstSpan.quote);
        edits.push({ start: firstSpan.start, end: firstSpan.end, text });
      }
    }
  }
  return applyEdits(source, edits);
}

/** Edits must be in source order and not overlap. */
export function applyEdits(source: string, edits: readonly { start: number; end: number; text: string }[]): string {
  if (edits.length === 0) return source;
  let out = '';
  let last = 0;
  for (const edit of edits) {
    out += source.slice(last, edit.start) + edit.text;
    last = edit.end;
  }
  return out + source.slice(last);
}

/** A rename to a name that is not a plain identifier, or of a reserved root, would change what expressions mean. */
export function assertRenamable(from: string, to: string): void {
  for (const name of [from, to]) {
    if (!isIdentifier(name) || RESERVED_ROOTS.has(name)) {
      throw new SvcError(
        'VALIDATION_ERROR',
        `cannot rename "${from}" to "${to}": "${name}" is not a usable node name (letters, digits, _ or $, not starting with a digit, and not one of ${[...RESERVED_ROOTS].join(', ')})`,
        { details: { from, to } },
      );
    }
  }
}
