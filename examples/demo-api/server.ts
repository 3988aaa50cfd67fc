import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCallbackSender } from './callbacks.js';

/**
 * A small JSON API that the examples, tests and the throughput benchmark run against. It has no
 * dependencies and does no per-request logging, so it costs the benchmark as little as possible.
 */
export interface DemoApiOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** How many `GET /jobs/:id` polls answer a not-yet-finished status before the job ends. */
  jobPollsUntilDone?: number;
  /** Record requests into `requests` (default true). A benchmark turns this off. */
  recordRequests?: boolean;
  /** Only about this many of the latest requests are kept (default 10,000). */
  maxRecordedRequests?: number;
  /** Each answer waits this long first, as a real API's network and work would (default 0). */
  latencyMs?: number;
  /** The time jobs with `durationMs` are measured by (default `Date.now`); tests pass a clock they move. */
  now?: () => number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** Lower-case names; includes `idempotency-key` when the client sent one. */
  headers: Record<string, string>;
  /** Parsed JSON, the raw text when it is not JSON, or null when there was none. */
  body: unknown;
  /** Milliseconds since the epoch when the request arrived. */
  at: number;
}

export interface DemoApi {
  url: string;
  port: number;
  close(): Promise<void>;
  requests: RecordedRequest[];
  /** Forgets every customer, order, job, failure counter and recorded request. */
  reset(): void;
}

interface Customer {
  id: string;
  name: string;
  email: string;
  createdAt: string;
}

interface Order {
  id: string;
  status: 'created' | 'shipped';
  total: number;
  customerId: string | null;
  parentOrderId: string | null;
  items: unknown[];
  createdAt: string;
}

interface Job {
  jobId: string;
  polls: number;
  /** Done after this many polls, unless `doneAt` says when. */
  pollsUntilDone: number;
  /** Milliseconds since the epoch when the job is done (a job with `durationMs`). */
  doneAt: number | null;
  fail: boolean;
  input: unknown;
}

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const MAX_BODY_BYTES = 1024 * 1024;
const MAX_SLOW_MS = 60_000;
const MAX_JOB_MS = 3_600_000;

