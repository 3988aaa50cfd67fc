import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock, type ExecutionView } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { endpoint, wire } from './helpers/flow-parts.js';
import { startHarness, stepsByName, TENANT, type Harness } from './helpers/harness.js';

/*
 * Endpoint polling against real local servers: the demo API's jobs (PENDING → IN_PROGRESS →
 * COMPLETED, or FAILED), and a small status server of the test's own where a test needs answers
 * the demo API never gives (a relative Location, a 503 in the middle, a clock that jumps).
 */

let h: Harness | undefined;
let server: StatusServer | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  await server?.close();
  server = undefined;
});

const PENDING = { target: 'body.status', operator: 'EQUALS', values: ['PENDING', 'IN_PROGRESS'] };
const DONE = { target: 'body.status', operator: 'EQUALS', values: ['COMPLETED', 'SUCCESS'] };

/** A job submitted to the demo API and polled at its `jobId`, with the given polling fields. */
const submitJob = (polling: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  endpoint('s', 'SubmitJob', {
    method: 'POST',
    url: '{{env.baseUrl}}/jobs',
    body: { report: 'daily' },
    polling: {
      interval: '10ms',
      maxDuration: '10s',
      request: { method: 'GET', url: '{{env.baseUrl}}/jobs/{{self.response.body.jobId}}' },
      ...polling,
    },
    ...extra,
  });

//  SubmitJob (POST /jobs, then GET /jobs/{id} until done) ──▶ Report (reads the job's result)
const jobFlow = (polling: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name: 'job',
  nodes: [
    submitJob(polling, extra),
    { id: 'r', name: 'Report', type: 'variables', config: { set: { result: '{{SubmitJob.response.body.result?}}' } } },
  ],
  connections: [wire('s', 'r')],
});

interface PollingTrace {
  polls: number;
  submit: { status: number; body: unknown; latencyMs: number };
  first: { attempt: number; status?: number; latencyMs: number; seen?: Record<string, unknown>; error?: unknown };
  last: { attempt: number; status?: number; latencyMs: number; seen?: Record<string, unknown>; error?: unknown };
  request: { method: string; url: string; headers: Record<string, string> };
}

function pollingOf(execution: ExecutionView, name = 'SubmitJob'): PollingTrace {
  return (stepsByName(execution)[name]!.response as { polling: PollingTrace }).polling;
}

type Handler = (
  request: IncomingMessage,
  url: URL,
) => { status: number; body?: unknown; headers?: Record<string, string> };

