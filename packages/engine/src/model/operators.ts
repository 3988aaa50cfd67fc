import { z } from 'zod';

/** The comparison operators shared by Switch cases and endpoint assertions. */
export const COMPARISON_OPERATORS = [
  '==',
  '!=',
  '>',
  '<',
  '>=',
  '<=',
  'contains',
  'not_contains',
  'starts_with',
  'ends_with',
  'is_empty',
  'is_not_empty',
] as const;

export const comparisonOperatorSchema = z.enum(COMPARISON_OPERATORS);
export type ComparisonOperator = z.infer<typeof comparisonOperatorSchema>;

/** Operators that need no match value. */
export const UNARY_OPERATORS: ReadonlySet<ComparisonOperator> = new Set(['is_empty', 'is_not_empty']);

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string' || Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/** Numbers compare as numbers even when one side arrived as a numeric string ("200" == 200). */
function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

function looselyEqual(left: unknown, right: unknown): boolean {
  const l = asNumber(left);
  const r = asNumber(right);
  if (l !== undefined && r !== undefined) return l === r;
  if (typeof left === 'object' && left !== null) return JSON.stringify(left) === JSON.stringify(right);
  if (typeof left === 'boolean' || typeof right === 'boolean') return String(left) === String(right);
  return left === right;
}

function ordered(left: unknown, right: unknown): number | undefined {
  const l = asNumber(left);
  const r = asNumber(right);
  if (l !== undefined && r !== undefined) return l - r;
  if (typeof left === 'string' && typeof right === 'string') return left < right ? -1 : left > right ? 1 : 0;
  return undefined;
}

function contains(container: unknown, needle: unknown): boolean {
  if (typeof container === 'string') return container.includes(String(needle));
  if (Array.isArray(container)) return container.some((element) => looselyEqual(element, needle));
  if (container !== null && typeof container === 'object' && typeof needle === 'string') return needle in container;
  return false;
}

/**
 * Applies a comparison operator. Ordering operators on values that cannot be ordered are false.
 * @example compare(201, '>=', 200) // true
 */
export function compare(actual: unknown, operator: ComparisonOperator, expected?: unknown): boolean {
  switch (operator) {
    case '==':
      return looselyEqual(actual, expected);
    case '!=':
      return !looselyEqual(actual, expected);
    case '>': {
      const order = ordered(actual, expected);
      return order !== undefined && order > 0;
    }
    case '<': {
      const order = ordered(actual, expected);
      return order !== undefined && order < 0;
    }
    case '>=': {
      const order = ordered(actual, expected);
      return order !== undefined && order >= 0;
    }
    case '<=': {
      const order = ordered(actual, expected);
      return order !== undefined && order <= 0;
    }
    case 'contains':
      return contains(actual, expected);
    case 'not_contains':
      return !contains(actual, expected);
    case 'starts_with':
      return typeof actual === 'string' && actual.startsWith(String(expected));
    case 'ends_with':
      return typeof actual === 'string' && actual.endsWith(String(expected));
    case 'is_empty':
      return isEmpty(actual);
    case 'is_not_empty':
      return !isEmpty(actual);
  }
}
