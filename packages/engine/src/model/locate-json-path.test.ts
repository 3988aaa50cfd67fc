import { describe, expect, it } from 'vitest';
import { createLineLocator, parseJsonPath } from './locate-json-path.js';
import { formatJsonPath } from './walk-strings.js';

describe('parseJsonPath', () => {
  it('reads back every path formatJsonPath writes', () => {
    for (const path of [['nodes', 2, 'config', 'url'], ['headers', 'x-api-key', 0], [0, 'a b', 'c"d'], ['flows']]) {
      expect(parseJsonPath(formatJsonPath(path))).toEqual(path);
    }
    expect(parseJsonPath('')).toEqual([]);
  });

  it('answers undefined for text that is not a path', () => {
    expect(parseJsonPath('nodes..url')).toBeUndefined();
    expect(parseJsonPath('nodes[x]')).toBeUndefined();
  });
});

describe('createLineLocator', () => {
  const yaml = [
    'name: smoke', // 1
    'options:', // 2
    '  mode: parallel', // 3
    '  concurency: 4', // 4
    'flows:', // 5
    '  - flows/a.yaml', // 6
    '  - flows/b.yaml', // 7
  ].join('\n');

  it("answers the line of an object's key and of an array's item", () => {
    const lineOf = createLineLocator(yaml);
    expect(lineOf('options.concurency')).toBe(4);
    expect(lineOf('flows[1]')).toBe(7);
    expect(lineOf('name')).toBe(1);
  });

  it('answers the deepest part that is there for a path past the file', () => {
    const lineOf = createLineLocator(yaml);
    expect(lineOf('options.failFast')).toBe(2);
    expect(lineOf('flows[9]')).toBe(5);
    expect(lineOf('description')).toBe(1);
  });

  it('locates paths in JSON text too', () => {
    const lineOf = createLineLocator(
      '{\n  "name": "x",\n  "nodes": [\n    { "id": "a" },\n    { "id": "b" }\n  ]\n}\n',
    );
    expect(lineOf('nodes[1].id')).toBe(5);
  });
});
