import { describe, expect, it } from 'vitest';
import { bodySkeleton, setAtPath } from './body-skeleton.js';

describe('bodySkeleton', () => {
  it('writes required fields, and optional ones that carry an example, leaving read-only fields out', () => {
    const schema = {
      type: 'object',
      required: ['name', 'age', 'id'],
      properties: {
        id: { type: 'integer', readOnly: true },
        name: { type: 'string', minLength: 3 },
        age: { type: 'integer', exclusiveMinimum: 17 },
        nick: { type: 'string', example: 'ada' },
        note: { type: 'string' },
      },
    };
    expect(bodySkeleton(schema)).toEqual({ name: 'xxx', age: 18, nick: 'ada' });
  });

  it('takes a whole example, enums, defaults, formats and composed schemas', () => {
    expect(bodySkeleton({ type: 'object', example: { a: 1 }, properties: { b: { type: 'string' } } })).toEqual({
      a: 1,
    });
    expect(bodySkeleton({ type: 'string', enum: ['red', 'blue'] })).toBe('red');
    expect(bodySkeleton({ type: 'string', format: 'date-time' })).toBe('2024-01-01T00:00:00Z');
    expect(bodySkeleton({ type: 'integer', default: 5 })).toBe(5);
    expect(
      bodySkeleton({
        allOf: [
          { type: 'object', required: ['a'], properties: { a: { type: 'boolean' } } },
          { type: 'object', required: ['b'], properties: { b: { type: 'number', minimum: 1.5 } } },
        ],
      }),
    ).toEqual({ a: false, b: 1.5 });
    expect(
      bodySkeleton({
        oneOf: [
          { type: 'null' },
          { type: 'object', required: ['c'], properties: { c: { type: 'string', example: 'x' } } },
        ],
      }),
    ).toEqual({ c: 'x' });
  });

  it('gives an array of objects one item, and stops at a recursive schema', () => {
    const node = {
      type: 'object',
      required: ['label', 'child'],
      properties: {
        label: { type: 'string', example: 'root' },
        child: { $ref: '#/components/schemas/Node', 'x-circular': true },
      },
    };
    expect(bodySkeleton({ type: 'array', items: node })).toEqual([{ label: 'root', child: null }]);
    expect(bodySkeleton({ type: 'array', items: { type: 'string' } })).toEqual([]);
  });

  it('keeps the optional parents of bound fields, with their own required fields', () => {
    const schema = {
      type: 'object',
      properties: {
        customer: {
          type: 'object',
          required: ['name'],
          properties: { id: { type: 'integer' }, name: { type: 'string', example: 'Ada' } },
        },
      },
    };
    expect(bodySkeleton(schema, { keep: [['customer', 'id']] })).toEqual({ customer: { id: 0, name: 'Ada' } });
  });
});

describe('setAtPath', () => {
  it('writes through objects and arrays, creating what is missing, and replaces the whole value for an empty path', () => {
    expect(setAtPath({ a: 1 }, ['b', 'c'], 'x')).toEqual({ a: 1, b: { c: 'x' } });
    expect(setAtPath({}, ['items', 1, 'sku'], 'x')).toEqual({ items: [null, { sku: 'x' }] });
    expect(setAtPath({ a: 1 }, [], 'whole')).toBe('whole');
  });
});
