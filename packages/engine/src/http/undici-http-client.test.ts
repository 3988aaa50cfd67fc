import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SvcError } from '../errors.js';
import type { HttpClient } from './types.js';
import { createUndiciHttpClient } from './undici-http-client.js';
import { createEgressPolicy } from './egress-policy.js';

/** The test server listens on loopback, which a developer's local policy allows. */
const localEgress = createEgressPolicy({ mode: 'local' });

type Handler = (request: IncomingMessage, response: ServerResponse, body: Buffer) => void;

let server: Server;
let baseUrl: string;
let connections = 0;
let handler: Handler = (_request, response) => response.end('ok');
let client: HttpClient;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handler(request, response, Buffer.concat(chunks)));
  });
  server.keepAliveTimeout = 10_000;
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(async () => {
  await client?.close();
  handler = (_request, response) => response.end('ok');
});

async function rejection(promise: Promise<unknown>): Promise<SvcError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SvcError);
    return error as SvcError;
  }
  throw new Error('expected the request to fail');
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('createUndiciHttpClient', () => {
  it('sends method, headers and body and answers status, headers and bytes', async () => {
    client = createUndiciHttpClient({ egress: localEgress });
    handler = (request, response, body) => {
      response.setHeader('content-type', 'application/json');
      response.setHeader('X-Custom', 'Yes');
      response.statusCode = 201;
      response.end(
        JSON.stringify({
          method: request.method,
          url: request.url,
          auth: request.headers.authorization,
          body: body.toString(),
        }),
      );
    };
    const response = await client.send({
      method: 'POST',
      url: `${baseUrl}/things?a=1`,
      headers: { authorization: 'Bearer t', 'content-type': 'text/plain' },
      body: 'hello',
      timeoutMs: 5_000,
    });
    expect(response.status).toBe(201);
    expect(response.headers['x-custom']).toBe('Yes');
    expect(response.truncated).toBe(false);
    expect(response.latencyMs).toBeGreaterThan(0);
    expect(JSON.parse(Buffer.from(response.body).toString())).toEqual({
      method: 'POST',
      url: '/things?a=1',
      auth: 'Bearer t',
      body: 'hello',
    });
  });

  it('reuses one kept-alive socket for sequential requests to the same origin', async () => {
    client = createUndiciHttpClient({ egress: localEgress });
    const before = connections;
    for (let index = 0; index < 5; index += 1) {
      const response = await client.send({ method: 'GET', url: `${baseUrl}/ping`, headers: {}, timeoutMs: 5_000 });
      expect(response.status).toBe(200);
      // Undici hands the socket back to its pool a tick after the body ends; a request sent in
      // that same tick gets a second socket (see the next test), so let the pool settle here.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(connections - before).toBe(1);
  });

  it('keeps back-to-back requests on at most two sockets', async () => {
    client = createUndiciHttpClient({ egress: localEgress });
    const before = connections;
    for (let index = 0; index < 20; index += 1) {
      await client.send({ method: 'GET', url: `${baseUrl}/ping`, headers: {}, timeoutMs: 5_000 });
    }
    expect(connections - before).toBeGreaterThanOrEqual(1);
    expect(connections - before).toBeLessThanOrEqual(2);
  });

  it('opens no more sockets than connectionsPerOrigin allows', async () => {
    client = createUndiciHttpClient({ connectionsPerOrigin: 2, egress: localEgress });
    handler = (_request, response) => setTimeout(() => response.end('late'), 30);
    const before = connections;
    await Promise.all(
      Array.from({ length: 6 }, () =>
        client.send({ method: 'GET', url: `${baseUrl}/`, headers: {}, timeoutMs: 5_000 }),
      ),
    );
    expect(connections - before).toBe(2);
  });

  it('fails with a retryable TIMEOUT when the whole request outlasts timeoutMs', async () => {
    client = createUndiciHttpClient({ egress: localEgress });
    handler = (_request, response) => {
      // Headers go out at once; the body comes too late, so the deadline must cover the body too.
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('partial');
      setTimeout(() => response.end('done'), 500);
    };
    const started = Date.now();
    const error = await rejection(client.send({ method: 'GET', url: `${baseUrl}/slow`, headers: {}, timeoutMs: 100 }));
    expect(Date.now() - started).toBeLessThan(450);
    expect(error.code).toBe('TIMEOUT');
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(`GET ${baseUrl}/slow timed out after 100 ms`);
  });

  it('fails with a retryable NETWORK_ERROR naming the cause when the port refuses connections', async () => {
    client = createUndiciHttpClient({ egress: localEgress });
    const url = `http://127.0.0.1:${await freePort()}/x`;
    const error = await rejection(client.send({ method: 'DELETE', url, headers: {}, timeoutMs: 5_000 }));
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.retryable).toBe(true);
    expect(error.message.startsWith(`DELETE ${url}: `)).toBe(true);
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.cause).toBeDefined();
  });

  it('fails with NETWORK_ERROR when the server drops the connection mid-response', async () => {
    client = createUndiciHttpClient({ egress: localEgress });
    handler = (request) => request.socket.destroy();
    const error = await rejection(
      client.send({ method: 'GET', url: `${baseUrl}/drop`, headers: {}, timeoutMs: 5_000 }),
    );
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.message).toMatch(/UND_ERR_SOCKET|ECONNRESET|other side closed/);
  });

  it('rejects an invalid or non-http URL with INVALID_URL, not retryable', async () => {
    client = createUndiciHttpClient({ egress: localEgress });
    const invalid = await rejection(client.send({ method: 'GET', url: 'not a url', headers: {}, timeoutMs: 1_000 }));
    expect(invalid.code).toBe('INVALID_URL');
    expect(invalid.retryable).toBe(false);
    const ftp = await rejection(
      client.send({ method: 'GET', url: 'ftp://example.com/x', headers: {}, timeoutMs: 1_000 }),
    );
    expect(ftp.code).toBe('INVALID_URL');
  });

  it('stops reading at maxBodyBytes and marks the body truncated', async () => {
    client = createUndiciHttpClient({ egress: localEgress });
    const total = 3 * 1024 * 1024;
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(total) });
      response.end(Buffer.alloc(total, 7));
    };
    const cut = await client.send({
      method: 'GET',
      url: `${baseUrl}/big`,
      headers: {},
      timeoutMs: 5_000,
      maxBodyBytes: 1000,
    });
    expect(cut.truncated).toBe(true);
    expect(cut.body.byteLength).toBe(1000);
    expect(cut.body.every((byte) => byte === 7)).toBe(true);

    const whole = await client.send({
      method: 'GET',
      url: `${baseUrl}/big`,
      headers: {},
      timeoutMs: 5_000,
      maxBodyBytes: total,
    });
    expect(whole.truncated).toBe(false);
    expect(whole.body.byteLength).toBe(total);
  });

  it('answers an empty body as zero bytes', async () => {
    client = createUndiciHttpClient({ egress: localEgress });
    handler = (_request, response) => {
      response.statusCode = 204;
      response.end();
    };
    const response = await client.send({ method: 'GET', url: `${baseUrl}/empty`, headers: {}, timeoutMs: 5_000 });
    expect(response.status).toBe(204);
    expect(response.body.byteLength).toBe(0);
    expect(response.truncated).toBe(false);
  });

  it('joins repeated headers with ", " and set-cookie with a newline', async () => {
    client = createUndiciHttpClient({ egress: localEgress });
    handler = (_request, response) => {
      response.setHeader('Vary', ['Accept', 'Origin']);
      response.setHeader('Set-Cookie', ['a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT', 'b=2']);
      response.end();
    };
    const response = await client.send({ method: 'GET', url: `${baseUrl}/h`, headers: {}, timeoutMs: 5_000 });
    expect(response.headers.vary).toBe('Accept, Origin');
    expect(response.headers['set-cookie']).toBe('a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT\nb=2');
  });

  it("stops with CANCELLED, not TIMEOUT, when the caller's signal aborts", async () => {
    client = createUndiciHttpClient({ egress: localEgress });
    handler = (_request, response) => setTimeout(() => response.end('late'), 500);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await rejection(
      client.send({ method: 'GET', url: `${baseUrl}/wait`, headers: {}, timeoutMs: 5_000, signal: controller.signal }),
    );
    expect(error.code).toBe('CANCELLED');
    expect(error.retryable).toBe(false);
  });

  it('waits on a server that never answers under a timeout of weeks, quietly, until the caller cancels', async () => {
    client = createUndiciHttpClient({ egress: localEgress });
    handler = () => {};
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      const sent = client.send({
        method: 'GET',
        url: `${baseUrl}/never`,
        headers: {},
        timeoutMs: 600 * 3_600_000,
        signal: controller.signal,
      });
      let ended = false;
      void sent.catch(() => (ended = true));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(ended).toBe(false);
      controller.abort();
      expect((await rejection(sent)).code).toBe('CANCELLED');
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
