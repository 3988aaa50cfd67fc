import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeRegistry, validateFlow, type ExecutionView, type FlowDocumentInput } from '@svc/engine';
import { startHarness, type Harness } from './helpers/harness.js';
import { endpoint, wire } from './helpers/flow-parts.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const stepsOf = (execution: ExecutionView, name: string) =>
  (execution.steps ?? []).filter((step) => step.nodeName === name);
const bodyOf = (step: { output: unknown } | undefined) => (step?.output as { body: unknown } | null)?.body;

describe('For', () => {
  //  Items ──▶ Each ─L─▶ CreateOrder ──▶ Ids (collect)
  //              └─D─▶ Summary (reads Ids.body.items)
  const forOrders = (items: unknown, extra: Record<string, unknown> = {}): FlowDocumentInput => ({
    name: `for-${JSON.stringify(items).length}-${JSON.stringify(extra).length}`,
    nodes: [
      { id: 'v', name: 'Items', type: 'variables', config: { set: { list: items } } },
      { id: 'f', name: 'Each', type: 'for', config: { items: '{{flowVars.list}}', ...extra } },
      endpoint('o', 'CreateOrder', {
        method: 'POST',
        url: '{{env.baseUrl}}/orders',
        body: {
          total: '{{forNode.item.total}}',
          position: '{{Each.index}}',
          first: '{{forNode.isFirst}}',
          last: '{{Each.isLast}}',
          of: '{{forNode.total}}',
        },
      }),
      { id: 'c', name: 'Ids', type: 'collect', config: { source: '{{CreateOrder.response.body.id}}' } },
      endpoint('s', 'Summary', {
        method: 'POST',
        url: '{{env.baseUrl}}/echo',
        body: { ids: '{{ResponseBinding.Ids.body.items}}', loop: '{{Each.response.body}}' },
      }),
    ],
    connections: [wire('v', 'f'), wire('f', 'o', 'L'), wire('o', 'c'), wire('f', 's', 'D')],
  });

  it('runs the body once per item with the loop context, in order, then D with what was collected', async () => {
    const execution = await h.run(forOrders([{ total: 10 }, { total: 20 }, { total: 30 }]));
    expect(execution.status).toBe('Completed');
    const orders = stepsOf(execution, 'CreateOrder');
    expect(orders.map((step) => step.scope)).toEqual(['Each[0]', 'Each[1]', 'Each[2]']);
    expect(orders.map((step) => (step.request as { body: unknown }).body)).toEqual([
      { total: 10, position: 0, first: true, last: false, of: 3 },
      { total: 20, position: 1, first: false, last: false, of: 3 },
      { total: 30, position: 2, first: false, last: true, of: 3 },
    ]);
    const ids = orders.map((step) => (bodyOf(step) as { id: string }).id);
    const summary = stepsOf(execution, 'Summary')[0]!;
    expect((summary.request as { body: unknown }).body).toEqual({
      ids,
      loop: { total: 3, iterations: 3, stopped: false },
    });
    expect(execution.nodesExecuted).toBe(5);
    expect(execution.stepsExecuted).toBe(1 + 1 + 3 + 3 + 1);
  });

  it('goes straight to D on an empty array', async () => {
    const execution = await h.run(forOrders([]));
    expect(execution.status).toBe('Completed');
    expect(stepsOf(execution, 'CreateOrder')).toEqual([]);
    expect((stepsOf(execution, 'Summary')[0]!.request as { body: { ids: unknown } }).body.ids).toEqual([]);
  });

  it('fails clearly when the items are not an array, naming the expression and what it found', async () => {
    const execution = await h.run(forOrders({ not: 'a list' }));
    expect(execution.status).toBe('Failed');
    expect(execution.error).toMatchObject({ code: 'LOOP_NOT_AN_ARRAY', nodeName: 'Each' });
    expect(execution.error!.message).toContain('{{flowVars.list}}');
    expect(execution.error!.message).toContain('object {"not":"a list"}');
  });

  it('keeps iteration order in Collect when items run concurrently and finish out of order', async () => {
    //  Each (concurrency 3) ─L─▶ Slow (later items answer sooner) ──▶ Waited (collect)
    const execution = await h.run({
      name: 'for-concurrent',
      variables: { delays: [120, 60, 10, 90, 5] },
      nodes: [
        { id: 'f', name: 'Each', type: 'for', config: { items: '{{flowVars.delays}}', concurrency: 3 } },
        endpoint('s', 'Slow', { url: '{{env.baseUrl}}/slow?ms={{forNode.item}}' }),
        { id: 'c', name: 'Waited', type: 'collect', config: { source: '{{Slow.response.body.sleptMs}}' } },
        {
          id: 'd',
          name: 'Done',
          type: 'variables',
          config: { set: { waited: '{{ResponseBinding.Waited.body.items}}' } },
        },
      ],
      connections: [wire('f', 's', 'L'), wire('s', 'c'), wire('f', 'd', 'D')],
    });
    expect(execution.status).toBe('Completed');
    expect(bodyOf(stepsOf(execution, 'Done')[0])).toEqual({ waited: [120, 60, 10, 90, 5] });
    // They did overlap: the third item finished before the first.
    const slow = stepsOf(execution, 'Slow');
    const ended = (scope: string) => Date.parse(slow.find((step) => step.scope === scope)!.endedAt!);
    expect(ended('Each[2]')).toBeLessThan(ended('Each[0]'));
  });

  it('fails the loop and the flow when a body node fails, unless its error handle is wired', async () => {
    //  Each ─L─▶ Call ─error─▶ Note        (routed: the loop goes on)
    const routed = await h.run({
      name: 'for-routed-error',
      variables: { codes: [200, 500, 200] },
      nodes: [
        { id: 'f', name: 'Each', type: 'for', config: { items: '{{flowVars.codes}}' } },
        endpoint('c', 'Call', {
          url: '{{env.baseUrl}}/fail?status={{forNode.item}}&times=1&key={{execution.id}}-{{forNode.index}}',
        }),
        { id: 'n', name: 'Note', type: 'variables', config: { set: { failedAt: '{{forNode.index}}' } } },
      ],
      connections: [wire('f', 'c', 'L'), wire('c', 'n', 'error')],
    });
    expect(routed.status).toBe('Completed');
    expect(stepsOf(routed, 'Note').map((step) => [step.scope, step.status])).toEqual([
      ['Each[0]', 'Skipped'],
      ['Each[1]', 'Completed'],
      ['Each[2]', 'Skipped'],
    ]);

    //  Each ─L─▶ Call        (not routed: the second item fails the loop and the flow)
    const failing = await h.run({
      name: 'for-failing',
      variables: { codes: [200, 500, 200] },
      nodes: [
        { id: 'f', name: 'Each', type: 'for', config: { items: '{{flowVars.codes}}' } },
        endpoint('c', 'Call', {
          url: '{{env.baseUrl}}/fail?status={{forNode.item}}&times=1&key={{execution.id}}-{{forNode.index}}',
        }),
        endpoint('a', 'After', { url: '{{env.baseUrl}}/health' }),
      ],
      connections: [wire('f', 'c', 'L'), wire('f', 'a', 'D')],
    });
    expect(failing.status).toBe('Failed');
    expect(failing.error).toMatchObject({ code: 'HTTP_ERROR_STATUS', nodeName: 'Call' });
    expect(stepsOf(failing, 'Call').map((step) => step.scope)).toEqual(['Each[0]', 'Each[1]']);
    expect(stepsOf(failing, 'Each')[0]).toMatchObject({ status: 'Failed', error: { code: 'LOOP_FAILED' } });
    expect(stepsOf(failing, 'After')[0]).toMatchObject({ status: 'Skipped', skipKind: 'failure' });
  });
});

