import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DemoApi, startDemoApi } from '../../../examples/demo-api/server.js';
import type { JsSandbox } from '../src/nodes/types.js';
import { verifyWebhook } from '../src/webhooks/verify-webhook.js';

interface Arrival {
  path: string;
  headers: Record<string, string>;
  rawBody: Uint8Array;
  at: number;
}

/**
 * A real receiver on a free local port: each arrival settles the next waiter (or waits for one),
 * and it answers with the status the test chose for that path.
 */
async function startReceiver() {
  const arrivals: Arrival[] = [];
  const waiters: ((arrival: Arrival) => void)[] = [];
  const statusFor = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
      const arrival = {
        path: request.url ?? '/',
        headers,
        rawBody: new Uint8Array(Buffer.concat(chunks)),
        at: Date.now(),
      };
      arrivals.push(arrival);
      waiters.shift()?.(arrival);
      response.writeHead(statusFor.get(arrival.path) ?? 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    statusFor,
    next: () => new Promise<Arrival>((resolve) => waiters.push(resolve)),
    /** Forgets arrivals, chosen statuses and waiters a test left (one that failed half-way, say). */
    reset: () => {
      arrivals.length = 0;
      waiters.length = 0;
      statusFor.clear();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let api: DemoApi;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  api = await startDemoApi();
  receiver = await startReceiver();
});

afterAll(async () => {
  await api.close();
  await receiver.close();
});

beforeEach(() => {
  api.reset();
  receiver.reset();
});

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${api.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const noSandbox: JsSandbox = { evaluateBoolean: () => Promise.reject(new Error('no script runs for HMAC')) };

describe('demo API: POST /callbacks', () => {
  it('answers 202 at once and POSTs the payload as JSON to the callback URL after the delay', async () => {
    const arrived = receiver.next();
    const started = Date.now();
    const accepted = await call('POST', '/callbacks', {
      callbackUrl: `${receiver.url}/hooks/job-1`,
      delayMs: 1000,
      payload: { jobId: 'job-1', status: 'COMPLETED' },
    });
    const answeredAfter = Date.now() - started;
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({
      callbackId: expect.stringMatching(/^cb_/),
      delayMs: 1000,
      status: 'scheduled',
    });
    // Answered before the delay is over, whatever else the machine is doing.
    expect(answeredAfter).toBeLessThan(1000);
    expect(receiver.arrivals).toEqual([]);

    const arrival = await arrived;
    expect(arrival.at - started).toBeGreaterThanOrEqual(995);
    expect(arrival.path).toBe('/hooks/job-1');
    expect(arrival.headers['content-type']).toBe('application/json');
    expect(JSON.parse(new TextDecoder().decode(arrival.rawBody))).toEqual({ jobId: 'job-1', status: 'COMPLETED' });
    expect(arrival.headers['x-signature']).toBeUndefined();
    expect(arrival.headers['x-timestamp']).toBeUndefined();
  });

  it('signs with HMAC-SHA256 over "<timestamp>.<body>", which webhook verification accepts', async () => {
    const arrived = receiver.next();
    const secret = 'demo-callback-secret';
    await call('POST', '/callbacks', {
      callbackUrl: `${receiver.url}/hooks/signed`,
      delayMs: 0,
      payload: { ok: true, amount: 12.5 },
      hmacSecret: secret,
    });
    const arrival = await arrived;
    expect(arrival.headers['x-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(Number(arrival.headers['x-timestamp'])).toBeCloseTo(Date.now() / 1000, -1);

    const settings = { method: 'HMAC-SHA256' as const, secret, header: 'X-Signature', timestampHeader: 'X-Timestamp' };
    const request = { rawBody: arrival.rawBody, headers: arrival.headers };
    const deps = { sandbox: noSandbox, now: Date.now() };
    await expect(verifyWebhook(settings, request, deps)).resolves.toMatchObject({ verified: true });
    await expect(verifyWebhook({ ...settings, secret: 'another' }, request, deps)).resolves.toMatchObject({
      verified: false,
    });
    const withoutTimestamp = { ...settings, timestampHeader: undefined };
    await expect(verifyWebhook(withoutTimestamp, request, deps)).resolves.toMatchObject({ verified: false });
  });

  it('tells how each delivery went on GET /callbacks/{id}', async () => {
    receiver.statusFor.set('/hooks/broken', 500);
    const first = receiver.next();
    const ok = await call('POST', '/callbacks', { callbackUrl: `${receiver.url}/hooks/fine`, delayMs: 0 });
    await first;
    const second = receiver.next();
    const broken = await call('POST', '/callbacks', { callbackUrl: `${receiver.url}/hooks/broken`, delayMs: 0 });
    await second;

    // The delivery is recorded when the receiver's answer is read, just after it arrived there.
    const settled = async (id: string) => {
      for (;;) {
        const { body } = await call('GET', `/callbacks/${id}`);
        if (body.status !== 'scheduled') return body;
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    expect(await settled(ok.body.callbackId)).toMatchObject({ status: 'delivered', responseStatus: 204 });
    expect(await settled(broken.body.callbackId)).toMatchObject({
      status: 'failed',
      responseStatus: 500,
      error: 'the receiver answered 500',
    });
    expect(JSON.parse(new TextDecoder().decode(receiver.arrivals[0]!.rawBody))).toEqual({});

    // Nothing listens on the receiver's port once it is closed: a delivery that cannot connect fails.
    const gone = await startReceiver();
    await gone.close();
    const unreachable = await call('POST', '/callbacks', { callbackUrl: `${gone.url}/x`, delayMs: 0 });
    const failed = await settled(unreachable.body.callbackId);
    expect(failed).toMatchObject({ status: 'failed', responseStatus: null });
    expect(failed.error).toEqual(expect.any(String));

    expect((await call('GET', '/callbacks/cb_nope')).status).toBe(404);
  });

  it.each([
    [{ delayMs: 10 }, 'callbackUrl'],
    [{ callbackUrl: '/relative', delayMs: 10 }, 'callbackUrl'],
    [{ callbackUrl: 'file:///etc/passwd' }, 'callbackUrl'],
    [{ callbackUrl: 'http://127.0.0.1:1/x', delayMs: -1 }, 'delayMs'],
    [{ callbackUrl: 'http://127.0.0.1:1/x', delayMs: 1.5 }, 'delayMs'],
    [{ callbackUrl: 'http://127.0.0.1:1/x', delayMs: 3_600_000 }, 'delayMs'],
    [{ callbackUrl: 'http://127.0.0.1:1/x', hmacSecret: '' }, 'hmacSecret'],
    [['not', 'an', 'object'], 'JSON object'],
  ])('refuses %j with 400 naming the field', async (body, field) => {
    const answer = await call('POST', '/callbacks', body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('VALIDATION_ERROR');
    expect(answer.body.error.message).toContain(field);
  });

  it('drops callbacks not yet sent when the API is reset', async () => {
    await call('POST', '/callbacks', { callbackUrl: `${receiver.url}/hooks/dropped`, delayMs: 100 });
    api.reset();
    const arrived = receiver.next();
    await call('POST', '/callbacks', { callbackUrl: `${receiver.url}/hooks/kept`, delayMs: 300 });
    await arrived;
    // Only this test's two callbacks are looked at: an earlier test's may still be on its way.
    const ours = receiver.arrivals
      .map((arrival) => arrival.path)
      .filter((path) => /\/hooks\/(dropped|kept)$/.test(path));
    expect(ours).toEqual(['/hooks/kept']);
  });
});