export async function startDemoApi(options: DemoApiOptions = {}): Promise<DemoApi> {
  const jobPollsUntilDone = options.jobPollsUntilDone ?? 2;
  const recordRequests = options.recordRequests ?? true;
  const maxRecorded = options.maxRecordedRequests ?? 10_000;
  const latencyMs = options.latencyMs ?? 0;
  const now = options.now ?? Date.now;
  const startedAt = Date.now();

  const state = {
    customers: new Map<string, Customer>(),
    orders: new Map<string, Order>(),
    jobs: new Map<string, Job>(),
    failures: new Map<string, number>(),
    barriers: new Map<string, (() => void)[]>(),
    /** Alerts posted to `POST /alerts` (a health-check suite's webhook channel), the latest 100. */
    alerts: [] as { headers: Record<string, string>; body: unknown; at: string }[],
    counters: { customer: 0, order: 0, job: 0 },
  };
  const requests: RecordedRequest[] = [];
  const callbacks = createCallbackSender();

  function route(
    method: string,
    path: string,
    query: URLSearchParams,
    body: unknown,
    request: IncomingMessage,
    response: ServerResponse,
  ): Reply | Promise<Reply> {
    const segments = path.split('/').filter((segment) => segment !== '');
    const [resource, id, action] = segments;

    if (resource === 'health' && segments.length === 1 && method === 'GET') {
      return { status: 200, body: { status: 'HEALTHY', uptimeMs: Date.now() - startedAt } };
    }

    if (resource === 'customers') {
      if (segments.length === 1 && method === 'POST') return createCustomer(body);
      if (segments.length === 1 && method === 'GET')
        return { status: 200, body: { items: [...state.customers.values()] } };
      if (segments.length === 2 && method === 'GET') {
        const customer = state.customers.get(id!);
        if (!customer) throw new HttpProblem(404, 'CUSTOMER_NOT_FOUND', `customer ${id} does not exist`);
        return { status: 200, body: customer };
      }
    }

    if (resource === 'orders') {
      if (segments.length === 1 && method === 'POST') return createOrder(body);
      if (segments.length === 2 && method === 'GET') return { status: 200, body: findOrder(id!) };
      if (segments.length === 3 && action === 'ship' && method === 'POST') {
        const order = findOrder(id!);
        order.status = 'shipped';
        return { status: 200, body: { id: order.id, status: order.status } };
      }
    }

    if (resource === 'jobs') {
      if (segments.length === 1 && method === 'POST') return createJob(body, query, request);
      if (segments.length === 2 && method === 'GET') return pollJob(id!);
    }

    if (resource === 'fail' && segments.length === 1 && (method === 'GET' || method === 'POST')) {
      return failSomeTimes(query);
    }

    if (resource === 'slow' && segments.length === 1 && method === 'GET') {
      const ms = Math.min(MAX_SLOW_MS, Math.max(0, integerParam(query, 'ms', 300)));
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ status: 200, body: { sleptMs: ms } }), ms);
        // A client that gave up should not keep a timer alive until `close()`; after the answer
        // is written this is a no-op.
        response.once('close', () => clearTimeout(timer));
      });
    }

    if (resource === 'barrier' && segments.length === 1 && method === 'GET') {
      return meetAtBarrier(query, response);
    }

    if (resource === 'echo' && segments.length === 1 && (method === 'GET' || method === 'POST')) {
      return { status: 200, body: { method, path, query: queryObject(query), headers: headerObject(request), body } };
    }

    if (resource === 'alerts' && segments.length === 1) {
      if (method === 'POST') {
        state.alerts.push({ headers: headerObject(request), body, at: new Date().toISOString() });
        if (state.alerts.length > 100) state.alerts.shift();
        return { status: 202, body: { received: state.alerts.length } };
      }
      if (method === 'GET') return { status: 200, body: { items: state.alerts } };
    }

    const callback = callbacks.route(method, segments, body);
    if (callback) return callback;

    throw new HttpProblem(404, 'NOT_FOUND', `no route for ${method} ${path}`);
  }

  function createCustomer(body: unknown): Reply {
    const input = objectBody(body);
    if (typeof input.name !== 'string' || input.name === '') {
      throw new HttpProblem(400, 'VALIDATION_ERROR', 'name is required');
    }
    if (typeof input.email !== 'string' || !input.email.includes('@')) {
      throw new HttpProblem(400, 'VALIDATION_ERROR', 'email must be an email address');
    }
    state.counters.customer += 1;
    const customer: Customer = {
      id: `cus_${state.counters.customer}`,
      name: input.name,
      email: input.email,
      createdAt: new Date().toISOString(),
    };
    state.customers.set(customer.id, customer);
    return { status: 201, body: customer };
  }

  function createOrder(body: unknown): Reply {
    const input = objectBody(body);
    const items = Array.isArray(input.items) ? input.items : [];
    const total = typeof input.total === 'number' ? input.total : sumItems(items);
    state.counters.order += 1;
    const order: Order = {
      id: `ord_${state.counters.order}`,
      status: 'created',
      total,
      customerId: typeof input.customerId === 'string' ? input.customerId : null,
      parentOrderId: typeof input.parentOrderId === 'string' ? input.parentOrderId : null,
      items,
      createdAt: new Date().toISOString(),
    };
    state.orders.set(order.id, order);
    return { status: 201, body: order };
  }

  function findOrder(id: string): Order {
    const order = state.orders.get(id);
    if (!order) throw new HttpProblem(404, 'ORDER_NOT_FOUND', `order ${id} does not exist`);
    return order;
  }

  function createJob(body: unknown, query: URLSearchParams, request: IncomingMessage): Reply {
    const input =
      body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    // `durationMs` (body or query) makes a job that takes that long; otherwise it is done after
    // `pollsUntilDone` polls.
    const durationMs = typeof input.durationMs === 'number' ? input.durationMs : integerParam(query, 'durationMs', -1);
    state.counters.job += 1;
    const job: Job = {
      jobId: `job_${state.counters.job}`,
      polls: 0,
      pollsUntilDone: typeof input.pollsUntilDone === 'number' ? input.pollsUntilDone : jobPollsUntilDone,
      doneAt: durationMs >= 0 ? now() + Math.min(durationMs, MAX_JOB_MS) : null,
      fail: query.get('fail') === '1' || input.fail === true,
      input: body,
    };
    state.jobs.set(job.jobId, job);
    // Built from the Host the client used, so the URL works from wherever the client stands.
    const statusUrl = `http://${request.headers.host ?? `127.0.0.1:${port}`}/jobs/${job.jobId}`;
    return { status: 202, body: { jobId: job.jobId, status: 'PENDING', statusUrl }, headers: { location: statusUrl } };
  }

  function pollJob(id: string): Reply {
    const job = state.jobs.get(id);
    if (!job) throw new HttpProblem(404, 'JOB_NOT_FOUND', `job ${id} does not exist`);
    job.polls += 1;
    const running = job.doneAt === null ? job.polls <= job.pollsUntilDone : now() < job.doneAt;
    if (running) {
      return {
        status: 200,
        body: { jobId: job.jobId, status: job.polls === 1 ? 'PENDING' : 'IN_PROGRESS', result: null },
      };
    }
    if (job.fail) {
      return {
        status: 200,
        body: {
          jobId: job.jobId,
          status: 'FAILED',
          result: null,
          error: { code: 'JOB_FAILED', message: 'the job failed' },
        },
      };
    }
    return {
      status: 200,
      body: { jobId: job.jobId, status: 'COMPLETED', result: { ok: true, polls: job.polls, input: job.input } },
    };
  }

  /**
   * Holds each request until `parties` requests with the same `key` have arrived, then answers
   * them all: proof that a client sent them at the same time. Gives up with 408 after `ms`.
   */
  function meetAtBarrier(query: URLSearchParams, response: ServerResponse): Promise<Reply> {
    const key = query.get('key') ?? 'default';
    const parties = Math.max(1, integerParam(query, 'parties', 2));
    const ms = Math.min(MAX_SLOW_MS, Math.max(0, integerParam(query, 'ms', 2_000)));
    return new Promise((resolve) => {
      const waiting = state.barriers.get(key) ?? [];
      const release = () => resolve({ status: 200, body: { key, parties } });
      waiting.push(release);
      state.barriers.set(key, waiting);
      if (waiting.length >= parties) {
        state.barriers.delete(key);
        for (const waiter of waiting) waiter();
        return;
      }
      const timer = setTimeout(() => {
        const left = state.barriers.get(key)?.filter((waiter) => waiter !== release);
        if (left && left.length > 0) state.barriers.set(key, left);
        else state.barriers.delete(key);
        resolve({
          status: 408,
          body: { error: { code: 'BARRIER_TIMEOUT', message: `only ${waiting.length} of ${parties} arrived` } },
        });
      }, ms);
      response.once('close', () => clearTimeout(timer));
    });
  }

  function failSomeTimes(query: URLSearchParams): Reply {
    const status = integerParam(query, 'status', 503);
    if (status < 100 || status > 599)
      throw new HttpProblem(400, 'VALIDATION_ERROR', 'status must be between 100 and 599');
    const times = integerParam(query, 'times', 1);
    const key = query.get('key') ?? 'default';
    const attempts = (state.failures.get(key) ?? 0) + 1;
    state.failures.set(key, attempts);
    if (attempts <= times) {
      return {
        status,
        body: { error: { code: 'INJECTED_FAILURE', message: `failure ${attempts} of ${times} for key ${key}` } },
        // 0 so that clients honouring Retry-After (the endpoint node does) retry at once in tests.
        headers: status === 429 || status === 503 ? { 'retry-after': '0' } : {},
      };
    }
    return { status: 200, body: { ok: true, attempts } };
  }

  function record(request: IncomingMessage, path: string, query: URLSearchParams, body: unknown): void {
    requests.push({
      method: request.method ?? 'GET',
      path,
      query: queryObject(query),
      headers: headerObject(request),
      body,
      at: Date.now(),
    });
    // Trimmed in batches so that a long run does not shift the whole array on every request.
    if (requests.length > maxRecorded + Math.ceil(maxRecorded / 10)) requests.splice(0, requests.length - maxRecorded);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const rawUrl = request.url ?? '/';
    const queryStart = rawUrl.indexOf('?');
    const path = queryStart === -1 ? rawUrl : rawUrl.slice(0, queryStart);
    const query = new URLSearchParams(queryStart === -1 ? '' : rawUrl.slice(queryStart + 1));
    let reply: Reply;
    try {
      const text = await readText(request);
      let body: unknown = null;
      let malformed = false;
      if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
          malformed = isJsonRequest(request);
        }
      }
      if (recordRequests) record(request, path, query, body);
      if (malformed) throw new HttpProblem(400, 'MALFORMED_JSON', 'the request body is not valid JSON');
      reply = await route(method, path, query, body, request, response);
    } catch (error) {
      reply =
        error instanceof HttpProblem
          ? { status: error.status, body: { error: { code: error.code, message: error.message } } }
          : { status: 500, body: { error: { code: 'INTERNAL_ERROR', message: String(error) } } };
    }
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    if (response.destroyed) return;
    const payload = reply.body === undefined ? '' : JSON.stringify(reply.body);
    response.writeHead(reply.status, {
      ...reply.headers,
      ...(payload === '' ? {} : { 'content-type': 'application/json; charset=utf-8' }),
      'content-length': Buffer.byteLength(payload),
    });
    response.end(payload);
  }

  const server = createServer((request, response) => {
    void handle(request, response);
  });
  // Longer than any client's idle timeout, so the client, not the server, closes idle sockets
  // (a server-side close races with a request the client is just sending).
  server.keepAliveTimeout = 30_000;
  server.headersTimeout = 35_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port, address, family } = server.address() as AddressInfo;
  const host = family === 'IPv6' ? `[${address}]` : address;

  return {
    url: `http://${host}:${port}`,
    port,
    requests,
    reset() {
      state.customers.clear();
      state.orders.clear();
      state.jobs.clear();
      state.failures.clear();
      state.alerts.length = 0;
      state.counters = { customer: 0, order: 0, job: 0 };
      requests.length = 0;
      callbacks.cancelAll();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        callbacks.cancelAll();
        server.close((error) => (error ? reject(error) : resolve()));
        // Idle kept-alive sockets would otherwise hold `close()` open for keepAliveTimeout.
        server.closeIdleConnections();
        setImmediate(() => server.closeAllConnections());
      }),
  };
}