describe('Repeat', () => {
  //  Retry (repeat, break when the job is COMPLETED) ─L─▶ Poll ──▶ Statuses (collect)
  //        └─D─▶ Done
  const polling = (count: unknown, breakWhen?: string): FlowDocumentInput => ({
    name: `repeat-${JSON.stringify(count)}-${breakWhen ?? 'none'}`,
    nodes: [
      { id: 'j', name: 'Submit', type: 'endpoint', config: { method: 'POST', url: '{{env.baseUrl}}/jobs', body: {} } },
      { id: 'r', name: 'Retry', type: 'repeat', config: { count, ...(breakWhen ? { breakWhen } : {}) } },
      endpoint('p', 'Poll', {
        url: '{{env.baseUrl}}/jobs/{{Submit.response.body.jobId}}?iteration={{repeatNode.iteration}}&index={{Retry.index}}&of={{Retry.total}}',
      }),
      { id: 'c', name: 'Statuses', type: 'collect', config: { source: '{{Poll.response.body.status}}' } },
      {
        id: 'd',
        name: 'Done',
        type: 'variables',
        config: { set: { statuses: '{{ResponseBinding.Statuses.body.items}}', loop: '{{Retry.response.body}}' } },
      },
    ],
    connections: [wire('j', 'r'), wire('r', 'p', 'L'), wire('p', 'c'), wire('r', 'd', 'D')],
  });

  it('runs the body count times with iteration (from 1), index (from 0) and total', async () => {
    const execution = await h.run(polling('{{env.tries}}'), { tries: '4' });
    expect(execution.status).toBe('Completed');
    const polls = stepsOf(execution, 'Poll');
    expect(polls.map((step) => step.scope)).toEqual(['Retry[0]', 'Retry[1]', 'Retry[2]', 'Retry[3]']);
    expect(new URL((polls[3]!.request as { url: string }).url).search).toBe('?iteration=4&index=3&of=4');
    expect(bodyOf(stepsOf(execution, 'Done')[0])).toMatchObject({ loop: { total: 4, iterations: 4, stopped: false } });
  });

  it('stops after the cycle where a JavaScript breakWhen holds', async () => {
    const execution = await h.run(polling(10, "Poll.response.body.status === 'COMPLETED'"));
    expect(execution.status).toBe('Completed');
    const done = bodyOf(stepsOf(execution, 'Done')[0]) as {
      statuses: string[];
      loop: { iterations: number; stopped: boolean };
    };
    expect(done.statuses.at(-1)).toBe('COMPLETED');
    expect(done.statuses.slice(0, -1)).not.toContain('COMPLETED');
    expect(done.loop).toMatchObject({ iterations: done.statuses.length, stopped: true });
    expect(done.statuses.length).toBeLessThan(10);
  });

  it('rejects a count that is negative, not a number, or above maxCount', async () => {
    // A literal negative count does not even save; a count from an expression fails the run.
    await expect(h.run(polling(-1))).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    for (const [count, message] of [
      ['{{env.tries}}', 'whole number of 0 or more, but it is "many"'],
      [20_000, 'above the limit of 10000'],
    ] as const) {
      const execution = await h.run(polling(count), { tries: 'many' });
      expect(execution.status).toBe('Failed');
      expect(execution.error).toMatchObject({ code: 'INVALID_COUNT', nodeName: 'Retry' });
      expect(execution.error!.message).toContain(message);
    }
  });
});

