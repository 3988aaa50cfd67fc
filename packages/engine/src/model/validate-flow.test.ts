import { describe, expect, it } from 'vitest';
import { createNodeRegistry } from '../nodes/registry.js';
import { assertValidFlow, validateFlow } from './validate-flow.js';
import { SvcError } from '../errors.js';

const registry = createNodeRegistry();
const endpoint = (id: string, name: string, url = 'http://localhost/x') => ({
  id,
  name,
  type: 'endpoint',
  config: { url },
});
const wire = (id: string, source: string, target: string, sourceHandle = 'out') => ({
  id,
  source,
  target,
  sourceHandle,
});

function problemsOf(flow: unknown) {
  const result = validateFlow(flow, registry);
  return result.ok ? [] : result.problems;
}

describe('validateFlow', () => {
  it('accepts a valid flow and applies defaults', () => {
    const result = validateFlow({ name: 'ok', nodes: [endpoint('a', 'A')] }, registry);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.flow.connections).toEqual([]);
      expect(result.flow.flowData).toEqual({ canvasGroups: [], annotations: [] });
      expect(result.flow.nodes[0]!.position).toEqual({ x: 0, y: 0 });
    }
  });

  it('reports structural problems with their paths', () => {
    const problems = problemsOf({ name: '', nodes: 'none' });
    expect(problems.map((problem) => problem.path)).toEqual(expect.arrayContaining(['name', 'nodes']));
    expect(problems.every((problem) => problem.code === 'INVALID_FIELD')).toBe(true);
  });

  it('answers every problem at once, each with a code and a path', () => {
    const problems = problemsOf({
      name: 'broken',
      nodes: [
        endpoint('a', 'A'),
        endpoint('a', 'B'),
        endpoint('c', 'A'),
        { id: 'd', name: '1bad', type: 'endpoint', config: { url: 'http://x' } },
        { id: 'e', name: 'E', type: 'teleport', config: {} },
        { id: 'f', name: 'F', type: 'endpoint', config: { url: 'http://x', method: 'FETCH', retyr: {} } },
        { id: 'g', name: 'G', type: 'switch', config: { cases: [{ source: '{{A.statusCode}}', operator: '==' }] } },
      ],
      connections: [
        wire('w1', 'a', 'zz'),
        wire('w2', 'a', 'c', 'success'),
        wire('w2', 'c', 'a'),
        { id: 'w4', source: 'a', target: 'c', targetHandle: 'side' },
      ],
      flowData: {
        canvasGroups: [
          { id: 'g1', title: 'T', color: 'Purple', bounds: { x: 0, y: 0, width: 1, height: 1 }, nodeIds: ['ghost'] },
        ],
      },
    });
    const byCode = (code: string) => problems.filter((problem) => problem.code === code).map((problem) => problem.path);
    expect(byCode('DUPLICATE_NODE_ID')).toEqual(['nodes[1].id']);
    expect(byCode('DUPLICATE_NODE_NAME')).toEqual(['nodes[2].name']);
    expect(byCode('INVALID_NODE_NAME')).toEqual(['nodes[3].name']);
    expect(byCode('UNKNOWN_NODE_TYPE')).toEqual(['nodes[4].type']);
    expect(byCode('INVALID_CONFIG')).toEqual(
      expect.arrayContaining(['nodes[5].config.method', 'nodes[5].config', 'nodes[6].config.cases[0].value']),
    );
    expect(byCode('WIRE_TO_MISSING_NODE')).toEqual(['connections[0].target']);
    expect(byCode('UNKNOWN_HANDLE')).toEqual(['connections[1].sourceHandle', 'connections[3].targetHandle']);
    expect(byCode('DUPLICATE_WIRE_ID')).toEqual(['connections[2].id']);
    expect(byCode('CYCLE')).toEqual(['connections']);
    expect(byCode('UNKNOWN_FRAME_NODE')).toEqual(['flowData.canvasGroups[0].nodeIds[0]']);
    const unknownType = problems.find((problem) => problem.code === 'UNKNOWN_NODE_TYPE')!;
    expect(unknownType.message).toContain('teleport');
    expect(unknownType.message).toContain('endpoint');
  });

  it('bounds the size of a flow', () => {
    const nodes = Array.from({ length: 1001 }, (_, index) => endpoint(`n${index}`, `N${index}`));
    expect(problemsOf({ name: 'huge', nodes })).toEqual([
      { code: 'INVALID_FIELD', path: 'nodes', message: 'a flow holds at most 1000 nodes' },
    ]);
  });

  it('names the nodes of a cycle', () => {
    const problems = problemsOf({
      name: 'cycle',
      nodes: [endpoint('a', 'A'), endpoint('b', 'B'), endpoint('c', 'C')],
      connections: [wire('1', 'a', 'b'), wire('2', 'b', 'c'), wire('3', 'c', 'b')],
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.code).toBe('CYCLE');
    expect(problems[0]!.message).toContain('B → C → B');
  });

  it('rejects unparsable expressions where they stand', () => {
    const problems = problemsOf({
      name: 'syntax',
      nodes: [endpoint('a', 'A', 'http://x/{{A.body.}}'), endpoint('b', 'B', 'http://x/{{ unclosed')],
    });
    expect(problems.map((problem) => [problem.code, problem.path])).toEqual([
      ['EXPRESSION_SYNTAX', 'nodes[0].config.url'],
      ['EXPRESSION_SYNTAX', 'nodes[1].config.url'],
    ]);
  });

  it('rejects references to unknown nodes and to nodes that are not upstream', () => {
    //  A ─▶ B        C (not wired)
    const problems = problemsOf({
      name: 'refs',
      nodes: [
        endpoint('a', 'A', 'http://x/{{B.response.body.id}}'),
        endpoint('b', 'B', 'http://x/{{ResponseBinding.A.body.id}}/{{Ghost.statusCode}}'),
        endpoint('c', 'C', 'http://x/{{A.statusCode}}'),
      ],
      connections: [wire('1', 'a', 'b')],
    });
    expect(problems.map((problem) => [problem.code, problem.path])).toEqual([
      ['NOT_UPSTREAM', 'nodes[0].config.url'],
      ['UNKNOWN_REFERENCE', 'nodes[1].config.url'],
      ['NOT_UPSTREAM', 'nodes[2].config.url'],
    ]);
  });

  it('checks JavaScript switch expressions for syntax and references', () => {
    const problems = problemsOf({
      name: 'js',
      nodes: [
        endpoint('a', 'A'),
        {
          id: 's',
          name: 'S',
          type: 'switch',
          config: {
            mode: 'expression',
            cases: [
              { expression: 'ResponseBinding.A.body.total > 1' },
              { expression: 'Later.statusCode === 200' },
              { expression: 'A.statusCode ===' },
            ],
          },
        },
        endpoint('l', 'Later'),
      ],
      connections: [wire('1', 'a', 's'), wire('2', 's', 'l', 'case-0')],
    });
    expect(problems.map((problem) => [problem.code, problem.path])).toEqual([
      ['NOT_UPSTREAM', 'nodes[1].config.cases[1].expression'],
      ['EXPRESSION_SYNTAX', 'nodes[1].config.cases[2].expression'],
    ]);
  });

  it('throws VALIDATION_ERROR with every problem from assertValidFlow', () => {
    try {
      assertValidFlow({ name: 'x', nodes: [{ id: 'a', name: 'A', type: 'nope' }] }, registry);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SvcError);
      expect((error as SvcError).code).toBe('VALIDATION_ERROR');
      expect((error as SvcError).details).toMatchObject({
        problems: [{ code: 'UNKNOWN_NODE_TYPE', path: 'nodes[0].type' }],
      });
    }
  });
});