interface StatusServer {
  url: string;
  seen: { method: string; path: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

async function startStatusServer(handler: Handler): Promise<StatusServer> {
  const seen: StatusServer['seen'] = [];
  const http: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://status');
      seen.push({ method: request.method ?? '', path: url.pathname, headers: request.headers });
      const reply = handler(request, url);
      response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      response.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

describe('endpoint polling', () => {
  it('polls until a stopWhen rule matches; the last status response is the output downstream reads', async () => {
    h = await startHarness();
    const execution = await h.run(jobFlow({ continueWhen: [PENDING], stopWhen: [DONE] }));

    expect(execution.status).toBe('Completed');
    const steps = stepsByName(execution);
    expect(steps.SubmitJob).toMatchObject({ status: 'Completed', attempt: 1 });
    expect(steps.SubmitJob!.output).toMatchObject({ statusCode: 200, body: { status: 'COMPLETED' } });
    expect(steps.Report!.output).toMatchObject({
      body: { result: { ok: true, polls: 3, input: { report: 'daily' } } },
    });
    // One POST, then PENDING, IN_PROGRESS, COMPLETED.
    expect(h.api.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /jobs',
      'GET /jobs/job_1',
      'GET /jobs/job_1',
      'GET /jobs/job_1',
    ]);
    expect(h.api.requests[0]!.headers['idempotency-key']).toMatch(/:s::1$/);

    // One step for the whole polling: the submit, the first and last polls, and a count.
    expect(execution.steps!.filter((step) => step.nodeName === 'SubmitJob')).toHaveLength(1);
    expect(steps.SubmitJob!.request).toMatchObject({ method: 'POST', url: `${h.api.url}/jobs` });
    const polling = pollingOf(execution);
    expect(polling.polls).toBe(3);
    expect(polling.submit).toMatchObject({ status: 202, body: { jobId: 'job_1', status: 'PENDING' } });
    expect(polling.first).toMatchObject({ attempt: 1, status: 200, seen: { 'body.status': 'PENDING' } });
    expect(polling.last).toMatchObject({ attempt: 3, status: 200, seen: { 'body.status': 'COMPLETED' } });
    expect(polling.last.latencyMs).toBeGreaterThanOrEqual(0);
    expect(polling.request).toMatchObject({ method: 'GET', url: `${h.api.url}/jobs/job_1` });
    expect(steps.SubmitJob!.response).toMatchObject({ status: 200, body: { status: 'COMPLETED' } });
  });

  it('applies the node assertions to the final status response', async () => {
    h = await startHarness();
    const passing = await h.run(
      jobFlow(
        { continueWhen: [PENDING], stopWhen: [DONE] },
        { assertions: [{ target: 'body.result.ok', operator: '==', value: true }] },
      ),
    );
    expect(passing.status).toBe('Completed');
    expect(stepsByName(passing).SubmitJob!.response).toMatchObject({
      assertions: [{ target: 'body.result.ok', passed: true, actual: true }],
    });

    // A statusCode assertion of 200 would fail on the 202 of the submit: it is not the submit it judges.
    const failing = await h.run(
      jobFlow(
        { continueWhen: [PENDING], stopWhen: [DONE] },
        {
          assertions: [
            { target: 'statusCode', operator: '==', value: 200 },
            { target: 'body.result.polls', operator: '>', value: 10 },
          ],
        },
      ),
    );
    expect(failing.status).toBe('Failed');
    expect(stepsByName(failing).SubmitJob!.error).toEqual({
      code: 'ASSERTION_FAILED',
      message: 'body.result.polls > 10 (got 3)',
    });
  });

  it('with only stopWhen, keeps polling through states no rule names', async () => {
    h = await startHarness();
    const execution = await h.run(jobFlow({ stopWhen: [DONE] }));
    expect(execution.status).toBe('Completed');
    expect(pollingOf(execution).polls).toBe(3);
  });

  it('with only continueWhen, completes at the first status it does not match', async () => {
    h = await startHarness();
    const execution = await h.run(jobFlow({ continueWhen: [PENDING] }), {});
    expect(execution.status).toBe('Completed');
    expect(stepsByName(execution).SubmitJob!.output).toMatchObject({ body: { status: 'COMPLETED' } });

    // A job that ends FAILED ends the polling too: continueWhen alone has no opinion on it.
    const failed = await h.run(
      jobFlow(
        { continueWhen: [PENDING], request: { url: '{{env.baseUrl}}/jobs/{{self.response.body.jobId}}' } },
        {
          url: '{{env.baseUrl}}/jobs?fail=1',
        },
      ),
    );
    expect(failed.status).toBe('Completed');
    expect(stepsByName(failed).SubmitJob!.output).toMatchObject({ body: { status: 'FAILED' } });
  });

  it('fails at once with POLLING_UNEXPECTED_STATE when neither table matches, and routes to error', async () => {
    //  SubmitJob ──error──▶ Alert (reads the failing job's status)
    h = await startHarness();
    const flow = {
      name: 'job-fails',
      nodes: [
        submitJob({ continueWhen: [PENDING], stopWhen: [DONE] }, { url: '{{env.baseUrl}}/jobs?fail=1' }),
        {
          id: 'a',
          name: 'Alert',
          type: 'variables',
          config: { set: { jobStatus: '{{SubmitJob.response.body.status}}' } },
        },
      ],
      connections: [wire('s', 'a', 'error')],
    };
    const routed = await h.run(flow);
    expect(routed.status).toBe('Completed');
    const step = stepsByName(routed).SubmitJob!;
    expect(step.status).toBe('Failed');
    expect(step.error!.code).toBe('POLLING_UNEXPECTED_STATE');
    expect(step.error!.message).toContain('body.status is "FAILED", which no rule expects');
    expect(step.error!.message).toContain('continueWhen body.status EQUALS ["PENDING","IN_PROGRESS"]');
    expect(stepsByName(routed).Alert!.output).toMatchObject({ body: { jobStatus: 'FAILED' } });
    // FAILED was the third poll: nothing was polled after it.
    expect(h.api.requests.filter((request) => request.method === 'GET')).toHaveLength(3);

    const unrouted = await h.run({ ...flow, nodes: [flow.nodes[0]!], connections: [] });
    expect(unrouted.status).toBe('Failed');
    expect(unrouted.error).toMatchObject({ code: 'POLLING_UNEXPECTED_STATE', nodeName: 'SubmitJob' });
  });

  it('fails with POLLING_TIMEOUT when maxDuration passes, measured by the engine clock', async () => {
    // The status server moves the engine's clock 20 minutes per poll: an hour of polling takes
    // three requests and a few milliseconds.
    const clock = createManualClock();
    server = await startStatusServer((request, url) => {
      if (request.method === 'POST') return { status: 202, body: { jobId: 'j1' } };
      clock.advance(20 * 60_000);
      return { status: 200, body: { jobId: url.pathname.split('/')[2], status: 'IN_PROGRESS' } };
    });
    h = await startHarness({ clock });
    const execution = await h.run(jobFlow({ maxDuration: '1h', continueWhen: [PENDING], stopWhen: [DONE] }), {
      baseUrl: server.url,
    });
    expect(execution.status).toBe('Failed');
    const step = stepsByName(execution).SubmitJob!;
    expect(step.error).toEqual({
      code: 'POLLING_TIMEOUT',
      message: 'the job was not done after 1h of polling (3 status requests; the last: body.status is "IN_PROGRESS")',
    });
    expect(server.seen.filter((seen) => seen.method === 'GET')).toHaveLength(3);
    expect(step.output).toMatchObject({ body: { status: 'IN_PROGRESS' } });
    expect(pollingOf(execution)).toMatchObject({
      polls: 3,
      last: { attempt: 3, seen: { 'body.status': 'IN_PROGRESS' } },
    });
  });

  it('binds self to the submit response in the status URL and headers; a relative Location is read against the submit URL', async () => {
    server = await startStatusServer((request, url) => {
      if (request.method === 'POST')
        return { status: 202, body: { jobId: 'j7', token: 't-7' }, headers: { location: '/status/j7' } };
      return { status: 200, body: { path: url.pathname, status: 'COMPLETED' } };
    });
    h = await startHarness();
    const execution = await h.run(
      jobFlow({
        stopWhen: [DONE],
        request: {
          url: "{{self.response.headers['location']}}",
          query: { expand: '{{self.statusCode}}' },
          headers: { 'X-Job': '{{self.response.body.jobId}}', Authorization: 'Bearer {{self.body.token}}' },
        },
      }),
      { baseUrl: `${server.url}/api` },
    );
    expect(execution.status).toBe('Completed');
    const poll = server.seen.find((seen) => seen.method === 'GET')!;
    expect(poll.path).toBe('/status/j7');
    expect(poll.headers['x-job']).toBe('j7');
    expect(poll.headers.authorization).toBe('Bearer t-7');
    expect(pollingOf(execution).request).toMatchObject({
      url: `${server.url}/status/j7?expand=202`,
      headers: { 'x-job': 'j7', authorization: 'Bearer ***' },
    });
  });

  it('refuses a status URL that is not http(s), wherever the submit response points', async () => {
    server = await startStatusServer(() => ({ status: 202, body: {}, headers: { location: 'file:///etc/passwd' } }));
    h = await startHarness();
    const execution = await h.run(
      jobFlow({ stopWhen: [DONE], request: { url: "{{self.response.headers['location']}}" } }),
      {
        baseUrl: server.url,
      },
    );
    expect(execution.status).toBe('Failed');
    expect(stepsByName(execution).SubmitJob!.error).toMatchObject({
      code: 'INVALID_URL',
      message: expect.stringContaining('only http and https URLs can be requested'),
    });
    expect(server.seen).toHaveLength(1);
  });

  it('checks templated durations before the submit: a bad one starts no job', async () => {
    h = await startHarness();
    const execution = await h.run({
      ...jobFlow({ interval: '{{flowVars.every}}', stopWhen: [DONE] }),
      variables: { every: '1ms' },
    });
    expect(execution.status).toBe('Failed');
    expect(stepsByName(execution).SubmitJob!.error).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'polling.interval must be between 10ms and 1d, got "1ms"',
    });
    expect(h.api.requests).toHaveLength(0);
  });

  it('counts a failed status request per the retry settings, and fails with its error without them', async () => {
    let polls = 0;
    server = await startStatusServer((request) => {
      if (request.method === 'POST') return { status: 202, body: { jobId: 'j1' } };
      polls += 1;
      if (polls === 2) return { status: 503, body: { error: 'busy' } };
      return { status: 200, body: { status: polls >= 3 ? 'COMPLETED' : 'PENDING' } };
    });
    h = await startHarness();
    const retried = await h.run(
      jobFlow(
        { continueWhen: [PENDING], stopWhen: [DONE] },
        { retry: { maxAttempts: 2, initialDelay: '10ms', onStatuses: [503] } },
      ),
      { baseUrl: server.url },
    );
    expect(retried.status).toBe('Completed');
    expect(pollingOf(retried)).toMatchObject({ polls: 3, last: { attempt: 3, status: 200 } });
    expect(server.seen.filter((seen) => seen.method === 'POST')).toHaveLength(1);

    polls = 0;
    const unretried = await h.run(jobFlow({ continueWhen: [PENDING], stopWhen: [DONE] }), { baseUrl: server.url });
    expect(unretried.status).toBe('Failed');
    const step = stepsByName(unretried).SubmitJob!;
    expect(step.error).toEqual({
      code: 'HTTP_ERROR_STATUS',
      message: `polling GET ${server.url}/jobs/j1 answered 503`,
    });
    expect(pollingOf(unretried)).toMatchObject({ polls: 2, last: { attempt: 2, status: 503 } });
  });

  it('fails the node with the network error of a status request that gets no answer', async () => {
    h = await startHarness();
    const closed = await startStatusServer(() => ({ status: 200 }));
    const deadUrl = closed.url;
    await closed.close();
    const execution = await h.run(
      jobFlow({ stopWhen: [DONE], request: { url: `${deadUrl}/jobs/{{self.response.body.jobId}}` } }),
    );
    expect(execution.status).toBe('Failed');
    const step = stepsByName(execution).SubmitJob!;
    expect(step.error!.code).toBe('NETWORK_ERROR');
    expect(step.error!.message).toContain(`polling: GET ${deadUrl}/jobs/job_1`);
    expect(pollingOf(execution).last).toMatchObject({ attempt: 1, error: { code: 'NETWORK_ERROR' } });
  });

  it('lets a statusCode rule decide: a 404 that means the job is gone can be the end', async () => {
    server = await startStatusServer((request) =>
      request.method === 'POST' ? { status: 202, body: { jobId: 'j1' } } : { status: 404, body: { error: 'gone' } },
    );
    h = await startHarness();
    const execution = await h.run(jobFlow({ stopWhen: [{ target: 'statusCode', operator: '==', value: 404 }] }), {
      baseUrl: server.url,
    });
    expect(execution.status).toBe('Completed');
    expect(stepsByName(execution).SubmitJob!.output).toMatchObject({ statusCode: 404 });
  });

  it('does not poll when the submit fails, and polls nothing when polling is off', async () => {
    h = await startHarness();
    const failing = await h.run(jobFlow({ stopWhen: [DONE] }, { url: '{{env.baseUrl}}/fail?status=500&times=1' }));
    expect(failing.status).toBe('Failed');
    expect(stepsByName(failing).SubmitJob!.error!.code).toBe('HTTP_ERROR_STATUS');
    expect(h.api.requests.map((request) => request.path)).toEqual(['/fail']);

    const off = await h.run(jobFlow({ enabled: false, stopWhen: [DONE] }));
    expect(off.status).toBe('Completed');
    expect(stepsByName(off).SubmitJob!.output).toMatchObject({ statusCode: 202 });
    expect(h.api.requests.filter((request) => request.method === 'GET')).toHaveLength(0);
  });

  it('keeps a long polling sleep in the store, not in a process, and finishes it there', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    h = await startHarness({ store, releaseWaitsLongerThanMs: 100, pollIntervalMs: 25 });
    h.engine.startWorker();
    const flow = await h.engine.flows.create(
      TENANT,
      jobFlow({ interval: '400ms', continueWhen: [PENDING], stopWhen: [DONE] }),
    );
    const started = await h.engine.startExecution({ tenantId: TENANT, flowId: flow.id, env: { baseUrl: h.api.url } });

    let waiting = await store.executions.get(TENANT, started.id);
    for (let i = 0; i < 100 && waiting?.leaseOwner !== null; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      waiting = await store.executions.get(TENANT, started.id);
    }
    expect(waiting).toMatchObject({ status: 'Waiting', leaseOwner: null });
    const [step] = await store.executions.listSteps(TENANT, started.id);
    expect(step).toMatchObject({ nodeName: 'SubmitJob', status: 'Waiting' });
    expect(step!.state).toMatchObject({ kind: 'polling', polls: 1, submit: { output: { statusCode: 202 } } });

    const done = await h.engine.waitForExecution(TENANT, started.id, 10_000);
    expect(done.status).toBe('Completed');
    expect(pollingOf(done)).toMatchObject({ polls: 3 });
    expect(h.api.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
    await store.close();
  });
});