describe('Collect', () => {
  it('merges objects in Merge mode, later iterations winning, and rejects a non-object', async () => {
    //  Each ─L─▶ Fields (collect, Merge)      Each ─D─▶ Done
    const merge = (items: unknown[]): FlowDocumentInput => ({
      name: `merge-${items.length}-${JSON.stringify(items).length}`,
      variables: { items },
      nodes: [
        { id: 'f', name: 'Each', type: 'for', config: { items: '{{flowVars.items}}' } },
        { id: 'c', name: 'Fields', type: 'collect', config: { mode: 'Merge', source: '{{forNode.item}}' } },
        {
          id: 'd',
          name: 'Done',
          type: 'variables',
          config: { set: { merged: '{{ResponseBinding.Fields.body.items}}' } },
        },
      ],
      connections: [wire('f', 'c', 'L'), wire('f', 'd', 'D')],
    });
    const merged = await h.run(merge([{ a: 1, b: 1 }, { b: 2 }, { c: 3 }]));
    expect(bodyOf(stepsOf(merged, 'Done')[0])).toEqual({ merged: { a: 1, b: 2, c: 3 } });
    const broken = await h.run(merge([{ a: 1 }, 'text']));
    expect(broken.status).toBe('Failed');
    expect(broken.error).toMatchObject({ code: 'COLLECT_NOT_AN_OBJECT', nodeName: 'Fields' });
  });
});

describe('nested loops', () => {
  it('runs a For inside a Repeat inside a For, recording each step with its full scope', async () => {
    //  Outer (for a,b) ─L─▶ Mid (repeat 2) ─L─▶ Inner (for x,y) ─L─▶ Call ──▶ Seen (collect)
    //                                │                   └─D─▶ Count (reads Seen)
    //  Outer ─D─▶ Finish
    const execution = await h.run({
      name: 'nested',
      variables: { outer: ['a', 'b'], inner: ['x', 'y'] },
      nodes: [
        { id: 'o', name: 'Outer', type: 'for', config: { items: '{{flowVars.outer}}' } },
        { id: 'm', name: 'Mid', type: 'repeat', config: { count: 2 } },
        { id: 'i', name: 'Inner', type: 'for', config: { items: '{{flowVars.inner}}' } },
        endpoint('c', 'Call', {
          url: '{{env.baseUrl}}/echo?path={{Outer.item}}-{{repeatNode.iteration}}-{{forNode.item}}',
        }),
        { id: 's', name: 'Seen', type: 'collect', config: { source: '{{Call.response.body.query.path}}' } },
        { id: 'n', name: 'Count', type: 'variables', config: { set: { seen: '{{ResponseBinding.Seen.body.items}}' } } },
        { id: 'f', name: 'Finish', type: 'variables', config: { set: { done: true } } },
      ],
      connections: [
        wire('o', 'm', 'L'),
        wire('m', 'i', 'L'),
        wire('i', 'c', 'L'),
        wire('c', 's'),
        wire('i', 'n', 'D'),
        wire('o', 'f', 'D'),
      ],
    });
    expect(execution.status).toBe('Completed');
    const calls = stepsOf(execution, 'Call');
    expect(calls.map((step) => step.scope)).toEqual([
      'Outer[0]/Mid[0]/Inner[0]',
      'Outer[0]/Mid[0]/Inner[1]',
      'Outer[0]/Mid[1]/Inner[0]',
      'Outer[0]/Mid[1]/Inner[1]',
      'Outer[1]/Mid[0]/Inner[0]',
      'Outer[1]/Mid[0]/Inner[1]',
      'Outer[1]/Mid[1]/Inner[0]',
      'Outer[1]/Mid[1]/Inner[1]',
    ]);
    expect(calls.map((step) => (bodyOf(step) as { query: { path: string } }).query.path)).toEqual([
      'a-1-x',
      'a-1-y',
      'a-2-x',
      'a-2-y',
      'b-1-x',
      'b-1-y',
      'b-2-x',
      'b-2-y',
    ]);
    expect(stepsOf(execution, 'Count').map((step) => [step.scope, (bodyOf(step) as { seen: string[] }).seen])).toEqual([
      ['Outer[0]/Mid[0]', ['a-1-x', 'a-1-y']],
      ['Outer[0]/Mid[1]', ['a-2-x', 'a-2-y']],
      ['Outer[1]/Mid[0]', ['b-1-x', 'b-1-y']],
      ['Outer[1]/Mid[1]', ['b-2-x', 'b-2-y']],
    ]);
    expect(stepsOf(execution, 'Finish')[0]!.scope).toBe('');
    // Distinct nodes, not runs: seven nodes ran.
    expect(execution.nodesExecuted).toBe(7);
  });
});