describe('request URLs', () => {
  it.each([
    ['http://localhost:4010/orders'],
    ['HTTPS://api.example.com'],
    ['{{env.baseUrl}}/orders'],
    ['{{env.next}}'],
  ])('accepts %s: absolute, or led by a template that holds the base', (url) => {
    expect(problemsOf({ name: 'ok', nodes: [endpoint('a', 'A', url)] })).toEqual([]);
  });

  it.each([['/orders'], ['orders/1'], ['localhost:4010/orders'], ['ftp://example.com/x']])(
    'refuses %s at save, naming the field',
    (url) => {
      const problems = problemsOf({ name: 'relative', nodes: [endpoint('a', 'A', url)] });
      expect(problems).toEqual([
        {
          code: 'RELATIVE_URL',
          path: 'nodes[0].config.url',
          message: expect.stringContaining(`url "${url}" is not absolute`),
        },
      ]);
      expect(problems[0]!.message).toContain('{{env.baseUrl}}');
    },
  );
});

describe('component-webhook', () => {
  const webhook = (config: Record<string, unknown>) => ({
    name: 'callbacks',
    nodes: [endpoint('a', 'Submit'), { id: 'w', name: 'Done', type: 'component-webhook', config }],
    connections: [wire('w1', 'a', 'w')],
  });

  it('accepts a payload schema and a pre-script that read the request', () => {
    const flow = webhook({
      mode: 'wait',
      verification: { method: 'Pre-script', script: "headers['x-token'] === secret && body.ok === true", secret: 's' },
      payloadSchema: { type: 'object', required: ['jobId'], properties: { jobId: { type: 'string', pattern: '^j-' } } },
    });
    expect(problemsOf(flow)).toEqual([]);
  });

  it('reports each problem of an invalid payload schema at its place in the node', () => {
    const problems = problemsOf(
      webhook({
        payloadSchema: {
          type: 'object',
          properties: { id: { type: 'strnig' }, code: { pattern: '^(?=x)' } },
          anyOf: [{ required: 'id' }],
        },
      }),
    );
    expect(problems.map((problem) => [problem.code, problem.path])).toEqual(
      expect.arrayContaining([
        ['INVALID_PAYLOAD_SCHEMA', 'nodes[1].config.payloadSchema.properties.id.type'],
        ['INVALID_PAYLOAD_SCHEMA', 'nodes[1].config.payloadSchema.properties.code.pattern'],
        ['INVALID_PAYLOAD_SCHEMA', 'nodes[1].config.payloadSchema.anyOf[0].required'],
      ]),
    );
    expect(problems.every((problem) => problem.code === 'INVALID_PAYLOAD_SCHEMA')).toBe(true);
  });

  it('makes a flow with an invalid payload schema a VALIDATION_ERROR naming the path', () => {
    let error: unknown;
    try {
      assertValidFlow(webhook({ payloadSchema: { properties: { items: { $ref: '#' } } } }), registry);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SvcError);
    expect((error as SvcError).code).toBe('VALIDATION_ERROR');
    expect((error as SvcError).message).toContain('nodes[1].config.payloadSchema.properties.items.$ref');
  });

  it('reports a pre-script that does not parse, like a switch expression', () => {
    const problems = problemsOf(webhook({ verification: { method: 'Pre-script', script: "headers['x' ===" } }));
    expect(problems).toEqual([
      {
        code: 'EXPRESSION_SYNTAX',
        path: 'nodes[1].config.verification.script',
        message: expect.stringContaining('JavaScript expression'),
      },
    ]);
    const statement = problemsOf(webhook({ verification: { method: 'Pre-script', script: 'let ok = true' } }));
    expect(statement[0]).toMatchObject({ code: 'EXPRESSION_SYNTAX', path: 'nodes[1].config.verification.script' });
  });

  it('reports a pre-script that reads a node, which it is not given', () => {
    const problems = problemsOf(
      webhook({ verification: { method: 'Pre-script', script: 'Submit.statusCode === 202 && body.ok' } }),
    );
    expect(problems).toEqual([
      {
        code: 'UNKNOWN_REFERENCE',
        path: 'nodes[1].config.verification.script',
        message: 'a pre-script reads only headers, body, rawBody, secret; "Submit" is not given to it',
      },
    ]);
  });

  it('refuses a tolerance without a signed timestamp, and header settings Standard Webhooks ignores', () => {
    const hmac = problemsOf(webhook({ verification: { method: 'HMAC-SHA256', secret: 's', toleranceSeconds: 60 } }));
    expect(hmac).toEqual([expect.objectContaining({ path: 'nodes[1].config.verification.toleranceSeconds' })]);
    const standard = problemsOf(
      webhook({ verification: { method: 'Standard Webhooks', secret: 'whsec_AAAA', header: 'X-Signature' } }),
    );
    expect(standard).toEqual([expect.objectContaining({ path: 'nodes[1].config.verification.header' })]);
    const badName = problemsOf(webhook({ verification: { method: 'Custom Header', header: 'X Token', value: 'v' } }));
    expect(badName).toEqual([expect.objectContaining({ path: 'nodes[1].config.verification.header' })]);
  });
});

