import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoApi, type DemoApi } from '../../../examples/demo-api/server.js';
import { spawnSvc, SVC_BIN } from './cli.js';
import { findAll, parseXml } from './xml-tree.js';

type Json = Record<string, any>;

/** What a hostile API answers: markup that would close the report's elements, and characters XML cannot hold. */
const HOSTILE = ']]></failure></testcase><testcase name="forged"><![CDATA[\u0000\u0007\u001b[2J\u001b]0;pwned\u0007';

let demo: DemoApi;
let hostile: Server;
let hostileUrl: string;
let dir: string;

beforeAll(async () => {
  demo = await startDemoApi({ port: 0 });
  hostile = createServer((request, response) => {
    if (request.url === '/text') {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(HOSTILE);
      return;
    }
    // JSON whose string holds a lone surrogate and a NUL once parsed.
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"status":"\\ud800\\u0000</failure>","detail":"]]>"}');
  });
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
  hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'svc-suite-cli-'));
});
afterAll(async () => {
  await demo?.close();
  await new Promise<void>((resolve) => hostile.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/** Writes files under a fresh directory and answers its path. */
function project(name: string, files: Record<string, string>): string {
  const root = join(dir, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const call = (name: string, url: string, assertion = '') =>
  `name: "${name}"\nnodes:\n  - { id: a, name: Call, type: endpoint, config: { url: "${url}"${assertion} } }\nconnections: []\n`;

function svc(args: string[], options: { cwd?: string; db?: string } = {}) {
  return spawnSvc(args, { SVC_DB: options.db ?? join(dir, 'svc.db') }).done;
}

describe('svc run suite <file.yaml>', () => {
  it('saves and runs a suite file with no setup, reports JUnit a strict parser reads, and exits 1 on a failure', async () => {
    const root = project('gate', {
      'api-tests.yaml': [
        'name: gate',
        'options:',
        '  mode: sequential',
        'flows:',
        '  - flows/health.yaml',
        '  - flows/orders.yaml',
        '  - flows/text.yaml',
        '  - flows/json.yaml',
      ].join('\n'),
      'flows/health.yaml': call('health', '{{env.baseUrl}}/health'),
      'flows/orders.yaml': call(
        'orders',
        '{{env.baseUrl}}/orders/nope',
        ', assertions: [ { target: statusCode, operator: "==", value: 200 } ]',
      ),
      // YAML's own escapes: the flow's name holds quotes and an ESC character.
      'flows/text.yaml': call('hostile \\"text\\" <\\e>', `${hostileUrl}/text`),
      'flows/json.yaml': call(
        'hostile-json',
        `${hostileUrl}/json`,
        ', assertions: [ { target: body.status, operator: "==", value: "OK" } ]',
      ),
    });
    const report = join(root, 'reports', 'junit.xml');
    const result = await svc([
      'run',
      'suite',
      join(root, 'api-tests.yaml'),
      '--env',
      `baseUrl=${demo.url}`,
      '--reporter',
      'junit',
      '--output',
      report,
    ]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toBe('');
    // Progress: a line per flow as it ended, no spinner when stderr is not a terminal, no raw control character.
    expect(result.stderr).toMatch(/^running suite "gate" \(4 flows\) on the embedded store$/m);
    expect(result.stderr).toMatch(/^\[1\/4\] PASS {2}health {2}\d+ ms$/m);
    expect(result.stderr).toMatch(
      /^\[2\/4\] FAIL {2}orders {2}\d+ ms {2}ASSERTION_FAILED: statusCode == 200 \(got 404\)$/m,
    );
    expect(result.stderr).toMatch(
      /^FAILED: 1 passed, 3 failed, 0 skipped of 4 in [\d.]+ s; junit report in .*junit\.xml$/m,
    );
    expect(result.stderr).not.toContain('\u001b');

    const root_ = parseXml(readFileSync(report, 'utf8'));
    const [suite] = findAll(root_, 'testsuite');
    expect(suite!.attributes).toMatchObject({ name: 'gate', tests: '4', failures: '3', skipped: '0' });
    const cases = findAll(root_, 'testcase');
    expect(cases.map((testcase) => testcase.attributes.name)).toEqual([
      'health',
      'orders',
      'hostile "text" <\\u001b>',
      'hostile-json',
    ]);
    expect(cases.every((testcase) => /^\d+\.\d{3}$/.test(testcase.attributes.time!))).toBe(true);
    expect(cases[0]!.attributes.file).toBe(join(root, 'flows/health.yaml'));
    const [orders, text, json] = cases.slice(1).map((testcase) => findAll(testcase, 'failure')[0]!);
    expect(orders!.attributes.message).toBe('Call: ASSERTION_FAILED: statusCode == 200 (got 404)');
    expect(orders!.text).toContain(`request: GET ${demo.url}/orders/nope`);
    expect(orders!.text).toContain('response: 404');
    expect(orders!.text).toContain('ORDER_NOT_FOUND');
    // The hostile answers are text in the report: no forged testcase, every character written out.
    expect(text!.text).toContain(
      'body: ]]></failure></testcase><testcase name="forged"><![CDATA[\\u0000\\u0007\\u001b[2J\\u001b]0;pwned\\u0007',
    );
    expect(json!.attributes.message).toContain('body.status == "OK" (got "\\ud800\\u0000</failure>")');
    expect(cases).toHaveLength(4);
  });

  it('saves flows and the suite by name: a second run of unchanged files writes no new version', async () => {
    const db = join(dir, 'again.db');
    const root = project('again', {
      'suite.yaml': 'name: again\nflows: [a.yaml, b.yaml]\n',
      'a.yaml': call('again-a', '{{env.baseUrl}}/health'),
      'b.yaml': call('again-b', '{{env.baseUrl}}/health'),
    });
    for (let run = 0; run < 2; run += 1) {
      const result = await svc(['run', 'suite', join(root, 'suite.yaml'), '--env', `baseUrl=${demo.url}`], { db });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^Suite "again" \(ste_\w+, sequential\): PASSED$/m);
    }
    const flows = JSON.parse((await svc(['flows', 'list', '--json'], { db })).stdout) as Json;
    expect(flows.items.map((flow: Json) => [flow.name, flow.version]).sort()).toEqual([
      ['again-a', 1],
      ['again-b', 1],
    ]);
    // The saved suite runs by name too, and its file's flows by name.
    expect((await svc(['run', 'suite', 'again', '--env', `baseUrl=${demo.url}`, '--quiet'], { db })).code).toBe(0);
  });

  it('prints one JSON object with --reporter json, each failure with its step; the file options and the flags that override them', async () => {
    const root = project('options', {
      'suite.yaml': [
        'name: options',
        'options: { mode: parallel, concurrency: 1, failFast: true }',
        'flows: [broken.yaml, later.yaml]',
      ].join('\n'),
      'broken.yaml': call(
        'options-broken',
        '{{env.baseUrl}}/orders/nope',
        ', assertions: [ { target: statusCode, operator: "==", value: 200 } ]',
      ),
      'later.yaml': call('options-later', '{{env.baseUrl}}/health'),
    });
    const file = join(root, 'suite.yaml');
    const fast = await svc(['run', 'suite', file, '--env', `baseUrl=${demo.url}`, '--reporter', 'json']);
    expect(fast.code).toBe(1);
    const report = JSON.parse(fast.stdout) as Json;
    expect(report).toMatchObject({ suiteName: 'options', mode: 'parallel', failFast: true, failed: 1, skipped: 1 });
    expect(report.flows[1]).toMatchObject({ flowName: 'options-later', status: 'skipped', failure: null });
    expect(report.flows[0].file).toBe(join(root, 'broken.yaml'));
    expect(report.flows[0].failure.step).toMatchObject({
      nodeName: 'Call',
      request: { method: 'GET', url: `${demo.url}/orders/nope` },
      response: { status: 404 },
    });
    expect(fast.stderr).toMatch(/^1 flow not run after the first failure \(fail-fast\)$/m);

    // --fail-fast is the file's unless given; --json is --reporter json.
    const all = await svc(['run', 'suite', file, '--env', `baseUrl=${demo.url}`, '--json', '--quiet']);
    expect(JSON.parse(all.stdout)).toMatchObject({ failFast: true });
    expect(all.stderr).toBe('');
    const both = await svc(['run', 'suite', file, '--json', '--reporter', 'junit']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give one');
    const badReporter = await svc(['run', 'suite', file, '--reporter', 'xml']);
    expect(badReporter.code).toBe(2);
    expect(badReporter.stderr).toContain('Allowed choices are text, junit, json');
    expect((await svc(['run', 'suite', file, '--concurrency', '99'])).code).toBe(2);
  });

  it('answers every problem of a suite file and its flow files with file and line, exits 2, and saves nothing', async () => {
    const db = join(dir, 'invalid.db');
    const root = project('invalid', {
      'suite.yaml': [
        'name: invalid', // 1
        'options:', // 2
        '  failfast: true', // 3
        'flows:', // 4
        '  - good.yaml', // 5
        '  - missing.yaml', // 6
        '  - good.yaml', // 7
        '  - bad.yaml', // 8
        '  - same-name.yaml', // 9
      ].join('\n'),
      'good.yaml': call('invalid-good', 'http://127.0.0.1:9/x'),
      'bad.yaml': 'name: invalid-bad\nnodes:\n  - { id: a, name: A, type: warp }\nconnections: []\n',
      'same-name.yaml': call('invalid-good', 'http://127.0.0.1:9/y'),
    });
    const schema = await svc(['run', 'suite', join(root, 'suite.yaml')], { db });
    expect(schema.code).toBe(2);
    expect(schema.stderr).toContain(`${join(root, 'suite.yaml')}:3: options.failfast: UNKNOWN_FIELD`);

    writeFileSync(
      join(root, 'suite.yaml'),
      readFileSync(join(root, 'suite.yaml'), 'utf8').replace('failfast', 'failFast'),
    );
    const result = await svc(['run', 'suite', join(root, 'suite.yaml')], { db });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`svc: ${join(root, 'suite.yaml')} does not validate (4 problems):`);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(
        new RegExp(`suite\\.yaml:6: flows\\[1\\]: FILE_UNREADABLE: cannot read .*missing\\.yaml: no such file$`),
      ),
      expect.stringMatching(/suite\.yaml:7: flows\[2\]: DUPLICATE_FLOW: good\.yaml is listed at flows\[0\] too$/),
      expect.stringMatching(/bad\.yaml:3: nodes\[0\]\.type: UNKNOWN_NODE_TYPE: /),
      expect.stringMatching(
        /same-name\.yaml:1: name: DUPLICATE_FLOW_NAME: .*good\.yaml defines a flow named "invalid-good" too$/,
      ),
    ]);
    // Nothing was saved: the store does not exist yet.
    expect(existsSync(db)).toBe(false);

    const notYaml = await svc(['run', 'suite', join(root, 'nope', 'suite.yaml')], { db });
    expect(notYaml.code).toBe(2);
    expect(notYaml.stderr).toContain('FILE_UNREADABLE: cannot read it: no such file');
    const unknown = await svc(['run', 'suite', 'no-such-suite'], { db });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^svc: SUITE_NOT_FOUND: no suite with the id or name "no-such-suite"/m);
  });

  it("answers a flow file that does not validate with its file and line, and saves none of the suite file's flows", async () => {
    const db = join(dir, 'one-bad.db');
    const root = project('one-bad', {
      'suite.yaml': 'name: one-bad\nflows: [good.yaml, bad.yaml]\n',
      'good.yaml': call('one-bad-good', '{{env.baseUrl}}/health'),
      'bad.yaml':
        'name: one-bad-bad\nnodes:\n  - id: a\n    name: A\n    type: endpoint\n    config: { url: "{{Nope.body}}" }\nconnections: []\n',
    });
    const result = await svc(['run', 'suite', join(root, 'suite.yaml'), '--env', `baseUrl=${demo.url}`], { db });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`svc: ${join(root, 'suite.yaml')} does not validate (1 problem):`);
    expect(result.stderr).toMatch(/bad\.yaml:6: nodes\[0\]\.config\.url: \w+: /);
    const flows = JSON.parse((await svc(['flows', 'list', '--json'], { db })).stdout) as Json;
    expect(flows.items).toEqual([]);
  });

  it('refuses a flow file that is a FIFO rather than wait for a writer', async () => {
    const root = project('fifo', { 'suite.yaml': 'name: fifo\nflows: [pipe.yaml]\n' });
    execFileSync('mkfifo', [join(root, 'pipe.yaml')]);
    const result = await svc(['run', 'suite', join(root, 'suite.yaml')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /suite\.yaml:2: flows\[0\]: FILE_UNREADABLE: cannot read .*pipe\.yaml: not a regular file$/m,
    );
  });

  it('refuses a report path that is a directory before running anything', async () => {
    const root = project('output', {
      'suite.yaml': 'name: output\nflows: [a.yaml]\n',
      'a.yaml': call('output-a', '{{env.baseUrl}}/health'),
    });
    const before = demo.requests.length;
    const result = await svc([
      'run',
      'suite',
      join(root, 'suite.yaml'),
      '--env',
      `baseUrl=${demo.url}`,
      '--output',
      root,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is a directory');
    expect(demo.requests.length).toBe(before);
  });

  it('on a terminal, animates a spinner below the progress lines', async () => {
    const root = project('terminal', {
      'suite.yaml': 'name: terminal\nflows: [a.yaml, b.yaml]\n',
      'a.yaml': call('terminal-a', '{{env.baseUrl}}/health'),
      'b.yaml': call('terminal-b', '{{env.baseUrl}}/health'),
    });
    // `script` gives the command a terminal (both streams); stty gives it a width.
    const command = `stty cols 100 rows 30; exec node ${JSON.stringify(SVC_BIN)} run suite ${JSON.stringify(join(root, 'suite.yaml'))} --env baseUrl=${demo.url} --output ${JSON.stringify(join(root, 'r.txt'))}`;
    const { spawn } = await import('node:child_process');
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', TERM: 'xterm', SVC_DB: join(dir, 'terminal.db') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, output).toBe(0);
    expect(output).toContain('\u001b[?25l'); // the cursor hidden while the spinner turns
    expect(output).toMatch(/suite "terminal": \d\/2 flows ended/);
    expect(output).toMatch(/\[1\/2\] PASS {2}terminal-[ab]/);
    expect(output).toContain('\u001b[?25h'); // and shown again at the end
  });
});
