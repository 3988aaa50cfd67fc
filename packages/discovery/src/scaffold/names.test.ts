import { describe, expect, it } from 'vitest';
import { flowNameFor, frameTitleFor } from './names.js';

describe('flow names and frame titles from a requirement', () => {
  it('names a flow with the meaningful words in kebab-case, cut at a word', () => {
    expect(flowNameFor('Create a customer, place an order and ship it')).toBe('create-customer-place-order-ship');
    expect(flowNameFor('Crée un café ☕ au lait')).toBe('cree-un-cafe-au-lait');
    expect(flowNameFor('the it and')).toBe('the-it-and');
    expect(flowNameFor('!!!')).toBe('scaffolded-flow');
    const long = flowNameFor(
      'synchronise inventories warehouses marketplaces storefronts suppliers distributors retailers wholesalers',
    );
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long.endsWith('-')).toBe(false);
  });

  it('titles a frame with the requirement on one line, cut at a word with an ellipsis', () => {
    expect(frameTitleFor('  Ship\n the   order ')).toBe('Ship the order');
    const title = frameTitleFor(`${'word '.repeat(30)}end`);
    expect(title.length).toBeLessThanOrEqual(80);
    expect(title).toMatch(/word…$/);
  });
});