describe("self, an endpoint's own submit response", () => {
  const polling = (request: Record<string, unknown>) => ({
    id: 'p',
    name: 'Poll',
    type: 'endpoint',
    config: {
      method: 'POST',
      url: 'http://localhost/jobs',
      polling: { request, stopWhen: [{ target: 'body.status', operator: 'EQUALS', values: ['DONE'] }] },
    },
  });

  it('is readable in polling.request, in its URL, query and headers', () => {
    const flow = {
      name: 'self-ok',
      nodes: [
        polling({
          url: "{{self.response.headers['location']}}",
          query: { id: '{{self.body.jobId}}' },
          headers: { 'X-Job': '{{self.response.body.jobId}}' },
        }),
      ],
    };
    expect(problemsOf(flow)).toEqual([]);
  });

  it('is refused in the flow outputs and variables, naming the path', () => {
    const problems = problemsOf({
      name: 'self-outside',
      variables: { job: '{{self.response.body.jobId}}' },
      outputs: { job: '{{self.body.jobId}}' },
      nodes: [polling({ url: 'http://localhost/jobs/1' })],
    });
    expect(problems.map((problem) => [problem.code, problem.path])).toEqual([
      ['INVALID_SELF_REFERENCE', 'outputs.job'],
      ['INVALID_SELF_REFERENCE', 'variables.job'],
    ]);
    expect(problems[0]!.message).toContain('read only in its polling.request');
  });
});
