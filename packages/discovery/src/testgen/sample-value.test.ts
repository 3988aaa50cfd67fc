import { describe, expect, it } from 'vitest';
import { conformsTo } from './check-value.js';
import { sampleValue } from './sample-value.js';

const options = { fields: 'all', useExamples: true } as const;

describe('sampleValue', () => {
  it('builds values that satisfy the schema they come from', () => {
    const schemas: unknown[] = [
      { type: 'integer', minimum: 3, maximum: 8 },
      { type: 'integer', exclusiveMinimum: true, minimum: 0, multipleOf: 5 },
      { type: 'number', exclusiveMaximum: 1 },
      { type: 'string', minLength: 12, maxLength: 12 },
      { type: 'string', format: 'email', minLength: 20 },
      { type: 'string', pattern: '^[A-Z]{3}$' },
      { type: 'string', pattern: '^\\d+$' },
      { type: 'array', minItems: 2, maxItems: 2, uniqueItems: true, items: { type: 'string', enum: ['a', 'b', 'c'] } },
      { type: 'array', minItems: 3, uniqueItems: true, items: { type: 'integer', maximum: 2 } },
      {
        type: 'object',
        required: ['a', 'b'],
        properties: { a: { type: 'boolean' }, b: { type: ['string', 'null'], maxLength: 3 } },
      },
      { anyOf: [{ type: 'null' }, { type: 'integer', minimum: 10 }] },
    ];
    for (const schema of schemas)
      expect(conformsTo(schema, sampleValue(schema, options)), JSON.stringify(schema)).toBe(true);
  });

  it("uses the spec's example only when it is valid, and never with useExamples off", () => {
    expect(sampleValue({ type: 'integer', minimum: 1, example: 7 }, options)).toBe(7);
    expect(sampleValue({ type: 'integer', minimum: 1, example: 0 }, options)).toBe(1);
    expect(sampleValue({ type: 'integer', minimum: 1, example: 7 }, { fields: 'all', useExamples: false })).toBe(1);
  });

  it('leaves read-only and, when asked, optional properties out', () => {
    const schema = {
      type: 'object',
      required: ['name'],
      properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' }, note: { type: 'string' } },
    };
    expect(sampleValue(schema, options)).toEqual({ name: 'sample', note: 'sample' });
    expect(sampleValue(schema, { fields: 'required', useExamples: true })).toEqual({ name: 'sample' });
  });
});
