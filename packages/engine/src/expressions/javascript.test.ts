import { describe, expect, it } from 'vitest';
import { checkJavaScript, javascriptNodeReferences, renameNodeInJavaScript } from './javascript.js';

describe('checkJavaScript', () => {
  it('accepts a boolean expression', () => {
    expect(checkJavaScript("ResponseBinding.CreateOrder.body.total > 100 && flowVars.region === 'eu'")).toEqual({
      ok: true,
    });
    expect(checkJavaScript('items.some((item) => item.qty > 1);')).toEqual({ ok: true });
    expect(checkJavaScript('a?.b ?? c')).toEqual({ ok: true });
  });

  it('answers a syntax error with its position', () => {
    expect(checkJavaScript('a >')).toEqual({ ok: false, message: 'Unexpected token (1:3)', position: 3 });
    expect(checkJavaScript('flowVars.x === "eu')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/Unterminated string/),
      position: 15,
    });
  });

  it('refuses a statement that is not an expression', () => {
    expect(checkJavaScript('if (a) { b }')).toEqual({
      ok: false,
      message: 'expected an expression, found an if statement',
      position: 0,
    });
    expect(checkJavaScript('  let x = 1')).toEqual({
      ok: false,
      message: 'expected an expression, found a variable declaration',
      position: 2,
    });
  });

  it('refuses more than one expression', () => {
    expect(checkJavaScript('a; b')).toEqual({
      ok: false,
      message: 'expected a single expression, found more code at position 3',
      position: 3,
    });
  });

  it('refuses empty code', () => {
    expect(checkJavaScript('   ')).toMatchObject({
      ok: false,
      position: 0,
      message: expect.stringMatching(/^empty expression/),
    });
  });
});

describe('javascriptNodeReferences', () => {
  const nodes = new Set(['Create', 'Get', 'Pay']);

  it('finds free identifiers that are node names and ResponseBinding reads', () => {
    expect(
      javascriptNodeReferences(
        "Create.statusCode === 201 && ResponseBinding.Get.body.ok && ResponseBinding['Pay'].x",
        nodes,
      ),
    ).toEqual(['Create', 'Get', 'Pay']);
  });

  it('answers ResponseBinding names even when no node has them', () => {
    expect(javascriptNodeReferences('ResponseBinding.Ghost.body.ok', nodes)).toEqual(['Ghost']);
  });

  it('skips property keys, member properties, strings and globals that are not nodes', () => {
    expect(
      javascriptNodeReferences(
        "x.Create && ({ Create: 1 }).Create && 'Create' && Math.max(1) > 0 && flowVars.Get",
        nodes,
      ),
    ).toEqual([]);
  });

  it('skips parameters and locals that shadow a node name', () => {
    expect(
      javascriptNodeReferences(
        'list.some((Create) => Create.ok) && (function (Get) { var Pay = 1; return Get + Pay })(1)',
        nodes,
      ),
    ).toEqual([]);
    expect(javascriptNodeReferences('((ResponseBinding) => ResponseBinding.Get)(x)', nodes)).toEqual([]);
  });

  it('finds a node read inside a function body that does not shadow it', () => {
    expect(javascriptNodeReferences('items.every((item) => item.id !== Create.body.id)', nodes)).toEqual(['Create']);
  });

  it('finds a node in a shorthand property and a computed key', () => {
    expect(javascriptNodeReferences('({ Create, [Get]: 1 })', nodes)).toEqual(['Create', 'Get']);
  });

  it('throws EXPRESSION_SYNTAX on code that does not parse', () => {
    expect(() => javascriptNodeReferences('a >', nodes)).toThrow(
      expect.objectContaining({ code: 'EXPRESSION_SYNTAX' }),
    );
  });
});

describe('renameNodeInJavaScript', () => {
  it('renames free identifiers and ResponseBinding reads, keeping all other text', () => {
    const code =
      "Create.statusCode === 201   &&  ResponseBinding.Create.body.total > 100 /* Create */ && ResponseBinding['Create'].ok";
    expect(renameNodeInJavaScript(code, 'Create', 'CreateOrder')).toBe(
      "CreateOrder.statusCode === 201   &&  ResponseBinding.CreateOrder.body.total > 100 /* Create */ && ResponseBinding['CreateOrder'].ok",
    );
  });

  it('leaves member properties, keys, strings, locals and longer names alone', () => {
    const code =
      "x.Create && ({ Create: 1 }) && 'Create' && CreateOrder && list.some((Create) => Create.ok) && flowVars.Create";
    expect(renameNodeInJavaScript(code, 'Create', 'Made')).toBe(code);
  });

  it('keeps the key of a shorthand property', () => {
    expect(renameNodeInJavaScript('({ Create }).Create.ok', 'Create', 'Made')).toBe('({ Create: Made }).Create.ok');
  });

  it('throws EXPRESSION_SYNTAX on code that does not parse', () => {
    expect(() => renameNodeInJavaScript('Create >', 'Create', 'Made')).toThrow(
      expect.objectContaining({ code: 'EXPRESSION_SYNTAX' }),
    );
  });
});