describe('validating loops', () => {
  const registry = createNodeRegistry();
  const problems = (flow: FlowDocumentInput) => {
    const result = validateFlow(flow, registry);
    return result.ok ? [] : result.problems.map((problem) => [problem.code, problem.path]);
  };

  it('rejects a body wired into the D side or entered from outside, and a Collect outside any loop', () => {
    //  Before ──▶ Each ─L─▶ Body ──▶ After ◀─D─ Each   (After is in the body and on the D side)
    //     └──────────────────▶ Body                     (Body entered from outside)
    //  Loose (collect, in no loop)
    expect(
      problems({
        name: 'leaks',
        nodes: [
          endpoint('b', 'Before', { url: 'http://x' }),
          { id: 'f', name: 'Each', type: 'for', config: { items: [] } },
          endpoint('in', 'Body', { url: 'http://x' }),
          endpoint('a', 'After', { url: 'http://x' }),
          { id: 'l', name: 'Loose', type: 'collect', config: { source: 1 } },
        ],
        connections: [wire('b', 'f'), wire('f', 'in', 'L'), wire('in', 'a'), wire('f', 'a', 'D'), wire('b', 'in')],
      }),
    ).toEqual([
      ['LOOP_BODY_LEAK', 'connections[3]'],
      ['LOOP_BODY_LEAK', 'connections[4]'],
      ['GATHERER_OUTSIDE_LOOP', 'nodes[4].type'],
    ]);
  });

  it('lets nodes after a loop read its Collect, but not the other nodes of its body', () => {
    const flow = (reads: string): FlowDocumentInput => ({
      name: 'reads',
      nodes: [
        { id: 'f', name: 'Each', type: 'for', config: { items: [1, 2] } },
        endpoint('c', 'Call', { url: 'http://x/{{forNode.item}}' }),
        { id: 'g', name: 'Gather', type: 'collect', config: { source: '{{Call.statusCode}}' } },
        endpoint('a', 'After', { url: `http://x/{{${reads}}}` }),
      ],
      connections: [wire('f', 'c', 'L'), wire('c', 'g'), wire('f', 'a', 'D')],
    });
    expect(problems(flow('ResponseBinding.Gather.body.items'))).toEqual([]);
    expect(problems(flow('Call.statusCode'))).toEqual([['NOT_UPSTREAM', 'nodes[3].config.url']]);
  });

  it("lets a flow's outputs read its top level and its loops' gatherers, not a node inside a body", () => {
    const flow = (output: string): FlowDocumentInput => ({
      name: 'outputs',
      outputs: { value: `{{${output}}}` },
      nodes: [
        { id: 'f', name: 'Each', type: 'for', config: { items: [1, 2] } },
        endpoint('c', 'Call', { url: 'http://x/{{forNode.item}}' }),
        { id: 'g', name: 'Gather', type: 'collect', config: { source: '{{Call.statusCode}}' } },
      ],
      connections: [wire('f', 'c', 'L'), wire('c', 'g')],
    });
    expect(problems(flow('ResponseBinding.Gather.body.items'))).toEqual([]);
    expect(problems(flow('Each.response.body.iterations'))).toEqual([]);
    expect(problems(flow('Call.statusCode'))).toEqual([['NOT_UPSTREAM', 'outputs.value']]);
  });
});
