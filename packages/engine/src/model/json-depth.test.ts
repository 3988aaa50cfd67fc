import { describe, expect, it } from 'vitest';
import { createRedactor, redactDeep } from '../redaction.js';
import { SvcError } from '../errors.js';
import { assertJsonDepth, checkJsonShape, MAX_JSON_DEPTH, yamlTextTooDeep } from './json-depth.js';
import { parseFlowText } from './parse-flow-text.js';
import { mapStrings, walkStrings } from './walk-strings.js';

/** `{ a: { a: … { a: leaf } } }`, `levels` objects deep, built without recursion. */
function nested(levels: number, leaf: unknown = 'x'): unknown {
  let value: unknown = leaf;
  for (let level = 0; level < levels; level += 1) value = { a: value };
  return value;
}

describe('checkJsonShape', () => {
  it('answers the path where a value first nests past the limit', () => {
    expect(checkJsonShape(nested(64), { maxDepth: 64 })).toBeUndefined();
    expect(checkJsonShape(nested(65), { maxDepth: 64 })).toEqual({
      kind: 'too-deep',
      path: Array(64).fill('a'),
      maxDepth: 64,
    });
    expect(checkJsonShape({ ok: [1, 2], deep: [[[{}]]] }, { maxDepth: 3 })).toEqual({
      kind: 'too-deep',
      path: ['deep', 0, 0],
      maxDepth: 3,
    });
    expect(checkJsonShape(nested(100_000), { maxDepth: 64 })?.kind).toBe('too-deep');
  });

  it('finds a value that contains itself, and tells it from one shared twice', () => {
    const shared = { s: 1 };
    expect(checkJsonShape({ a: shared, b: [shared, shared] }, { maxDepth: 10 })).toBeUndefined();
    const loop: Record<string, unknown> = { name: 'x' };
    loop.self = [loop];
    expect(checkJsonShape({ top: loop }, { maxDepth: 1000 })).toEqual({ kind: 'cycle', path: ['top', 'self', 0] });
  });

  it('stops after maxValues values, counting a shared value each time it is reached', () => {
    let value: unknown = Array(10).fill('lol');
    for (let level = 0; level < 9; level += 1) value = Array(10).fill(value);
    expect(checkJsonShape(value, { maxDepth: 64, maxValues: 100_000 })).toEqual({
      kind: 'too-many-values',
      maxValues: 100_000,
    });
  });
});

describe('assertJsonDepth', () => {
  it('throws VALIDATION_ERROR naming where it got too deep', () => {
    expect(() => assertJsonDepth(nested(MAX_JSON_DEPTH), 'body')).not.toThrow();
    let error: unknown;
    try {
      assertJsonDepth({ env: nested(5_000) }, 'body');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SvcError);
    expect((error as SvcError).code).toBe('VALIDATION_ERROR');
    expect((error as SvcError).message).toMatch(
      /^body\.env\.a\.a\.a.*: nests deeper than 64 levels of objects and arrays$/,
    );
    expect((error as SvcError).details).toMatchObject({
      problems: [{ code: 'TOO_DEEP', path: expect.stringMatching(/^body\.env\.a/) }],
    });
  });
});

describe('the JSON walkers', () => {
  it('walk and copy a value nested far past the call stack, in document order', () => {
    const deep = nested(100_000, 'leaf');
    const seen: string[] = [];
    walkStrings({ first: 'one', deep, last: ['two', 'three'] }, (text, path) => {
      seen.push(text);
      if (text === 'leaf') expect(path).toHaveLength(100_001);
    });
    expect(seen).toEqual(['one', 'leaf', 'two', 'three']);
    const copied = mapStrings({ first: 'one', deep }, (text) => text.toUpperCase()) as { first: string; deep: unknown };
    expect(copied.first).toBe('ONE');
    let inner: unknown = copied.deep;
    for (let level = 0; level < 100_000; level += 1) inner = (inner as { a: unknown }).a;
    expect(inner).toBe('LEAF');
    const redact = createRedactor({ token: 'sekrit-value' }, ['token']);
    let redacted = redactDeep(nested(100_000, 'Bearer sekrit-value'), redact);
    for (let level = 0; level < 100_000; level += 1) redacted = (redacted as { a: unknown }).a;
    expect(redacted).toBe('Bearer ***');
  });

  it('copy keys in order, arrays as arrays, and a "__proto__" key as an own key', () => {
    const value = JSON.parse('{"b":[1,"x",{"__proto__":"p"}],"a":null}') as unknown;
    const copied = mapStrings(value, (text) => `${text}!`);
    expect(JSON.stringify(copied)).toBe('{"b":[1,"x!",{"__proto__":"p!"}],"a":null}');
    expect(Object.getPrototypeOf((copied as { b: object[] }).b[2])).toBe(Object.prototype);
  });
});

describe('yamlTextTooDeep', () => {
  it('counts flow collections and block levels, not brackets inside quotes or comments', () => {
    expect(yamlTextTooDeep(`a: ${'['.repeat(300)}`, 256)).toEqual({ line: 1 });
    expect(yamlTextTooDeep(`a: ${'['.repeat(100)}${']'.repeat(100)}`, 256)).toBeUndefined();
    expect(
      yamlTextTooDeep(`x:\n${Array.from({ length: 300 }, (_, index) => `${' '.repeat(index)}- `).join('\n')}a\n`, 256)
        ?.line,
    ).toBeGreaterThan(250);
    expect(yamlTextTooDeep(`${'- '.repeat(300)}a`, 256)).toEqual({ line: 1 });
    expect(
      yamlTextTooDeep(
        `a: "${'['.repeat(300)}"\nb: '${'{'.repeat(300)}'\nc: 1 # ${'['.repeat(300)}\nd: it's [x]\n`,
        256,
      ),
    ).toBeUndefined();
  });
});

describe('parseFlowText', () => {
  it('refuses a self-referencing alias, nesting past 64 levels and text nested past the parser, as VALIDATION_ERROR', () => {
    const codeOf = (text: string, name: string) => {
      try {
        parseFlowText(text, name);
      } catch (error) {
        return `${(error as SvcError).code} ${(error as SvcError).message}`;
      }
      return 'parsed';
    };
    expect(codeOf('name: x\nvariables: &a { self: *a }\n', 'f.yaml')).toBe(
      'VALIDATION_ERROR f.yaml: variables.self: refers to itself',
    );
    expect(codeOf(`name: x\nvariables: ${'['.repeat(65)}${']'.repeat(65)}\n`, 'f.yaml')).toMatch(
      /^VALIDATION_ERROR f\.yaml: variables\[0\]\[0\].*: nests deeper than 64 levels/,
    );
    expect(codeOf(`name: x\nvariables: ${'['.repeat(500_000)}\n`, 'f.yaml')).toMatch(
      /^VALIDATION_ERROR f\.yaml: nests deeper than 64 levels of objects and arrays \(at line 2\)/,
    );
    expect(codeOf(`{"name":"x","variables":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, 'f.json')).toMatch(
      /^VALIDATION_ERROR f\.json: variables\[0\]/,
    );
    expect(codeOf('name: x\nvariables: { a: [1, 2] }\n', 'f.yaml')).toBe('parsed');
  });
});
