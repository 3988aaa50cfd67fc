import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readListedFlowFiles } from './flow-file-reads.js';
import { loadSuiteFile } from './suite-file-loader.js';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'svc-flow-reads-'));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

const flow = (name: string) =>
  `name: ${name}\nnodes:\n  - id: a\n    name: Call\n    type: endpoint\n    config: { method: GET, url: "http://127.0.0.1:1/x" }\nedges: []\n`;

describe('reading a suite file’s flow files ahead', () => {
  it('reads only the paths the suite file’s rules allow, each once', () => {
    const root = project({
      'ci/suite.yaml': [
        'name: s',
        'flows:',
        '  - ../flows/a.yaml',
        '  - ../flows/a.yaml',
        '  - ../secrets.env',
        '  - /etc/abs.yaml',
        '  - 42',
        '  - ../flows/missing.yaml',
        '  - ../flows/broken.yaml',
      ].join('\n'),
      'flows/a.yaml': flow('a'),
      'flows/broken.yaml': 'name: [unclosed\n',
      'secrets.env': 'TOKEN=x\n',
    });
    const reads = readListedFlowFiles(join(root, 'ci/suite.yaml'));
    expect(reads.map((read) => read.absolute)).toEqual([
      join(root, 'flows/a.yaml'),
      join(root, 'flows/missing.yaml'),
      join(root, 'flows/broken.yaml'),
    ]);
    expect(reads[0]).toMatchObject({ text: flow('a'), document: { name: 'a' } });
    expect(reads[1]).toEqual({ absolute: join(root, 'flows/missing.yaml'), unreadable: 'no such file' });
    expect(reads[2]!.parseError).toMatchObject({ code: 'INVALID_FLOW_FILE' });
    expect(reads[2]!.document).toBeUndefined();
  });

  it('answers nothing for a suite file that cannot be read or does not parse', () => {
    const root = project({ 'bad.yaml': 'flows: [a.yaml\n' });
    expect(readListedFlowFiles(join(root, 'bad.yaml'))).toEqual([]);
    expect(readListedFlowFiles(join(root, 'none.yaml'))).toEqual([]);
  });

  it('loads a suite file the same with the files read ahead as without', async () => {
    const root = project({
      'suite.yaml': 'name: s\nflows: [a.yaml, b.yaml, missing.yaml, broken.yaml, a.yaml]\n',
      'a.yaml': flow('a'),
      'b.yaml': flow('b'),
      'broken.yaml': 'name: [unclosed\n',
    });
    const file = join(root, 'suite.yaml');
    const prefetched = new Map(readListedFlowFiles(file).map((read) => [read.absolute, read]));
    const ahead = await loadSuiteFile(file, { validateFlows: false, prefetched });
    const here = await loadSuiteFile(file, { validateFlows: false });
    expect(ahead.problems.map((problem) => problem.code)).toEqual([
      'FILE_UNREADABLE',
      'INVALID_FLOW_FILE',
      'DUPLICATE_FLOW',
    ]);
    expect(ahead).toEqual(here);

    const valid = project({
      'suite.yaml': 'name: s\nflows: [a.yaml, b.yaml]\n',
      'a.yaml': flow('a'),
      'b.yaml': flow('b'),
    });
    const validFile = join(valid, 'suite.yaml');
    const validAhead = await loadSuiteFile(validFile, {
      prefetched: new Map(readListedFlowFiles(validFile).map((read) => [read.absolute, read])),
    });
    expect(validAhead.loaded?.flows.map((each) => each.name)).toEqual(['a', 'b']);
    expect(validAhead).toEqual(await loadSuiteFile(validFile));
  });
});
