import { SvcError } from '../errors.js';
import { formatPath } from './format-path.js';
import { UNREADABLE_KEYS } from './parse-template.js';
import type { ExpressionScope, PathExpression, Template } from './types.js';

/**
 * Evaluates a parsed template against a scope. A template that is exactly one `{{…}}` yields the
 * value itself (number, object, array…); mixed text yields a string. Evaluation only reads data:
 * it never calls a function and never evaluates a string it reads.
 *
 * @example
 * evaluateTemplate(parseTemplate('{{flowVars.count}}'), scope)      // 3
 * evaluateTemplate(parseTemplate('n={{flowVars.count}}'), scope)    // "n=3"
 */
export function evaluateTemplate(template: Template, scope: ExpressionScope): unknown {
  const { parts } = template;
  if (template.single) {
    const part = parts[0];
    if (part?.kind === 'expression') return evaluateExpression(part.expression, scope);
  }
  let text = '';
  for (const part of parts) {
    text += part.kind === 'text' ? part.text : toText(evaluateExpression(part.expression, scope));
  }
  return text;
}

function toText(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'object':
      return value === null ? '' : (JSON.stringify(value) ?? '');
    default:
      return '';
  }
}

/** Why a path stopped resolving, and the path (root and segments) up to the failing step. */
interface Miss {
  reason: string;
  at: number;
}

function evaluateExpression(expr: PathExpression, scope: ExpressionScope): unknown {
  const { root, segments } = expr;
  let value: unknown;
  let next = 0;
  let miss: Miss | undefined;

  if (root === 'ResponseBinding') {
    const first = segments[0];
    const name = first?.kind === 'key' ? first.key : '';
    value = scope.responseBinding(name);
    next = 1;
    if (value === undefined)
      miss = { reason: `no response from "${name}" (has that node run before this one?)`, at: 1 };
  } else {
    value = UNREADABLE_KEYS.has(root) ? undefined : scope.lookup(root);
    if (value === undefined) miss = { reason: `unknown name "${root}"`, at: 0 };
  }

  for (let i = next; miss === undefined && i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment.kind === 'index') {
      if (Array.isArray(value)) {
        if (segment.index < value.length && value[segment.index] !== undefined) {
          value = value[segment.index];
          continue;
        }
        miss = {
          reason: `no index ${segment.index} in ${formatPath(root, segments, i)} (length ${value.length})`,
          at: i + 1,
        };
      } else {
        miss = { reason: `${formatPath(root, segments, i)} is ${describe(value)}, not an array`, at: i + 1 };
      }
    } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      // A data descriptor only: a getter would be a function call, and inherited keys are not data.
      const descriptor = UNREADABLE_KEYS.has(segment.key)
        ? undefined
        : Object.getOwnPropertyDescriptor(value, segment.key);
      if (descriptor !== undefined && 'value' in descriptor && descriptor.value !== undefined) {
        value = descriptor.value;
        continue;
      }
      miss = {
        reason: `no ${JSON.stringify(segment.key)} in ${formatPath(root, segments, i)} (${listKeys(value)})`,
        at: i + 1,
      };
    } else {
      miss = {
        reason: `cannot read ${JSON.stringify(segment.key)} of ${formatPath(root, segments, i)}: it is ${describe(value)}`,
        at: i + 1,
      };
    }
  }

  if (miss === undefined) {
    if (value === null && expr.fallback) return expr.fallback.value;
    return value;
  }
  if (expr.fallback) return expr.fallback.value;
  if (expr.optional) return undefined;
  throw new SvcError('EXPRESSION_UNRESOLVED', `{{${expr.source}}}: ${miss.reason}`, {
    details: { expression: expr.source, missingAt: formatPath(root, segments, miss.at) },
  });
}

const LISTED_KEYS = 10;

function listKeys(object: object): string {
  const keys = Object.keys(object);
  if (keys.length === 0) return 'it has no keys';
  const shown = keys.slice(0, LISTED_KEYS).join(', ');
  return keys.length > LISTED_KEYS ? `keys: ${shown}, … ${keys.length - LISTED_KEYS} more` : `keys: ${shown}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string')
    return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  return `a ${typeof value}`;
}
