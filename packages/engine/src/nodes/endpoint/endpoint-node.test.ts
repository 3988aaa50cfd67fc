import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DemoApi, startDemoApi } from '../../../../../examples/demo-api/server.js';
import { createUndiciHttpClient } from '../../http/undici-http-client.js';
import { createEgressPolicy } from '../../http/egress-policy.js';
import type { HttpClient } from '../../http/types.js';
import { type EndpointConfig, endpointConfigSchema } from '../../model/configs/endpoint-config.js';
import type { NodeContext, NodeResult } from '../types.js';
import { endpointNode } from './index.js';
import type { RequestTrace, ResponseTrace } from './trace.js';

/*
 * The node runs against real servers: the demo API, and a small raw server for the responses the
 * demo API never gives (binary bodies, Retry-After dates, odd content types).
 */

const SECRET = 's3cr3t-token-value';
const START = Date.parse('2026-01-01T00:00:00Z');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x10]);

let api: DemoApi;
let raw: Server;
let rawUrl: string;
let http: HttpClient;
let refusedUrl: string;

beforeAll(async () => {
  api = await startDemoApi();
  // The test server listens on loopback, which a developer's local policy allows.
  http = createUndiciHttpClient({ egress: createEgressPolicy({ mode: 'local' }) });
  raw = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://raw');
    request.resume();
    switch (url.pathname) {
      case '/png':
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end(PNG);
        return;
      case '/xml':
        response.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' });
        response.end('<ok>yes</ok>');
        return;
      case '/bad-json':
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"unterminated": ');
        return;
      case '/problem':
        response.writeHead(200, { 'content-type': 'application/problem+json' });
        response.end('{"title":"ok"}');
        return;
      case '/no-content':
        response.writeHead(204);
        response.end();
        return;
      case '/retry-after':
        response.writeHead(Number(url.searchParams.get('status') ?? 429), {
          'retry-after': url.searchParams.get('value') ?? '1',
        });
        response.end();
        return;
      case '/cookies':
        response.setHeader('set-cookie', [`session=${SECRET}; HttpOnly`, 'theme=dark']);
        response.setHeader('content-type', 'text/plain');
        response.end('cookies set');
        return;
      default:
        response.writeHead(404);
        response.end();
    }
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;

  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  refusedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/gone`;
  await new Promise((resolve) => probe.close(resolve));
});

afterAll(async () => {
  await http.close();
  await api.close();
  raw.closeAllConnections();
  await new Promise((resolve) => raw.close(resolve));
});

beforeEach(() => {
  api.reset();
});

/** `{{name}}` from a small map; a string that is exactly one template keeps the value's type. */
function substitute(value: unknown, vars: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const whole = /^\{\{\s*(\w+)\s*\}\}$/.exec(value);
    if (whole) return vars[whole[1]!];
    return value.replace(/\{\{\s*(\w+)\s*\}\}/g, (_match, name: string) => String(vars[name]));
  }
  if (Array.isArray(value)) return value.map((element) => substitute(element, vars));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, element]) => [key, substitute(element, vars)]));
  }
  return value;
}

interface ContextOptions {
  attempt?: number;
  vars?: Record<string, unknown>;
  maxTracedBodyBytes?: number;
  maxResponseBodyBytes?: number;
}

function contextFor(config: Record<string, unknown>, options: ContextOptions = {}): NodeContext<EndpointConfig> {
  const vars = { baseUrl: api.url, rawUrl, token: SECRET, ...options.vars };
  return {
    execution: { id: 'exe_1', tenantId: 'ten_1', flowId: 'flw_1', trigger: { type: 'api' }, inputs: {} },
    node: { id: 'n1', name: 'Call', type: 'endpoint', position: { x: 0, y: 0 }, config },
    config: endpointConfigSchema.parse(config),
    scope: '',
    attempt: options.attempt ?? 1,
    resolve: (value) => substitute(value, vars),
    expressionGlobals: () => ({}),
    idempotencyKey: `exe_1:n1::${options.attempt ?? 1}`,
    redact: (text) => text.replaceAll(SECRET, '[secret]'),
    http,
    sandbox: {
      evaluateBoolean: () => Promise.reject(new Error('the endpoint node runs no scripts')),
    },
    clock: { now: () => START },
    limits: {
      maxResponseBodyBytes: options.maxResponseBodyBytes ?? 10 * 1024 * 1024,
      maxTracedBodyBytes: options.maxTracedBodyBytes ?? 64 * 1024,
    },
    signal: new AbortController().signal,
    subflows: {
      start: () => Promise.reject(new Error('an endpoint starts no subflow')),
      waitFor: () => Promise.reject(new Error('an endpoint starts no subflow')),
    },
    callback: () => {
      throw new Error('an endpoint waits for no callback');
    },
  };
}

function run(config: Record<string, unknown>, options?: ContextOptions): Promise<NodeResult> {
  return endpointNode.execute!(contextFor(config, options));
}

function completed(result: NodeResult) {
  if (result.kind !== 'completed') throw new Error(`expected completed, got ${JSON.stringify(result)}`);
  return result;
}

function failed(result: NodeResult) {
  if (result.kind !== 'failed') throw new Error(`expected failed, got ${JSON.stringify(result)}`);
  return result;
}

function requestTrace(result: NodeResult): RequestTrace {
  return result.trace?.request as RequestTrace;
}

function responseTrace(result: NodeResult): ResponseTrace {
  return result.trace?.response as ResponseTrace;
}

// The demo API echoes what it received; reading it back checks what really went on the wire.
type Echo = { method: string; query: Record<string, unknown>; headers: Record<string, string>; body: unknown };
const echoOf = (result: NodeResult) => completed(result).output.body as Echo;

describe('endpoint node: its definition', () => {
  it('is the endpoint type with out and error handles', () => {
    expect(endpointNode.type).toBe('endpoint');
    expect(endpointNode.outputHandles(endpointConfigSchema.parse({ url: 'http://x' }))).toEqual(['out', 'error']);
  });
});

describe('endpoint node: building the request', () => {
  it('merges query parameters into a query string already in the URL, repeating array keys', async () => {
    const result = await run({ url: '{{baseUrl}}/echo?a=1&sp=x%20y', query: { b: [1, 2], c: true, d: '{{token}}x' } });
    const echo = echoOf(result);
    expect(echo.query).toEqual({ a: '1', sp: 'x y', b: ['1', '2'], c: 'true', d: `${SECRET}x` });
    expect(result.kind === 'completed' && result.handles).toEqual(['out']);
    expect(requestTrace(result).url).toBe(`${api.url}/echo?a=1&sp=x%20y&b=1&b=2&c=true&d=[secret]x`);
  });

  it('sends a JSON body with application/json and a user-agent', async () => {
    const echo = echoOf(
      await run(
        { method: 'POST', url: '{{baseUrl}}/echo', body: { hello: '{{token}}', n: '{{count}}' } },
        { vars: { count: 3 } },
      ),
    );
    expect(echo.method).toBe('POST');
    expect(echo.body).toEqual({ hello: SECRET, n: 3 });
    expect(echo.headers['content-type']).toBe('application/json');
    expect(echo.headers['user-agent']).toBe('svc/0.1');
  });

  it("keeps the user's content-type and user-agent headers, whatever their case", async () => {
    const echo = echoOf(
      await run({
        method: 'POST',
        url: '{{baseUrl}}/echo',
        headers: { 'Content-Type': 'application/vnd.api+json', 'User-Agent': 'tester/1' },
        body: { data: { type: 'orders' } },
      }),
    );
    expect(echo.headers['content-type']).toBe('application/vnd.api+json');
    expect(echo.headers['user-agent']).toBe('tester/1');
    expect(echo.body).toEqual({ data: { type: 'orders' } });
  });

  it('sends a JSON body given as a string as it is, not quoted again', async () => {
    const echo = echoOf(await run({ method: 'POST', url: '{{baseUrl}}/echo', body: '{"raw":true}' }));
    expect(echo.body).toEqual({ raw: true });
  });

  it('sends a text body as plain text', async () => {
    const echo = echoOf(await run({ method: 'POST', url: '{{baseUrl}}/echo', bodyType: 'text', body: 'plain words' }));
    expect(echo.body).toBe('plain words');
    expect(echo.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('sends a form body url-encoded, repeating array fields', async () => {
    const echo = echoOf(
      await run({
        method: 'POST',
        url: '{{baseUrl}}/echo',
        bodyType: 'form',
        body: { name: 'Ada L', tags: ['a', 'b'], n: 2 },
      }),
    );
    expect(echo.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(echo.body).toBe('name=Ada+L&tags=a&tags=b&n=2');
  });

  it('sends no body with GET', async () => {
    const echo = echoOf(await run({ method: 'GET', url: '{{baseUrl}}/echo', body: { ignored: true } }));
    expect(echo.body).toBeNull();
    expect(echo.headers['content-type']).toBeUndefined();
  });

  it('offers the Idempotency-Key on unsafe methods only, and never over a key the user set', async () => {
    await run({ method: 'POST', url: '{{baseUrl}}/orders', body: { total: 1 } }, { attempt: 2 });
    await run({ method: 'GET', url: '{{baseUrl}}/health' });
    await run({ method: 'POST', url: '{{baseUrl}}/orders', headers: { 'Idempotency-Key': 'mine' }, body: {} });
    await run({ method: 'POST', url: '{{baseUrl}}/orders', idempotencyKey: false, body: {} });
    expect(api.requests.map((request) => request.headers['idempotency-key'])).toEqual([
      'exe_1:n1::2',
      undefined,
      'mine',
      undefined,
    ]);
  });

  it('fails with INVALID_URL, without throwing, when the URL does not parse', async () => {
    const result = failed(await run({ url: '{{nothing}}/orders' }, { vars: { nothing: 'not a url' } }));
    expect(result.error.code).toBe('INVALID_URL');
    expect(result.retryAt).toBeUndefined();
  });

  it('fails with INVALID_URL when a value puts a ".." segment into the path', async () => {
    const result = failed(
      await run({ url: '{{baseUrl}}/orders/{{orderId}}/seen' }, { vars: { orderId: '../../admin?' } }),
    );
    expect(result.error.code).toBe('INVALID_URL');
    expect(result.error.message).toContain('".." segment');
  });

  it('fails with VALIDATION_ERROR when the timeout template resolves to no duration', async () => {
    const result = failed(await run({ url: '{{baseUrl}}/health', timeout: '{{t}}' }, { vars: { t: 'soon' } }));
    expect(result.error.code).toBe('VALIDATION_ERROR');
    expect(result.error.message).toContain('timeout');
  });
});

describe('endpoint node: reading the response', () => {
  it('answers statusCode, lower-case headers and the parsed JSON body', async () => {
    const result = completed(
      await run({ method: 'POST', url: '{{baseUrl}}/customers', body: { name: 'Ada', email: 'a@x.io' } }),
    );
    expect(result.output.statusCode).toBe(201);
    expect(result.output.headers?.['content-type']).toBe('application/json; charset=utf-8');
    expect(result.output.body).toMatchObject({ id: 'cus_1', name: 'Ada' });
    const response = responseTrace(result);
    expect(response.status).toBe(201);
    expect(response.size).toBeGreaterThan(10);
    expect(response.body).toEqual(result.output.body);
    expect(result.trace?.latencyMs).toBeGreaterThan(0);
  });

  it('answers a binary body as base64 with its content type', async () => {
    const body = completed(await run({ url: '{{rawUrl}}/png' })).output.body as { base64: string; contentType: string };
    expect(body.contentType).toBe('image/png');
    expect(Buffer.from(body.base64, 'base64').equals(PNG)).toBe(true);
  });

  it('answers XML as text, +json as JSON, invalid JSON as its text and an empty body as null', async () => {
    expect(completed(await run({ url: '{{rawUrl}}/xml' })).output.body).toBe('<ok>yes</ok>');
    expect(completed(await run({ url: '{{rawUrl}}/problem' })).output.body).toEqual({ title: 'ok' });
    expect(completed(await run({ url: '{{rawUrl}}/bad-json' })).output.body).toBe('{"unterminated": ');
    const empty = completed(await run({ url: '{{rawUrl}}/no-content' }));
    expect(empty.output.statusCode).toBe(204);
    expect(empty.output.body).toBeNull();
  });

  it('fails with TIMEOUT, without throwing, when the answer comes too late', async () => {
    const result = failed(await run({ url: '{{baseUrl}}/slow?ms=400', timeout: '100ms' }));
    expect(result.error).toEqual({ code: 'TIMEOUT', message: `GET ${api.url}/slow?ms=400 timed out after 100 ms` });
    expect(result.retryAt).toBeUndefined();
    expect(requestTrace(result).url).toBe(`${api.url}/slow?ms=400`);
    expect(result.trace?.latencyMs).toBeGreaterThanOrEqual(90);
  });

  it('fails with NETWORK_ERROR, without throwing, when the connection is refused', async () => {
    const result = failed(await run({ url: refusedUrl }));
    expect(result.error.code).toBe('NETWORK_ERROR');
    expect(result.error.message).toContain('ECONNREFUSED');
    expect(result.output).toBeUndefined();
  });
});

describe('endpoint node: assertions', () => {
  it('checks statusCode, latencyMs, the whole body, body paths and headers, and traces each', async () => {
    const assertions = [
      { target: 'statusCode', operator: '==', value: 201 },
      { target: 'latencyMs', operator: '<', value: 5_000 },
      { target: 'body', operator: 'is_not_empty' },
      { target: 'body.id', operator: 'starts_with', value: 'ord_' },
      { target: "body['status']", operator: '==', value: 'created' },
      { target: 'body.items[0].sku', operator: '==', value: 'A-1' },
      { target: 'body.items.length', operator: '==', value: 2 },
      { target: 'headers.Content-Type', operator: 'contains', value: 'application/json' },
      { target: 'body.total', operator: '>=', value: '{{minimum}}' },
    ];
    const result = completed(
      await run(
        {
          method: 'POST',
          url: '{{baseUrl}}/orders',
          body: {
            items: [
              { sku: 'A-1', price: 5 },
              { sku: 'B', price: 7 },
            ],
          },
          assertions,
        },
        { vars: { minimum: 12 } },
      ),
    );
    const traced = responseTrace(result).assertions!;
    expect(traced.map((assertion) => assertion.passed)).toEqual(assertions.map(() => true));
    expect(traced[0]).toEqual({ target: 'statusCode', operator: '==', expected: 201, actual: 201, passed: true });
    expect(traced[5]!.actual).toBe('A-1');
    expect(traced[7]!.actual).toBe('application/json; charset=utf-8');
    expect(traced[8]).toMatchObject({ expected: 12, actual: 12 });
  });

  it('evaluates every assertion and fails with all the failures in one message', async () => {
    const result = failed(
      await run({
        url: '{{baseUrl}}/health',
        assertions: [
          { target: 'statusCode', operator: '==', value: 201 },
          { target: 'body.status', operator: '==', value: 'DOWN' },
          { target: 'body.uptimeMs', operator: '>=', value: 0 },
          { target: 'headers.x-missing', operator: 'is_not_empty' },
        ],
      }),
    );
    expect(result.error).toEqual({
      code: 'ASSERTION_FAILED',
      message:
        'statusCode == 201 (got 200); body.status == "DOWN" (got "HEALTHY"); headers.x-missing is_not_empty (got undefined)',
    });
    expect(result.output?.statusCode).toBe(200);
    expect(responseTrace(result).assertions!.map((assertion) => assertion.passed)).toEqual([false, false, true, false]);
    expect(result.retryAt).toBeUndefined();
  });

  it('reports a malformed body path as a failed assertion instead of throwing', async () => {
    const result = failed(
      await run({ url: '{{baseUrl}}/health', assertions: [{ target: 'body.items[x]', operator: '==', value: 1 }] }),
    );
    expect(result.error.code).toBe('ASSERTION_FAILED');
    expect(result.error.message).toContain('invalid path');
  });

  it('fails an error status with HTTP_ERROR_STATUS when no assertion looks at the status', async () => {
    const result = failed(
      await run({
        url: '{{baseUrl}}/orders/ord_404',
        assertions: [{ target: 'body.error', operator: 'is_not_empty' }],
      }),
    );
    expect(result.error).toEqual({ code: 'HTTP_ERROR_STATUS', message: `GET ${api.url}/orders/ord_404 answered 404` });
    expect(result.output?.body).toMatchObject({ error: { code: 'ORDER_NOT_FOUND' } });
  });

  it('names the error status first when body assertions fail on it too', async () => {
    const result = failed(
      await run({
        url: '{{baseUrl}}/orders/ord_404',
        assertions: [{ target: 'body.id', operator: '==', value: 'ord_404' }],
      }),
    );
    expect(result.error).toEqual({
      code: 'HTTP_ERROR_STATUS',
      message: `GET ${api.url}/orders/ord_404 answered 404; body.id == "ord_404" (got undefined)`,
    });
  });

  it('lets a statusCode assertion expect an error status', async () => {
    const result = completed(
      await run({
        url: '{{baseUrl}}/orders/ord_404',
        assertions: [
          { target: 'statusCode', operator: '==', value: 404 },
          { target: 'body.error.code', operator: '==', value: 'ORDER_NOT_FOUND' },
        ],
      }),
    );
    expect(result.output.statusCode).toBe(404);
  });
});

describe('endpoint node: retry decisions', () => {
  const retry = {
    maxAttempts: 3,
    initialDelay: '100ms',
    maxDelay: '5s',
    factor: 2,
    onStatuses: [502, 503],
    onNetworkError: true,
  };

  it('asks for another attempt after the backoff on a listed status, until attempts run out', async () => {
    const config = { url: '{{baseUrl}}/fail?status=502&times=10&key=backoff', retry };
    const first = failed(await run(config, { attempt: 1 }));
    expect(first.error).toEqual({
      code: 'HTTP_ERROR_STATUS',
      message: `GET ${api.url}/fail?status=502&times=10&key=backoff answered 502`,
    });
    expect(first.retryAt).toBe(START + 100);
    expect(first.output?.statusCode).toBe(502);
    expect(failed(await run(config, { attempt: 2 })).retryAt).toBe(START + 200);
    const last = failed(await run(config, { attempt: 3 }));
    expect(last.retryAt).toBeUndefined();
    expect(last.error.code).toBe('HTTP_ERROR_STATUS');
  });

  it('retries a listed status that fails a statusCode assertion', async () => {
    const result = failed(
      await run({
        url: '{{baseUrl}}/fail?status=502&times=5&key=asserted',
        retry,
        assertions: [{ target: 'statusCode', operator: '==', value: 200 }],
      }),
    );
    expect(result.error).toEqual({ code: 'ASSERTION_FAILED', message: 'statusCode == 200 (got 502)' });
    expect(result.retryAt).toBe(START + 100);
  });

  it('caps the backoff at maxDelay', async () => {
    const config = {
      url: '{{baseUrl}}/fail?status=502&times=10&key=cap',
      retry: { ...retry, maxAttempts: 10, initialDelay: '1s', factor: 10 },
    };
    expect(failed(await run(config, { attempt: 2 })).retryAt).toBe(START + 5_000);
  });

  it('does not retry a status outside onStatuses, nor without a retry config', async () => {
    expect(failed(await run({ url: '{{baseUrl}}/fail?status=500&times=5&key=x', retry })).retryAt).toBeUndefined();
    expect(failed(await run({ url: '{{baseUrl}}/fail?status=503&times=5&key=y' })).retryAt).toBeUndefined();
  });

  it('does not retry a listed status that a statusCode assertion expects', async () => {
    const result = await run({
      url: '{{baseUrl}}/fail?status=503&times=5&key=z',
      retry,
      assertions: [{ target: 'statusCode', operator: '==', value: 503 }],
    });
    expect(completed(result).output.statusCode).toBe(503);
  });

  it('succeeds once the demo API stops failing', async () => {
    const config = { url: '{{baseUrl}}/fail?status=503&times=1&key=heal', retry };
    expect(failed(await run(config, { attempt: 1 })).retryAt).toBeDefined();
    expect(completed(await run(config, { attempt: 2 })).output.body).toEqual({ ok: true, attempts: 2 });
  });

  it('follows Retry-After in seconds instead of the backoff', async () => {
    const zero = failed(await run({ url: '{{baseUrl}}/fail?status=503&times=5&key=ra', retry }));
    expect(zero.retryAt).toBe(START);
    const seven = failed(await run({ url: '{{rawUrl}}/retry-after?status=503&value=7', retry }));
    expect(seven.retryAt).toBe(START + 7_000);
  });

  it('follows Retry-After as an HTTP date, and caps it at an hour', async () => {
    const date = new Date(START + 30_000).toUTCString();
    const dated = failed(
      await run({ url: `{{rawUrl}}/retry-after?status=503&value=${encodeURIComponent(date)}`, retry }),
    );
    expect(dated.retryAt).toBe(START + 30_000);
    const far = failed(await run({ url: '{{rawUrl}}/retry-after?status=503&value=86400', retry }));
    expect(far.retryAt).toBe(START + 3_600_000);
  });

  it('retries a refused connection and a timeout when onNetworkError is on', async () => {
    const refused = failed(await run({ url: refusedUrl, retry }, { attempt: 2 }));
    expect(refused.error.code).toBe('NETWORK_ERROR');
    expect(refused.retryAt).toBe(START + 200);
    const late = failed(await run({ url: '{{baseUrl}}/slow?ms=400', timeout: 50, retry }));
    expect(late.error.code).toBe('TIMEOUT');
    expect(late.retryAt).toBe(START + 100);
  });

  it('does not retry network errors when onNetworkError is off or attempts are used up', async () => {
    expect(failed(await run({ url: refusedUrl, retry: { ...retry, onNetworkError: false } })).retryAt).toBeUndefined();
    expect(failed(await run({ url: refusedUrl, retry }, { attempt: 3 })).retryAt).toBeUndefined();
  });
});

describe('endpoint node: the trace', () => {
  it('masks credential headers, keeping the scheme, and redacts secrets from every request string', async () => {
    const result = completed(
      await run({
        method: 'POST',
        url: '{{baseUrl}}/echo?key={{token}}',
        headers: {
          Authorization: 'Bearer {{token}}',
          'X-Api-Key': 'plain-key',
          Cookie: 'a=b',
          'X-Note': 'uses {{token}}',
        },
        body: { password: '{{token}}', nested: ['{{token}}'] },
      }),
    );
    const request = requestTrace(result);
    expect(request.url).toBe(`${api.url}/echo?key=[secret]`);
    expect(request.headers).toMatchObject({
      authorization: 'Bearer ***',
      'x-api-key': '***',
      cookie: '***',
      'x-note': 'uses [secret]',
    });
    expect(request.body).toEqual({ password: '[secret]', nested: ['[secret]'] });
    expect(JSON.stringify(result.trace)).not.toContain(SECRET);
    // The output is data for later nodes: it keeps what the server really answered.
    expect(echoOf(result).headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it('masks set-cookie in the traced response headers', async () => {
    const result = completed(await run({ url: '{{rawUrl}}/cookies' }));
    expect(responseTrace(result).headers['set-cookie']).toBe('***');
    expect(result.output.headers?.['set-cookie']).toBe(`session=${SECRET}; HttpOnly\ntheme=dark`);
  });

  it('cuts traced bodies to maxTracedBodyBytes with a marker while the output keeps the whole body', async () => {
    const big = 'x'.repeat(5_000);
    const result = completed(
      await run({ method: 'POST', url: '{{baseUrl}}/echo', body: { big } }, { maxTracedBodyBytes: 100 }),
    );
    const request = requestTrace(result);
    expect(request.bodyTruncated).toBe(true);
    expect(request.body).toBe(`{"big":"${'x'.repeat(92)}…[truncated: first 100 of 5010 bytes]`);
    const response = responseTrace(result);
    expect(response.bodyTruncated).toBe(true);
    expect(typeof response.body).toBe('string');
    expect((response.body as string).startsWith('{"method":"POST"')).toBe(true);
    expect(response.body as string).toContain('…[truncated: first 100 of');
    expect((echoOf(result).body as { big: string }).big).toBe(big);
  });

  it('cuts the output body at maxResponseBodyBytes and says so in the trace', async () => {
    const result = completed(
      await run(
        { method: 'POST', url: '{{baseUrl}}/echo', body: { big: 'y'.repeat(5_000) } },
        { maxResponseBodyBytes: 200 },
      ),
    );
    expect(responseTrace(result).size).toBe(200);
    expect(responseTrace(result).bodyTruncated).toBe(true);
    // 200 bytes of JSON do not parse: the body is kept as the text received.
    expect(typeof result.output.body).toBe('string');
    expect((result.output.body as string).length).toBe(200);
  });

  it('traces a cut binary body as base64 of a prefix', async () => {
    const result = completed(await run({ url: '{{rawUrl}}/png' }, { maxTracedBodyBytes: 8 }));
    const traced = responseTrace(result).body as { base64: string; truncated: string };
    expect(Buffer.from(traced.base64, 'base64').equals(PNG.subarray(0, 6))).toBe(true);
    expect(traced.truncated).toContain(`of ${PNG.length} bytes`);
  });
});
