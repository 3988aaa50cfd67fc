import { describe, expect, it } from 'vitest';
import { applyCompletion, expressionCompletions, fieldPaths, type ExpressionScope } from './expression-completions.js';

const scope: ExpressionScope = {
  upstream: [
    { name: 'CreateOrder', type: 'endpoint' },
    { name: 'ForItems', type: 'for' },
  ],
  responseFields: { CreateOrder: ['id', 'total', 'customer', 'customer.email'] },
  flowVars: ['region'],
  envNames: ['baseUrl'],
};

describe('expression autocomplete', () => {
  it('offers nothing outside an open {{…}}', () => {
    expect(expressionCompletions('plain text', 5, scope)).toBeUndefined();
    expect(expressionCompletions('{{env.baseUrl}}/x', 17, scope)).toBeUndefined();
  });

  it('offers upstream nodes, their fields from the last run, flowVars and env names', () => {
    const text = 'https://x/{{ Create';
    const result = expressionCompletions(text, text.length, scope)!;
    expect(result.from).toBe(text.indexOf('Create'));
    const values = result.items.map((item) => item.value);
    expect(values).toContain('CreateOrder.statusCode');
    expect(values).toContain('CreateOrder.response.body.customer.email');
    expect(values).not.toContain('ForItems.item');
    expect(expressionCompletions('{{flow', 6, scope)!.items.map((i) => i.value)).toEqual(['flowVars.region']);
    expect(expressionCompletions('{{env.', 6, scope)!.items.map((i) => i.value)).toEqual(['env.baseUrl']);
    expect(expressionCompletions('{{ForItems.i', 12, scope)!.items.map((i) => i.value)).toEqual([
      'ForItems.item',
      'ForItems.index',
      'ForItems.isLast',
      'ForItems.isFirst',
    ]);
  });

  it('replaces what was typed and closes the template once', () => {
    const open = '{{Cre';
    const result = expressionCompletions(open, open.length, scope)!;
    expect(applyCompletion(open, result, 'CreateOrder.statusCode')).toEqual({
      text: '{{CreateOrder.statusCode}}',
      caret: 26,
    });
    const closed = '{{Cre}} tail';
    const inside = expressionCompletions(closed, 5, scope)!;
    expect(applyCompletion(closed, inside, 'CreateOrder.statusCode').text).toBe('{{CreateOrder.statusCode}} tail');
  });

  it('reads field paths of a response body, skipping names expressions cannot spell', () => {
    expect(fieldPaths({ id: 1, 'bad-name': 2, customer: { email: 'a', tags: ['x'] } })).toEqual([
      'id',
      'customer',
      'customer.email',
      'customer.tags',
    ]);
    expect(fieldPaths([1, 2])).toEqual([]);
  });
});
