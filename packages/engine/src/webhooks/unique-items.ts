import type { FuncKeywordDefinition, SchemaValidateFunction } from 'ajv';

/**
 * A value as text that is the same for equal JSON values whatever their key order, so equal
 * items meet in a Set. The caller has bounded the value's depth.
 */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const validate: SchemaValidateFunction = function validateUniqueItems(unique: boolean, data: unknown[]) {
  if (!unique) return true;
  const seen = new Map<string, number>();
  for (let index = 0; index < data.length; index += 1) {
    const key = canonical(data[index]);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      validate.errors = [
        {
          keyword: 'uniqueItems',
          message: `must NOT have duplicate items (items ## ${earlier} and ${index} are identical)`,
          params: { i: index, j: earlier },
        },
      ];
      return false;
    }
    seen.set(key, index);
  }
  return true;
};

/**
 * `uniqueItems` in linear time. Ajv's own compares every pair of items when they may be objects
 * or arrays: a sender's 20,000 distinct small objects would cost 200 million deep comparisons on
 * the event loop. Here each item is written once as canonical text and looked up in a map.
 */
export const uniqueItemsKeyword: FuncKeywordDefinition = {
  keyword: 'uniqueItems',
  type: 'array',
  schemaType: 'boolean',
  errors: true,
  validate,
};
