import { describe, expect, it } from 'vitest';
import { formatPathExpression } from './format-path.js';
import { parseTemplate } from './parse-template.js';
import { renameNodeInTemplate, templateNodeReferences } from './references.js';
import type { PathExpression } from './types.js';

function expressions(source: string): PathExpression[] {
  return parseTemplate(source).parts.flatMap((part) => (part.kind === 'expression' ? [part.expression] : []));
}

describe('templateNodeReferences', () => {
  it('answers node roots and ResponseBinding names, once each, in order', () => {
    const template = parseTemplate(
      '{{Create.statusCode}} {{ResponseBinding.Get.body.id}} {{Create.response.body}} {{ResponseBinding["Pay"].body}}',
    );
    expect(templateNodeReferences(template)).toEqual(['Create', 'Get', 'Pay']);
  });

  it('leaves out reserved roots', () => {
    const template = parseTemplate(
      '{{flowVars.a}}{{env.b}}{{execution.id}}{{self.response.body}}{{forNode.item}}{{repeatNode.iteration}}',
    );
    expect(templateNodeReferences(template)).toEqual([]);
  });

  it('answers nothing for plain text', () => {
    expect(templateNodeReferences(parseTemplate('Create.statusCode'))).toEqual([]);
  });
});

describe('renameNodeInTemplate', () => {
  it('renames a root and keeps every other character', () => {
    expect(renameNodeInTemplate('id: {{  Create.response.body.id  }}!', 'Create', 'CreateOrder')).toBe(
      'id: {{  CreateOrder.response.body.id  }}!',
    );
  });

  it('renames the node after ResponseBinding, in dotted and quoted form', () => {
    expect(renameNodeInTemplate('{{ResponseBinding.Create.body.id}}', 'Create', 'Order')).toBe(
      '{{ResponseBinding.Order.body.id}}',
    );
    expect(renameNodeInTemplate(`{{ResponseBinding[ "Create" ].body}}`, 'Create', 'Order')).toBe(
      `{{ResponseBinding[ "Order" ].body}}`,
    );
    expect(renameNodeInTemplate(`{{ResponseBinding['Create'].body}}`, 'Create', 'Order')).toBe(
      `{{ResponseBinding['Order'].body}}`,
    );
  });

  it('leaves keys, other roots and text that merely contain the name alone', () => {
    const source =
      "Create says {{flowVars.Create}} {{X.body.Create}} {{X['Create']}} {{CreateOrder.id}} {{ResponseBinding.Other.body.Create}} {{Create.id ?? 'Create'}}";
    expect(renameNodeInTemplate(source, 'Create', 'Made')).toBe(
      "Create says {{flowVars.Create}} {{X.body.Create}} {{X['Create']}} {{CreateOrder.id}} {{ResponseBinding.Other.body.Create}} {{Made.id ?? 'Create'}}",
    );
  });

  it('does not take flowVars.from or X.body.from for the node "from"', () => {
    expect(renameNodeInTemplate('{{flowVars.from}} {{X.body.from}} {{from.id}}', 'from', 'source')).toBe(
      '{{flowVars.from}} {{X.body.from}} {{source.id}}',
    );
  });

  it('renames every occurrence in one string', () => {
    expect(renameNodeInTemplate('{{A.x}}-{{A.y}}-{{ResponseBinding.A.z}}', 'A', 'B')).toBe(
      '{{B.x}}-{{B.y}}-{{ResponseBinding.B.z}}',
    );
  });

  it('returns the very same string when nothing refers to the node', () => {
    const source = '{{Other.x}} and text';
    expect(renameNodeInTemplate(source, 'Create', 'Made')).toBe(source);
  });

  it('refuses a new name that is not a usable node name', () => {
    expect(() => renameNodeInTemplate('{{A.x}}', 'A', 'has-dash')).toThrow(/"has-dash" is not a usable node name/);
    expect(() => renameNodeInTemplate('{{A.x}}', 'A', 'flowVars')).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR' }),
    );
  });

  it('throws on a template that does not parse', () => {
    expect(() => renameNodeInTemplate('{{A.}}', 'A', 'B')).toThrow(
      expect.objectContaining({ code: 'EXPRESSION_SYNTAX' }),
    );
  });
});

describe('formatPathExpression', () => {
  it('writes canonical source', () => {
    const [a, b, c, d] = expressions(
      "{{ Create.response.body.items[0].id }}{{ X['x-id'][\"it's\"] ? }}{{X.nick??\"anon\"}}{{X[ 'plain' ] ?? -1}}",
    );
    expect(formatPathExpression(a!)).toBe('Create.response.body.items[0].id');
    expect(formatPathExpression(b!)).toBe("X['x-id']['it\\'s']?");
    expect(formatPathExpression(c!)).toBe("X.nick ?? 'anon'");
    expect(formatPathExpression(d!)).toBe('X.plain ?? -1');
  });

  it('writes source that parses back to the same expression', () => {
    const originals = expressions(
      "{{ A['a b']['back\\\\slash'][3].c? }}{{ResponseBinding.N.headers['x-request-id'] ?? null}}{{ B.c ?? 'q\\'s' }}{{C ?? true}}",
    );
    for (const original of originals) {
      const [again] = expressions(`{{${formatPathExpression(original)}}}`);
      expect({ ...again, source: '' }).toEqual({ ...original, source: '' });
    }
  });
});
