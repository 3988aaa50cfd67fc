import { createNodeRegistry, validateFlow } from '@svc/engine';
import { describe, expect, it } from 'vitest';
import {
  camelIdentifier,
  envTemplate,
  flowVarTemplate,
  literal,
  parseFieldPath,
  responseBindingTemplate,
} from './templates.js';

/** Whether the engine accepts a template in an endpoint URL. */
function parses(template: string): boolean {
  const flow = {
    name: 't',
    nodes: [
      { id: 'n1', name: 'A', type: 'endpoint', config: { url: 'http://x' } },
      { id: 'n2', name: 'B', type: 'endpoint', config: { url: `http://x/${template}` } },
    ],
    connections: [{ id: 'w1', source: 'n1', target: 'n2' }],
  };
  return validateFlow(flow, createNodeRegistry()).ok;
}

describe('templates', () => {
  it('reads plain names with a dot and other names with a quoted key, in forms the engine parses', () => {
    expect(flowVarTemplate('userId')).toBe('{{flowVars.userId}}');
    expect(flowVarTemplate('user-id', { optional: true })).toBe("{{flowVars['user-id']?}}");
    expect(envTemplate('baseUrl', 'https://a.example.com/"v1"')).toBe(
      '{{env.baseUrl ?? "https://a.example.com/\\"v1\\""}}',
    );
    expect(responseBindingTemplate('A', 'body', 'data.items[0].id')).toBe(
      '{{ResponseBinding.A.body.data.items[0].id}}',
    );
    expect(responseBindingTemplate('A', 'headers', 'x-request-id')).toBe(
      "{{ResponseBinding.A.headers['x-request-id']}}",
    );
    for (const template of [
      flowVarTemplate('user-id', { optional: true }),
      envTemplate('baseUrl', 'https://a.example.com/"v1"'),
      responseBindingTemplate('A', 'headers', 'x-request-id'),
    ]) {
      expect(parses(template)).toBe(true);
    }
  });

  it('splits field paths and makes identifiers', () => {
    expect(parseFieldPath('items[0].sku')).toEqual(['items', 0, 'sku']);
    expect(parseFieldPath('items.0.sku')).toEqual(['items', 0, 'sku']);
    expect(parseFieldPath('$')).toEqual([]);
    expect(camelIdentifier('oauth_2_0', 'auth')).toBe('oauth20');
    expect(camelIdentifier('X-Partner-Key', 'api')).toBe('xPartnerKey');
    expect(camelIdentifier('2fa', 'auth')).toBe('auth2fa');
  });

  it('breaks up {{ in data so a spec example is never run as an expression', () => {
    expect(literal({ greeting: 'hi {{name}}', list: ['{{x}}', 1] })).toEqual({
      greeting: 'hi { {name}}',
      list: ['{ {x}}', 1],
    });
  });
});
