import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowDocumentInput } from '@svc/engine';
import { startHarness, stepsByName, type Harness } from './helpers/harness.js';
import { endpoint, wire } from './helpers/flow-parts.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('running a chain of endpoints', () => {
  //  CreateCustomer ──▶ CreateOrder ──▶ GetOrder
  const chain: FlowDocumentInput = {
    name: 'order-chain',
    variables: { region: 'eu' },
    nodes: [
      endpoint('n1', 'CreateCustomer', {
        method: 'POST',
        url: '{{env.baseUrl}}/customers',
        body: { name: 'Ada', email: 'ada@example.com', region: '{{flowVars.region}}' },
        assertions: [{ target: 'statusCode', operator: '==', value: 201 }],
      }),
      endpoint('n2', 'CreateOrder', {
        method: 'POST',
        url: '{{env.baseUrl}}/orders',
        body: { customerId: '{{CreateCustomer.response.body.id}}', total: 42 },
      }),
      endpoint('n3', 'GetOrder', {
        url: '{{env.baseUrl}}/orders/{{ResponseBinding.CreateOrder.body.id}}',
        assertions: [
          { target: 'body.customerId', operator: 'starts_with', value: 'cus_' },
          { target: 'body.total', operator: '==', value: 42 },
        ],
      }),
    ],
    connections: [wire('n1', 'n2'), wire('n2', 'n3')],
  };

  it('passes values from one response into the next request and completes', async () => {
    const execution = await h.run(chain);
    expect(execution.status).toBe('Completed');
    expect(execution.nodesExecuted).toBe(3);
    expect(execution.nodesSkipped).toBe(0);
    expect(execution.stepsExecuted).toBe(3);
    const steps = stepsByName(execution);
    const customerId = (steps.CreateCustomer!.output as { body: { id: string } }).body.id;
    const orderId = (steps.CreateOrder!.output as { body: { id: string } }).body.id;
    const orderRequest = h.api.requests.find(
      (request) =>
        request.method === 'POST' &&
        request.path === '/orders' &&
        (request.body as { customerId?: string })?.customerId === customerId,
    );
    expect(orderRequest).toBeDefined();
    expect((steps.GetOrder!.request as { url: string }).url).toBe(`${h.api.url}/orders/${orderId}`);
    expect(execution.executionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(execution.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('records each step with its request, response, latency and the version that ran', async () => {
    const execution = await h.run({ ...chain, name: 'order-chain-trace' });
    const step = stepsByName(execution).CreateCustomer!;
    expect(step.status).toBe('Completed');
    expect(step.attempt).toBe(1);
    expect(step.latencyMs).toBeGreaterThan(0);
    expect(step.request).toMatchObject({ method: 'POST', body: { name: 'Ada', region: 'eu' } });
    expect(step.response).toMatchObject({ status: 201 });
    expect(execution.flowVersion).toBe(1);
  });

  it('fails with the node and the expression named when a referenced value is missing', async () => {
    const execution = await h.run({
      name: 'missing-path',
      nodes: [
        endpoint('n1', 'Health', { url: '{{env.baseUrl}}/health' }),
        endpoint('n2', 'UseIt', { url: '{{env.baseUrl}}/orders/{{Health.response.body.orderId}}' }),
      ],
      connections: [wire('n1', 'n2')],
    });
    expect(execution.status).toBe('Failed');
    expect(execution.error).toMatchObject({ code: 'EXPRESSION_UNRESOLVED', nodeName: 'UseIt' });
    expect(execution.error!.message).toContain('Health.response.body.orderId');
  });
});

describe('switch branches', () => {
  //                 ┌─case-0─▶ Big ───┐
  //  Order ─▶ Route ┤                 ├─▶ Done
  //                 └─default─▶ Small ┘
  const branching = (total: number): FlowDocumentInput => ({
    name: `branching-${total}`,
    nodes: [
      endpoint('order', 'Order', { method: 'POST', url: '{{env.baseUrl}}/orders', body: { total } }),
      {
        id: 'route',
        name: 'Route',
        type: 'switch',
        config: { cases: [{ label: 'big', source: '{{Order.response.body.total}}', operator: '>', value: 100 }] },
      },
      endpoint('big', 'Big', { url: '{{env.baseUrl}}/echo?kind=big' }),
      endpoint('small', 'Small', { url: '{{env.baseUrl}}/echo?kind=small' }),
      endpoint('done', 'Done', { url: '{{env.baseUrl}}/health' }),
    ],
    connections: [
      wire('order', 'route'),
      wire('route', 'big', 'case-0'),
      wire('route', 'small', 'default'),
      wire('big', 'done'),
      wire('small', 'done'),
    ],
  });

  it('runs the first matching case and skips the branch it did not choose', async () => {
    const execution = await h.run(branching(250));
    const steps = stepsByName(execution);
    expect(execution.status).toBe('Completed');
    expect(steps.Route!.branch).toBe('big');
    expect(steps.Big!.status).toBe('Completed');
    expect(steps.Small).toMatchObject({ status: 'Skipped', skipKind: 'condition' });
    expect(steps.Done!.status).toBe('Completed');
    expect(execution.nodesSkipped).toBe(1);
    expect(execution.nodesExecuted).toBe(4);
  });

  it('takes default when no case matches, and the convergent node still runs', async () => {
    const execution = await h.run(branching(5));
    const steps = stepsByName(execution);
    expect(steps.Route!.branch).toBe('default');
    expect(steps.Big).toMatchObject({ status: 'Skipped', skipKind: 'condition' });
    expect(steps.Small!.status).toBe('Completed');
    expect(steps.Done!.status).toBe('Completed');
  });

  it('spreads a skip down a whole branch', async () => {
    //  A ─▶ Route ─case-0─▶ B ─▶ C      (no default: nothing matches, B and C are skipped)
    const execution = await h.run({
      name: 'skip-spreads',
      nodes: [
        endpoint('a', 'A', { url: '{{env.baseUrl}}/health' }),
        {
          id: 'r',
          name: 'Route',
          type: 'switch',
          config: { default: false, cases: [{ source: '{{A.statusCode}}', operator: '==', value: 500 }] },
        },
        endpoint('b', 'B', { url: '{{env.baseUrl}}/health' }),
        endpoint('c', 'C', { url: '{{env.baseUrl}}/health' }),
      ],
      connections: [wire('a', 'r'), wire('r', 'b', 'case-0'), wire('b', 'c')],
    });
    const steps = stepsByName(execution);
    expect(execution.status).toBe('Completed');
    expect(steps.B).toMatchObject({ status: 'Skipped', skipKind: 'condition' });
    expect(steps.C).toMatchObject({ status: 'Skipped', skipKind: 'condition' });
  });

  it('evaluates JavaScript cases in the sandbox', async () => {
    const execution = await h.run({
      name: 'expression-switch',
      variables: { region: 'eu' },
      nodes: [
        endpoint('o', 'Order', { method: 'POST', url: '{{env.baseUrl}}/orders', body: { total: 150 } }),
        {
          id: 's',
          name: 'Route',
          type: 'switch',
          config: {
            mode: 'expression',
            cases: [
              { label: 'us', expression: "flowVars.region === 'us'" },
              {
                label: 'big-eu',
                expression:
                  "ResponseBinding.Order.body.total > 100 && flowVars.region === 'eu' && Order.statusCode === 201",
              },
            ],
          },
        },
        endpoint('x', 'Big', { url: '{{env.baseUrl}}/health' }),
      ],
      connections: [wire('o', 's'), wire('s', 'x', 'case-1')],
    });
    expect(execution.status).toBe('Completed');
    expect(stepsByName(execution).Route!.branch).toBe('big-eu');
    expect(stepsByName(execution).Big!.status).toBe('Completed');
  });

  it('fails only the switch node when its expression runs forever', async () => {
    const execution = await h.run({
      name: 'runaway-expression',
      nodes: [
        {
          id: 's',
          name: 'Route',
          type: 'switch',
          config: { mode: 'expression', cases: [{ expression: '(() => { while (true) {} })()' }] },
        },
      ],
      connections: [],
    });
    expect(execution.status).toBe('Failed');
    expect(execution.error).toMatchObject({ code: 'SANDBOX_TIMEOUT', nodeName: 'Route' });
  });
});

describe('failures', () => {
  it('routes a failure to the error handle when it is wired', async () => {
    //  Broken ─error─▶ Recover
    //        └─out──▶ Next      (skipped)
    const execution = await h.run({
      name: 'error-route',
      nodes: [
        endpoint('a', 'Broken', { url: '{{env.baseUrl}}/fail?status=500&times=1&key=error-route' }),
        endpoint('b', 'Recover', { url: '{{env.baseUrl}}/echo?status={{Broken.statusCode}}' }),
        endpoint('c', 'Next', { url: '{{env.baseUrl}}/health' }),
      ],
      connections: [wire('a', 'b', 'error'), wire('a', 'c')],
    });
    const steps = stepsByName(execution);
    expect(execution.status).toBe('Completed');
    expect(steps.Broken).toMatchObject({ status: 'Failed', error: { code: 'HTTP_ERROR_STATUS' } });
    expect(steps.Recover!.status).toBe('Completed');
    expect((steps.Recover!.request as { url: string }).url).toContain('status=500');
    expect(steps.Next).toMatchObject({ status: 'Skipped', skipKind: 'condition' });
  });

  it('fails the execution and marks what did not run as skipped by failure', async () => {
    const execution = await h.run({
      name: 'assertion-fails',
      nodes: [
        endpoint('a', 'Health', {
          url: '{{env.baseUrl}}/health',
          assertions: [{ target: 'body.status', operator: '==', value: 'DOWN' }],
        }),
        endpoint('b', 'After', { url: '{{env.baseUrl}}/health' }),
      ],
      connections: [wire('a', 'b')],
    });
    const steps = stepsByName(execution);
    expect(execution.status).toBe('Failed');
    expect(execution.error).toMatchObject({ code: 'ASSERTION_FAILED', nodeName: 'Health' });
    expect(steps.After).toMatchObject({ status: 'Skipped', skipKind: 'failure' });
    expect(execution.nodesSkipped).toBe(1);
  });

  it('retries on the configured statuses and records every attempt', async () => {
    const execution = await h.run({
      name: 'retrying',
      nodes: [
        endpoint('a', 'Flaky', {
          method: 'POST',
          url: '{{env.baseUrl}}/fail?status=503&times=2&key=retrying',
          retry: { maxAttempts: 3, initialDelay: '10ms', maxDelay: '50ms' },
        }),
      ],
      connections: [],
    });
    expect(execution.status).toBe('Completed');
    expect(execution.stepsExecuted).toBe(3);
    expect(execution.nodesExecuted).toBe(1);
    expect(execution.steps!.map((step) => [step.attempt, step.status])).toEqual([
      [1, 'Failed'],
      [2, 'Failed'],
      [3, 'Completed'],
    ]);
    const keys = h.api.requests
      .filter((request) => request.query.key === 'retrying')
      .map((request) => request.headers['idempotency-key']);
    // Each attempt offers its own key: executionId:nodeId:scope:attempt.
    expect(keys).toEqual([1, 2, 3].map((attempt) => `${execution.executionId}:a::${attempt}`));
  });
});

describe('concurrency and variables', () => {
  it('runs independent branches at the same time', async () => {
    //        ┌─▶ Left  (waits until Right has arrived too)
    //  Start ┤
    //        └─▶ Right (waits until Left has arrived too)
    const execution = await h.run({
      name: 'parallel',
      nodes: [
        { id: 'v', name: 'Start', type: 'variables', config: { set: { barrier: 'p1' } } },
        endpoint('l', 'Left', { url: '{{env.baseUrl}}/barrier?key={{flowVars.barrier}}&parties=2', timeout: '3s' }),
        endpoint('r', 'Right', { url: '{{env.baseUrl}}/barrier?key={{flowVars.barrier}}&parties=2', timeout: '3s' }),
      ],
      connections: [wire('v', 'l'), wire('v', 'r')],
    });
    expect(execution.status).toBe('Completed');
    expect(stepsByName(execution).Left!.response).toMatchObject({ status: 200 });
  });

  it('sets flow variables that later nodes read', async () => {
    const execution = await h.run({
      name: 'variables',
      nodes: [
        endpoint('o', 'Order', { method: 'POST', url: '{{env.baseUrl}}/orders', body: { total: 7 } }),
        {
          id: 'v',
          name: 'Remember',
          type: 'variables',
          config: { set: { orderId: '{{Order.response.body.id}}', count: 2 } },
        },
        endpoint('g', 'Get', { url: '{{env.baseUrl}}/orders/{{flowVars.orderId}}' }),
      ],
      connections: [wire('o', 'v'), wire('v', 'g')],
    });
    expect(execution.status).toBe('Completed');
    const orderId = (stepsByName(execution).Order!.output as { body: { id: string } }).body.id;
    expect((stepsByName(execution).Get!.request as { url: string }).url).toBe(`${h.api.url}/orders/${orderId}`);
  });

  it('waits on a delay node and then continues', async () => {
    const execution = await h.run({
      name: 'delay',
      nodes: [
        { id: 'd', name: 'Pause', type: 'delay', config: { duration: '50ms' } },
        endpoint('g', 'After', { url: '{{env.baseUrl}}/health' }),
      ],
      connections: [wire('d', 'g')],
    });
    expect(execution.status).toBe('Completed');
    const pause = stepsByName(execution).Pause!;
    expect(pause.status).toBe('Completed');
    expect(Date.parse(pause.endedAt!) - Date.parse(pause.startedAt)).toBeGreaterThanOrEqual(45);
    // The step's latency is the wait, not the instant it took to notice it was over.
    expect(pause.latencyMs).toBeGreaterThanOrEqual(45);
  });

  it('keeps secrets out of the trace', async () => {
    const execution = await h.run(
      {
        name: 'secrets',
        nodes: [
          endpoint('a', 'Call', {
            url: '{{env.baseUrl}}/echo?token={{env.apiToken}}',
            headers: { 'x-trace': 'key {{env.apiToken}}' },
          }),
        ],
        connections: [],
      },
      { apiToken: 'sk-live-very-secret' },
    );
    expect(execution.status).toBe('Completed');
    expect(JSON.stringify(execution.steps![0]!.request)).not.toContain('sk-live-very-secret');
    const seen = h.api.requests.find((request) => request.query.token !== undefined);
    expect(seen?.query.token).toBe('sk-live-very-secret');
  });

  it('keeps secrets out of the trace in the encoded forms a URL and an echo carry them', async () => {
    const password = 'correct horse battery staple';
    const apiKey = 'pässwörd-123';
    const execution = await h.run(
      {
        name: 'encoded-secrets',
        nodes: [
          endpoint('a', 'Login', {
            url: '{{env.baseUrl}}/echo?password={{env.password}}&key={{env.apiKey}}',
            // A form body encodes a space as `+`.
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: 'password={{env.password}}',
          }),
        ],
        connections: [],
      },
      { password, apiKey },
    );
    expect(execution.status).toBe('Completed');
    const seen = h.api.requests.find((request) => request.query.password !== undefined);
    // The server got the real values, which the echo sent back in its body.
    expect(seen?.query).toMatchObject({ password, key: apiKey });
    const step = JSON.stringify(execution.steps![0]);
    for (const form of [
      password,
      apiKey,
      encodeURIComponent(password),
      encodeURIComponent(apiKey),
      encodeURIComponent(apiKey).toLowerCase(),
      'correct+horse+battery+staple',
      JSON.stringify(apiKey).slice(1, -1),
    ])
      expect(step).not.toContain(form);
    expect(step).toContain('***');
  });
});
