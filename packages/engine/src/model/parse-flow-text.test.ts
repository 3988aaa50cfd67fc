import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { SvcError } from '../errors.js';
import { parseFlowText } from './parse-flow-text.js';

const EXAMPLES = fileURLToPath(new URL('../../../../examples/flows/', import.meta.url));

describe('parseFlowText reads YAML as the yaml package does (YAML 1.2, core schema)', () => {
  it('reads every example flow to the same value', () => {
    const files = readdirSync(EXAMPLES).filter((file) => /\.ya?ml$/.test(file));
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      const text = readFileSync(join(EXAMPLES, file), 'utf8');
      expect(parseFlowText(text, file), file).toEqual(parse(text));
    }
  });

  it('reads the scalars YAML 1.1 and 1.2 disagree on, and quoting, as the core schema says', () => {
    const text = [
      'yes: yes',
      'on: on',
      'off: off',
      'date: 2024-01-02',
      'octal: 0o17',
      'leadingZero: 017',
      'hex: 0x1F',
      'exp: 1e3',
      'inf: .inf',
      'nothing: ~',
      'empty:',
      'bool: True',
      "quoted: '{{env.baseUrl}}/a'",
      'plain: a {{env.x}} b',
      'multi: |',
      '  line one',
      '  line two',
      'folded: >-',
      '  one',
      '  two',
      '"__proto__": { polluted: true }',
      'anchors: { a: &x [1, 2], b: *x }',
    ].join('\n');
    const value = parseFlowText(text, 'f.yaml') as Record<string, unknown>;
    expect(JSON.parse(JSON.stringify(value))).toEqual(JSON.parse(JSON.stringify(parse(text, { maxAliasCount: -1 }))));
    expect(value.date).toBe('2024-01-02');
    expect(value.yes).toBe('yes');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('says where YAML does not parse, and refuses duplicate keys and several documents', () => {
    const messageOf = (text: string) => {
      try {
        parseFlowText(text, 'f.yaml');
      } catch (error) {
        return `${(error as SvcError).code} ${(error as SvcError).message}`;
      }
      return 'parsed';
    };
    expect(messageOf('name: bad\nnodes: [\n  - oops: {\n')).toMatch(
      /^INVALID_FLOW_FILE f\.yaml: not valid YAML: .* at line \d+, column \d+$/,
    );
    expect(messageOf('name: a\nname: b\n')).toMatch(
      /^INVALID_FLOW_FILE f\.yaml: not valid YAML: duplicated mapping key at line 2/,
    );
    expect(messageOf('name: a\n---\nname: b\n')).toMatch(/^INVALID_FLOW_FILE f\.yaml: not valid YAML: /);
  });

  it('refuses an alias bomb by the values it expands to', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let level = 1; level < 8; level += 1) {
      const previous = `*${String.fromCharCode(96 + level)}`;
      levels.push(
        `${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(10).fill(previous).join(', ')}]`,
      );
    }
    expect(() => parseFlowText(levels.join('\n'), 'bomb.yaml')).toThrow(/more than 1000000 values|values/);
  });
});
