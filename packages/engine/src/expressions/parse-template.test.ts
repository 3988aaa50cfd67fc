import { describe, expect, it } from 'vitest';
import { SvcError } from '../errors.js';
import { parseTemplate } from './parse-template.js';
import type { PathExpression } from './types.js';

function expressionOf(source: string): PathExpression {
  const template = parseTemplate(source);
  const part = template.parts.find((p) => p.kind === 'expression');
  if (part?.kind !== 'expression') throw new Error(`no expression in ${source}`);
  return part.expression;
}

function syntaxError(source: string): SvcError {
  try {
    parseTemplate(source);
  } catch (error) {
    if (error instanceof SvcError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(source)} to fail`);
}

describe('parseTemplate', () => {
  describe('paths', () => {
    it('reads a node response path as a root and key segments', () => {
      expect(expressionOf('{{Create.response.body.id}}')).toEqual({
        kind: 'path',
        root: 'Create',
        segments: [
          { kind: 'key', key: 'response' },
          { kind: 'key', key: 'body' },
          { kind: 'key', key: 'id' },
        ],
        optional: false,
        source: 'Create.response.body.id',
      });
    });

    it.each([
      ['{{Create.statusCode}}', 'Create', [{ kind: 'key', key: 'statusCode' }]],
      ['{{flowVars.region}}', 'flowVars', [{ kind: 'key', key: 'region' }]],
      ['{{env.baseUrl}}', 'env', [{ kind: 'key', key: 'baseUrl' }]],
      ['{{execution.id}}', 'execution', [{ kind: 'key', key: 'id' }]],
      ['{{forNode.item}}', 'forNode', [{ kind: 'key', key: 'item' }]],
      ['{{$x._y}}', '$x', [{ kind: 'key', key: '_y' }]],
    ])('reads %s', (source, root, segments) => {
      const expression = expressionOf(source);
      expect(expression.root).toBe(root);
      expect(expression.segments).toEqual(segments);
    });

    it('reads index segments', () => {
      expect(expressionOf('{{ResponseBinding.Create.body.items[0].id}}').segments).toEqual([
        { kind: 'key', key: 'Create' },
        { kind: 'key', key: 'body' },
        { kind: 'key', key: 'items' },
        { kind: 'index', index: 0 },
        { kind: 'key', key: 'id' },
      ]);
      expect(expressionOf('{{X.rows[12][3]}}').segments).toEqual([
        { kind: 'key', key: 'rows' },
        { kind: 'index', index: 12 },
        { kind: 'index', index: 3 },
      ]);
    });

    it('reads quoted keys with dots, dashes and spaces in either quote', () => {
      expect(expressionOf("{{ResponseBinding.Create.headers['x-request-id']}}").segments.at(-1)).toEqual({
        kind: 'key',
        key: 'x-request-id',
      });
      expect(expressionOf('{{X.body["a.b c-d"]}}').segments.at(-1)).toEqual({ kind: 'key', key: 'a.b c-d' });
      expect(expressionOf("{{X[ 'spaced' ]}}").segments).toEqual([{ kind: 'key', key: 'spaced' }]);
    });

    it('unescapes \\\', \\" and \\\\ in quoted keys', () => {
      expect(expressionOf("{{X['it\\'s']}}").segments).toEqual([{ kind: 'key', key: "it's" }]);
      expect(expressionOf('{{X["say \\"hi\\""]}}').segments).toEqual([{ kind: 'key', key: 'say "hi"' }]);
      expect(expressionOf("{{X['back\\\\slash']}}").segments).toEqual([{ kind: 'key', key: 'back\\slash' }]);
    });

    it('keeps a "}}" inside a quoted key as part of the key', () => {
      const template = parseTemplate("{{X['a}}b']}}!");
      expect(template.parts).toEqual([
        { kind: 'expression', expression: expect.objectContaining({ segments: [{ kind: 'key', key: 'a}}b' }] }) },
        { kind: 'text', text: '!' },
      ]);
    });

    it('allows whitespace inside the braces and trims it from the expression source', () => {
      const expression = expressionOf('{{   \n flowVars.region \t }}');
      expect(expression.root).toBe('flowVars');
      expect(expression.source).toBe('flowVars.region');
    });
  });

  describe('optional and default', () => {
    it('marks a trailing "?" as optional', () => {
      const expression = expressionOf('{{ X.body.nick? }}');
      expect(expression.optional).toBe(true);
      expect(expression.fallback).toBeUndefined();
      expect(expression.source).toBe('X.body.nick?');
    });

    it.each([
      ["{{ X.body.nick ?? 'anon' }}", 'anon'],
      ['{{ X.body.nick ?? "anon" }}', 'anon'],
      ["{{X.n??'it\\'s'}}", "it's"],
      ['{{ X.n ?? 42 }}', 42],
      ['{{ X.n ?? -1.5e2 }}', -150],
      ['{{ X.n ?? 0 }}', 0],
      ['{{ X.n ?? true }}', true],
      ['{{ X.n ?? false }}', false],
      ['{{ X.n ?? null }}', null],
    ])('reads the default of %s', (source, value) => {
      const expression = expressionOf(source);
      expect(expression.fallback).toEqual({ value });
      expect(expression.optional).toBe(false);
    });

    it('keeps the default in the expression source', () => {
      expect(expressionOf("{{ X.body.nick ?? 'anon' }}").source).toBe("X.body.nick ?? 'anon'");
    });
  });

  describe('text and single', () => {
    it('answers text without "{{" as one text part', () => {
      expect(parseTemplate('plain } text }}')).toEqual({
        source: 'plain } text }}',
        parts: [{ kind: 'text', text: 'plain } text }}' }],
        single: false,
      });
      expect(parseTemplate('').parts).toEqual([{ kind: 'text', text: '' }]);
    });

    it('splits mixed text and expressions in order', () => {
      const template = parseTemplate('{{env.baseUrl}}/orders/{{Create.response.body.id}}?x=1');
      expect(template.parts.map((p) => (p.kind === 'text' ? p.text : `<${p.expression.source}>`))).toEqual([
        '<env.baseUrl>',
        '/orders/',
        '<Create.response.body.id>',
        '?x=1',
      ]);
      expect(template.single).toBe(false);
    });

    it('is single only when the whole string is exactly one expression', () => {
      expect(parseTemplate('{{ Create.statusCode }}').single).toBe(true);
      expect(parseTemplate(' {{Create.statusCode}}').single).toBe(false);
      expect(parseTemplate('{{Create.statusCode}} ').single).toBe(false);
      expect(parseTemplate('{{a.b}}{{c.d}}').single).toBe(false);
    });
  });

  describe('syntax errors', () => {
    it('reports an unclosed "{{" with its position', () => {
      const error = syntaxError('/orders/{{ Create.id');
      expect(error.code).toBe('EXPRESSION_SYNTAX');
      expect(error.message).toBe('unclosed "{{" at position 8 in "/orders/{{ Create.id": add the closing "}}"');
      expect(error.details).toEqual({ source: '/orders/{{ Create.id', position: 8 });
    });

    it('reports an unclosed "{{" even after a complete expression', () => {
      expect(syntaxError('{{a.b}} and {{c').message).toMatch(/^unclosed "\{\{" at position 12/);
    });

    it('reports an empty expression', () => {
      const error = syntaxError('id: {{ }}');
      expect(error.message).toBe(
        'empty expression "{{ }}" at position 4 in "id: {{ }}": write a path such as {{flowVars.name}}',
      );
      expect(syntaxError('{{}}').message).toMatch(/^empty expression "\{\{\}\}"/);
    });

    it('reports a missing name after "."', () => {
      const error = syntaxError('{{Create.}}');
      expect(error.message).toMatch(/^expected a name after "\." at position 9 in "\{\{Create\.\}\}"/);
      expect(error.details).toEqual({ source: '{{Create.}}', position: 9 });
    });

    it('suggests brackets for a numeric key after "."', () => {
      expect(syntaxError('{{X.items.0}}').message).toContain('use [0] for an index');
    });

    it('reports an expression that does not start with a name', () => {
      expect(syntaxError('{{ 1abc }}').message).toMatch(/^expected a name at position 3/);
      expect(syntaxError("{{ 'x' }}").message).toMatch(/^expected a name at position 3/);
    });

    it('reports an unexpected character where "}}" should be', () => {
      const error = syntaxError('{{ a.b c }}');
      expect(error.message).toMatch(/^unexpected "c" at position 7 .*expected "\}\}"/);
    });

    it('reports a bad bracket segment', () => {
      expect(syntaxError('{{ a[x] }}').message).toMatch(/^expected an index or a quoted key after "\[" at position 5/);
      expect(syntaxError('{{ a[-1] }}').message).toMatch(/^expected an index or a quoted key/);
      expect(syntaxError("{{ a['k' }}").message).toMatch(
        /^expected "\]" at position 9 to close the "\[" at position 4/,
      );
      expect(syntaxError('{{ a[01] }}').message).toMatch(/leading zero/);
    });

    it('reports an unterminated quoted key', () => {
      expect(syntaxError("{{ a['k }} }}").message).toMatch(/^unterminated string starting at position 5/);
    });

    it('reports an unknown escape', () => {
      expect(syntaxError("{{ a['\\n'] }}").message).toMatch(/^unsupported escape "\\n" at position 6/);
    });

    it('reports a default that is not a literal', () => {
      expect(syntaxError('{{ a.b ?? c.d }}').message).toMatch(/^expected a default value after "\?\?" at position 10/);
      expect(syntaxError('{{ a.b ?? }}').message).toMatch(/^expected a default value/);
      expect(syntaxError('{{ a.b ?? 12px }}').message).toMatch(/^expected a default value/);
    });

    it('requires a node name after ResponseBinding', () => {
      expect(syntaxError('{{ResponseBinding}}').message).toMatch(/^expected a node name after "ResponseBinding"/);
      expect(syntaxError('{{ResponseBinding[0]}}').message).toMatch(/^expected a node name after "ResponseBinding"/);
    });

    it('refuses keys that lead to prototypes', () => {
      expect(syntaxError('{{X.__proto__}}').message).toMatch(/"__proto__" at position 4 .* cannot be read/);
      expect(syntaxError("{{X['constructor']}}").message).toMatch(/"constructor" .* cannot be read/);
      expect(syntaxError('{{prototype.x}}').message).toMatch(/"prototype" .* cannot be read/);
    });

    it('cuts a long source around the position in the message', () => {
      const source = `${'a'.repeat(300)}{{ X. }}${'b'.repeat(300)}`;
      const error = syntaxError(source);
      expect(error.message.length).toBeLessThan(250);
      expect(error.message).toContain('…');
      expect(error.details).toEqual({ source, position: 305 });
    });
  });
});
