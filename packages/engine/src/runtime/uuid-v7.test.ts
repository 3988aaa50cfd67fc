import { describe, expect, it } from 'vitest';
import { uuidV7 } from './uuid-v7.js';

describe('uuidV7', () => {
  it('is a version 7, variant 1 UUID carrying its time in the first 48 bits', () => {
    const at = Date.parse('2026-11-22T03:00:00Z');
    const id = uuidV7(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });

  it('sorts ids made later after ids made earlier, and never repeats', () => {
    const ids = Array.from({ length: 1000 }, (_, index) => uuidV7(1_800_000_000_000 + index));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(Array.from({ length: 10_000 }, () => uuidV7())).size).toBe(10_000);
  });
});