function readText(request: IncomingMessage): Promise<string> {
  // Most benchmark traffic is bodiless GETs: skip the stream machinery for them.
  if (request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined) {
    request.resume();
    return Promise.resolve('');
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpProblem(413, 'PAYLOAD_TOO_LARGE', `request bodies are limited to ${MAX_BODY_BYTES} bytes`));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function isJsonRequest(request: IncomingMessage): boolean {
  const type = request.headers['content-type'];
  // Routes take JSON; a body sent without a content type is taken to be meant as JSON too.
  return type === undefined || /^application\/([\w.+-]*\+)?json\b/i.test(type);
}

function objectBody(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpProblem(400, 'VALIDATION_ERROR', 'the request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

function sumItems(items: unknown[]): number {
  let total = 0;
  for (const item of items) {
    if (item === null || typeof item !== 'object') continue;
    const { price, quantity } = item as { price?: unknown; quantity?: unknown };
    if (typeof price === 'number') total += price * (typeof quantity === 'number' ? quantity : 1);
  }
  return Math.round(total * 100) / 100;
}

function integerParam(query: URLSearchParams, name: string, fallback: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw new HttpProblem(400, 'VALIDATION_ERROR', `${name} must be an integer`);
  return value;
}

function queryObject(query: URLSearchParams): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const [key, value] of query) {
    const previous = result[key];
    result[key] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return result;
}

function headerObject(request: IncomingMessage): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) result[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
}
