import { describe, expect, it } from 'vitest';
import { parseSuiteFile } from './suite-file.js';

describe('parseSuiteFile', () => {
  it('reads a suite file with its defaults', () => {
    const { suite, problems } = parseSuiteFile('name: smoke\nflows:\n  - flows/health.yaml\n', 'smoke.yaml');
    expect(problems).toEqual([]);
    expect(suite).toEqual({
      name: 'smoke',
      description: '',
      options: { mode: 'sequential' },
      flows: ['flows/health.yaml'],
    });
  });

  it('answers every problem at once, each with its file, line and path', () => {
    const text = [
      'name: smoke', // 1
      'options:', // 2
      '  mode: sideways', // 3
      '  concurrency: 99', // 4
      '  failfast: true', // 5
      'flows:', // 6
      '  - /etc/passwd', // 7
      '  - flows/ok.yaml', // 8
      '  - secrets.env', // 9
    ].join('\n');
    const { suite, problems } = parseSuiteFile(text, 'ci/smoke.yaml');
    expect(suite).toBeUndefined();
    const found = problems.map(({ line, path, code }) => ({ line, path, code }));
    expect(found).toEqual(
      expect.arrayContaining([
        { line: 3, path: 'options.mode', code: 'INVALID_FIELD' },
        { line: 4, path: 'options.concurrency', code: 'INVALID_FIELD' },
        { line: 5, path: 'options.failfast', code: 'UNKNOWN_FIELD' },
        { line: 7, path: 'flows[0]', code: 'INVALID_FIELD' },
        { line: 9, path: 'flows[2]', code: 'INVALID_FIELD' },
      ]),
    );
    expect(problems).toHaveLength(5);
    expect(problems.every((problem) => problem.file === 'ci/smoke.yaml')).toBe(true);
    expect(problems.find((problem) => problem.path === 'flows[0]')!.message).toMatch(/relative to the suite file/);
    expect(problems.find((problem) => problem.path === 'flows[2]')!.message).toMatch(/\.yaml, \.yml or \.json/);
  });

  it('says where a file is not YAML, and refuses a file that is not an object or lacks its flows', () => {
    const broken = parseSuiteFile('name: smoke\nflows: [a.yaml\n', 'smoke.yaml');
    expect(broken.problems).toEqual([
      expect.objectContaining({ code: 'INVALID_SUITE_FILE', file: 'smoke.yaml', line: expect.any(Number) }),
    ]);
    expect(parseSuiteFile('- a.yaml\n', 'list.yaml').problems[0]).toMatchObject({
      code: 'INVALID_SUITE_FILE',
      line: 1,
    });
    expect(parseSuiteFile('name: smoke\n', 'smoke.yaml').problems).toEqual([
      expect.objectContaining({ path: 'flows', line: 1, code: 'INVALID_FIELD' }),
    ]);
  });

  it('refuses an alias bomb as it refuses one in a flow file', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...'bcdefgh'.split('').map((name, index) => {
        const previous = 'abcdefgh'[index]!;
        return `${name}: &${name} [*${previous}, *${previous}, *${previous}, *${previous}, *${previous}, *${previous}, *${previous}, *${previous}, *${previous}, *${previous}]`;
      }),
    ].join('\n');
    const { problems } = parseSuiteFile(bomb, 'bomb.yaml');
    expect(problems).toEqual([expect.objectContaining({ code: 'INVALID_SUITE_FILE', file: 'bomb.yaml' })]);
  });
});
