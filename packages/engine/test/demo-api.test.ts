import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DemoApi, startDemoApi } from '../../../examples/demo-api/server.js';

let api: DemoApi;

beforeAll(async () => {
  api = await startDemoApi();
});

afterAll(async () => {
  await api.close();
});

beforeEach(() => {
  api.reset();
});

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${api.url}${path}`, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? null : (JSON.parse(text) as any) };
}

describe('demo API', () => {
  it('listens on a free port of 127.0.0.1 and answers health', async () => {
    expect(api.url).toBe(`http://127.0.0.1:${api.port}`);
    const health = await call('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('HEALTHY');
    expect(typeof health.body.uptimeMs).toBe('number');
  });

  it('creates, lists and reads customers, numbering them from cus_1', async () => {
    const created = await call('POST', '/customers', { name: 'Ada', email: 'ada@example.com' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 'cus_1', name: 'Ada', email: 'ada@example.com' });
    expect(Number.isNaN(Date.parse(created.body.createdAt))).toBe(false);
    expect((await call('GET', '/customers')).body.items).toHaveLength(1);
    expect((await call('GET', '/customers/cus_1')).body.name).toBe('Ada');
    const missing = await call('GET', '/customers/cus_9');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('CUSTOMER_NOT_FOUND');
    expect((await call('POST', '/customers', { name: 'No email' })).status).toBe(400);
  });

  it('creates, reads and ships orders', async () => {
    const created = await call('POST', '/orders', { customerId: 'cus_1', total: 42.5, parentOrderId: 'ord_0' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: 'ord_1',
      status: 'created',
      total: 42.5,
      customerId: 'cus_1',
      parentOrderId: 'ord_0',
    });
    const fromItems = await call('POST', '/orders', { items: [{ price: 2.5, quantity: 2 }, { price: 1 }] });
    expect(fromItems.body).toMatchObject({ id: 'ord_2', total: 6, customerId: null, parentOrderId: null });
    expect((await call('GET', '/orders/ord_1')).body.total).toBe(42.5);
    expect((await call('GET', '/orders/ord_404')).status).toBe(404);
    const shipped = await call('POST', '/orders/ord_1/ship');
    expect(shipped).toMatchObject({ status: 200, body: { id: 'ord_1', status: 'shipped' } });
    expect((await call('GET', '/orders/ord_1')).body.status).toBe('shipped');
  });

  it('walks a job through PENDING and IN_PROGRESS to COMPLETED, or FAILED when asked', async () => {
    const submitted = await call('POST', '/jobs', { report: 'daily' });
    expect(submitted.status).toBe(202);
    expect(submitted.body.jobId).toBe('job_1');
    expect(submitted.body.statusUrl).toBe(`${api.url}/jobs/job_1`);
    expect(submitted.headers.get('location')).toBe(submitted.body.statusUrl);
    const statuses: string[] = [];
    for (let poll = 0; poll < 4; poll += 1) statuses.push((await call('GET', '/jobs/job_1')).body.status);
    expect(statuses).toEqual(['PENDING', 'IN_PROGRESS', 'COMPLETED', 'COMPLETED']);
    expect((await call('GET', '/jobs/job_1')).body.result).toMatchObject({ ok: true, input: { report: 'daily' } });

    await call('POST', '/jobs?fail=1');
    const failing: string[] = [];
    for (let poll = 0; poll < 3; poll += 1) failing.push((await call('GET', '/jobs/job_2')).body.status);
    expect(failing).toEqual(['PENDING', 'IN_PROGRESS', 'FAILED']);
    expect((await call('GET', '/jobs/job_404')).status).toBe(404);
  });

  it('runs a job with durationMs for that long, whatever the number of polls', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const timed = await startDemoApi({ now: () => now });
    const send = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${timed.url}${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    try {
      const submitted = await send('POST', '/jobs', { durationMs: 60_000 });
      expect(submitted).toMatchObject({ status: 202, body: { jobId: 'job_1', status: 'PENDING' } });
      const statuses: string[] = [];
      for (let poll = 0; poll < 3; poll += 1) {
        statuses.push((await send('GET', '/jobs/job_1')).body.status);
        now += 19_000;
      }
      expect(statuses).toEqual(['PENDING', 'IN_PROGRESS', 'IN_PROGRESS']);
      now += 3_000;
      expect((await send('GET', '/jobs/job_1')).body).toMatchObject({ status: 'COMPLETED', result: { ok: true } });

      // The query takes it too, and a failing job ends FAILED with its error.
      await send('POST', '/jobs?durationMs=0&fail=1');
      expect((await send('GET', '/jobs/job_2')).body).toMatchObject({
        status: 'FAILED',
        error: { code: 'JOB_FAILED' },
      });
      expect((await send('POST', '/jobs?durationMs=soon')).status).toBe(400);
    } finally {
      await timed.close();
    }
  });

  it('takes the number of polls before a job ends from its options', async () => {
    const quick = await startDemoApi({ jobPollsUntilDone: 0 });
    try {
      await fetch(`${quick.url}/jobs`, { method: 'POST' });
      const poll = (await (await fetch(`${quick.url}/jobs/job_1`)).json()) as { status: string };
      expect(poll.status).toBe('COMPLETED');
    } finally {
      await quick.close();
    }
  });

  it('fails /fail the asked number of times per key, with Retry-After on 503, then succeeds', async () => {
    const first = await call('GET', '/fail?status=503&times=2&key=a');
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('0');
    expect((await call('GET', '/fail?status=503&times=2&key=b')).status).toBe(503);
    expect((await call('POST', '/fail?status=503&times=2&key=a')).status).toBe(503);
    const third = await call('GET', '/fail?status=503&times=2&key=a');
    expect(third).toMatchObject({ status: 200, body: { ok: true, attempts: 3 } });
    const teapot = await call('GET', '/fail?status=500&times=1&key=c');
    expect(teapot.status).toBe(500);
    expect(teapot.headers.get('retry-after')).toBeNull();
  });

  it('answers /slow after the asked delay', async () => {
    const started = performance.now();
    const slow = await call('GET', '/slow?ms=120');
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
    expect(slow.body).toEqual({ sleptMs: 120 });
  });

  it('echoes method, query, headers and body', async () => {
    const echoed = await call('POST', '/echo?a=1&a=2&b=x', { hello: 'world' }, { 'x-trace': 't1' });
    expect(echoed.body).toMatchObject({
      method: 'POST',
      path: '/echo',
      query: { a: ['1', '2'], b: 'x' },
      body: { hello: 'world' },
    });
    expect(echoed.body.headers['x-trace']).toBe('t1');
    expect((await call('GET', '/echo')).body.method).toBe('GET');
  });

  it('answers 400 to malformed JSON and 404 to unknown routes, in the error envelope', async () => {
    const malformed = await call('POST', '/customers', '{"name": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: 'MALFORMED_JSON' });
    const unknown = await call('GET', '/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    expect((await call('DELETE', '/customers')).status).toBe(404);
  });

  it('records requests with their idempotency key, and reset forgets them and all data', async () => {
    await call('POST', '/orders?src=test', { total: 1 }, { 'Idempotency-Key': 'exe:n1::1' });
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]).toMatchObject({
      method: 'POST',
      path: '/orders',
      query: { src: 'test' },
      body: { total: 1 },
      headers: { 'idempotency-key': 'exe:n1::1' },
    });
    expect(typeof api.requests[0]!.at).toBe('number');
    api.reset();
    expect(api.requests).toHaveLength(0);
    expect((await call('GET', '/orders/ord_1')).status).toBe(404);
    expect((await call('POST', '/orders', { total: 1 })).body.id).toBe('ord_1');
  });

  it('keeps connections alive for at least 10 s', async () => {
    const response = await fetch(`${api.url}/health`);
    await response.arrayBuffer();
    expect(response.headers.get('connection')).toBe('keep-alive');
    const timeout = Number(/timeout=(\d+)/.exec(response.headers.get('keep-alive') ?? '')?.[1]);
    expect(timeout).toBeGreaterThanOrEqual(10);
  });
});
