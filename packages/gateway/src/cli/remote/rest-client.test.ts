import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestClient } from './rest-client.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** A real local HTTP server whose answer each test chooses; it records the requests it got. */
async function server(handler: Handler): Promise<{ url: string; seen: IncomingMessage[]; close(): Promise<void> }> {
  const seen: IncomingMessage[] = [];
  const http: Server = createServer((request, response) => {
    seen.push(request);
    handler(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('expected a failure');
}

describe('createRestClient', () => {
  let elsewhere: Awaited<ReturnType<typeof server>>;
  beforeAll(async () => {
    elsewhere = await server((_, response) => json(response, 200, { success: true, data: 'elsewhere' }));
  });
  afterAll(() => elsewhere.close());

  it('sends the key as X-API-Key and answers the envelope’s data, or its error with the code the service named', async () => {
    const api = await server((request, response) =>
      request.url === '/api/ok'
        ? json(response, 200, { success: true, data: { items: [1] } })
        : json(response, 404, { success: false, error: { code: 'FLOW_NOT_FOUND', message: 'flow "x" not found' } }),
    );
    try {
      const client = createRestClient({ baseUrl: `${api.url}/`, apiKey: 'svc_sk_test' });
      expect(await client.call('GET', '/api/ok')).toEqual({ items: [1] });
      expect(api.seen[0]!.headers['x-api-key']).toBe('svc_sk_test');
      expect(await failure(client.call('GET', '/api/missing'))).toMatchObject({
        code: 'FLOW_NOT_FOUND',
        message: 'flow "x" not found',
      });
    } finally {
      await api.close();
    }
  });

  it('keeps a code this build does not know readable, and control characters out of messages', async () => {
    const api = await server((request, response) =>
      request.url === '/api/new'
        ? json(response, 418, { success: false, error: { code: 'TEAPOT', message: 'short \u001b[2J and stout' } })
        : (response.writeHead(502, { 'content-type': 'text/html' }),
          response.end('<html>\u001b]0;title\u0007 Bad gateway</html>')),
    );
    try {
      const client = createRestClient({ baseUrl: api.url });
      expect(await failure(client.call('GET', '/api/new'))).toMatchObject({
        code: 'UNKNOWN_ERROR',
        message: 'TEAPOT: short \\u001b[2J and stout',
      });
      const proxy = await failure(client.call('GET', '/api/proxy'));
      expect(proxy.code).toBe('INVALID_RESPONSE');
      expect(proxy.message).toContain('HTTP 502 and no svc envelope: <html>\\u001b]0;title\\u0007 Bad gateway</html>');
      expect([...proxy.message].some((character) => character.charCodeAt(0) < 0x20)).toBe(false);
    } finally {
      await api.close();
    }
  });

  it('does not follow a redirect, so the key goes to the address given and nowhere else', async () => {
    const api = await server((_, response) => {
      response.writeHead(302, { location: `${elsewhere.url}/api/ok` });
      response.end();
    });
    try {
      const client = createRestClient({ baseUrl: api.url, apiKey: 'svc_sk_secret' });
      expect((await failure(client.call('GET', '/api/ok'))).code).toBe('INVALID_RESPONSE');
      expect(elsewhere.seen).toHaveLength(0);
    } finally {
      await api.close();
    }
  });

  it('stops reading an answer past its limit, and a call past its time', async () => {
    const api = await server((request, response) => {
      if (request.url === '/api/huge') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(`{"success":true,"data":"${'x'.repeat(100_000)}"}`);
      }
      // `/api/slow` never answers.
    });
    try {
      const client = createRestClient({ baseUrl: api.url, maxAnswerBytes: 10_000, timeoutMs: 200 });
      const huge = await failure(client.call('GET', '/api/huge'));
      expect(huge).toMatchObject({ code: 'INVALID_RESPONSE' });
      expect(huge.message).toContain('more than 10000 bytes');
      const slow = await failure(client.call('GET', '/api/slow'));
      expect(slow.code).toBe('SERVICE_TIMEOUT');
      expect(slow.message).toContain('within 0.2 s');
    } finally {
      await api.close();
    }
  });

  it('answers SERVICE_UNREACHABLE for a closed port, and refuses an address that is not http(s) or holds credentials', async () => {
    const closed = await failure(createRestClient({ baseUrl: 'http://127.0.0.1:9' }).call('GET', '/api/x'));
    expect(closed.code).toBe('SERVICE_UNREACHABLE');
    expect(closed.message).toContain('ECONNREFUSED');
    expect(() => createRestClient({ baseUrl: 'ftp://svc.example.com' })).toThrow(/http or https/);
    expect(() => createRestClient({ baseUrl: 'https://user:pw@svc.example.com' })).toThrow(/must not hold credentials/);
    expect(() => createRestClient({ baseUrl: 'not a url' })).toThrow(/is not a URL/);
  });
});