describe('saving a polling flow', () => {
  const problemsOf = async (node: Record<string, unknown>, more: Record<string, unknown>[] = []) => {
    h ??= await startHarness();
    try {
      await h.engine.flows.create(TENANT, { name: 'bad-polling', nodes: [node, ...more], connections: [] });
    } catch (error) {
      expect(error).toMatchObject({ code: 'VALIDATION_ERROR' });
      return (error as { details: { problems: { code: string; path: string; message: string }[] } }).details.problems;
    }
    throw new Error('the flow saved');
  };

  it('refuses a bad interval or maxDuration, naming its path', async () => {
    const problems = await problemsOf(submitJob({ interval: 'soon', maxDuration: '30d', stopWhen: [DONE] }));
    expect(problems.map((problem) => problem.path)).toEqual([
      'nodes[0].config.polling.interval',
      'nodes[0].config.polling.maxDuration',
    ]);
    const tooFast = await problemsOf(submitJob({ interval: '1ms', maxDuration: '8d', stopWhen: [DONE] }));
    expect(tooFast).toEqual([
      expect.objectContaining({
        path: 'nodes[0].config.polling.interval',
        message: 'expected a duration between 10ms and 1d',
      }),
      expect.objectContaining({ path: 'nodes[0].config.polling.maxDuration' }),
    ]);
  });

  it('refuses polling without rules, a rule without values, and an unknown operator', async () => {
    const problems = await problemsOf(
      submitJob({
        stopWhen: [],
        continueWhen: [],
      }),
    );
    expect(problems).toEqual([
      expect.objectContaining({
        path: 'nodes[0].config.polling.stopWhen',
        message: expect.stringContaining('needs a stopWhen or continueWhen rule'),
      }),
    ]);
    const rules = await problemsOf(
      submitJob({
        continueWhen: [{ target: 'body.status', operator: 'EQUALS' }],
        stopWhen: [
          { target: 'body.status', operator: 'IS', values: ['DONE'] },
          { target: 'status', operator: 'EXISTS' },
        ],
      }),
    );
    expect(rules.map((problem) => problem.path)).toEqual([
      'nodes[0].config.polling.continueWhen[0].values',
      'nodes[0].config.polling.stopWhen[0].operator',
      'nodes[0].config.polling.stopWhen[1].target',
    ]);
  });

  it('accepts self only inside polling.request', async () => {
    const problems = await problemsOf(
      submitJob(
        { stopWhen: [{ ...DONE, values: ['{{self.response.body.status}}'] }] },
        { headers: { 'X-Job': '{{self.response.body.jobId}}' } },
      ),
      [{ id: 'v', name: 'After', type: 'variables', config: { set: { id: '{{self.response.body.jobId}}' } } }],
    );
    expect(problems.map((problem) => [problem.code, problem.path])).toEqual([
      ['INVALID_SELF_REFERENCE', 'nodes[0].config.polling.stopWhen[0].values[0]'],
      ['INVALID_SELF_REFERENCE', 'nodes[0].config.headers["X-Job"]'],
      ['INVALID_SELF_REFERENCE', 'nodes[1].config.set.id'],
    ]);
    expect(problems[0]!.message).toBe(
      '"self" is readable in polling.request only; elsewhere read the node by its name',
    );

    // The same templates in polling.request save.
    const saved = await h!.engine.flows.create(TENANT, {
      name: 'good-polling',
      nodes: [
        submitJob({
          stopWhen: [DONE],
          request: { url: "{{self.response.headers['location']}}", headers: { 'X-Job': '{{self.body.jobId}}' } },
        }),
      ],
      connections: [],
    });
    expect(saved.version).toBe(1);
  });
});
