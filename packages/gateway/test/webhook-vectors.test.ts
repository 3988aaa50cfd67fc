import { createEngine, createManualClock, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stubAuthenticator } from './stub-authenticator.js';
import { apiCaller, postWebhook, type Json } from './api-call.js';

/*
 * The published test vectors, sent to POST /webhooks/trigger/{path} as their senders send them,
 * on a clock set to the Standard Webhooks vector's timestamp.
 */
const STANDARD = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const GITHUB = {
  secret: "It's a Secret to Everybody",
  body: 'Hello, World!',
  signature: 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
};

const clock = createManualClock(STANDARD.timestamp * 1000);
let engine: Engine;
let store: ReturnType<typeof openSqliteStore>;
let app: ReturnType<typeof createApp>;
const urls: Record<string, string> = {};

const call = apiCaller(() => app, 'key');

function triggerFlow(name: string, verification: Json) {
  return {
    name,
    nodes: [
      {
        id: 't',
        name: 'Hook',
        type: 'component-webhook',
        config: { mode: 'trigger', environment: 'vectors', verification },
      },
    ],
    connections: [],
  };
}

beforeAll(async () => {
  store = openSqliteStore({ path: ':memory:', clock });
  engine = await createEngine({ store, clock, publicUrl: 'http://svc.test' });
  app = createApp({ engine, authenticator: stubAuthenticator({ key: { tenantId: 'acme' } }) });
  const environment = await call('POST', '/api/gateway/environments', {
    body: {
      name: 'vectors',
      variables: { standardSecret: STANDARD.secret, githubSecret: GITHUB.secret },
      secretKeys: ['standardSecret', 'githubSecret'],
    },
  });
  expect(environment.status).toBe(201);
  for (const [name, verification] of Object.entries({
    standard: { method: 'Standard Webhooks', secret: '{{env.standardSecret}}' },
    github: { method: 'HMAC-SHA256', header: 'X-Hub-Signature-256', secret: '{{env.githubSecret}}' },
  })) {
    const saved = await call('POST', '/api/gateway/flows', { body: triggerFlow(`vector-${name}`, verification) });
    expect(saved.status).toBe(201);
    urls[name] = new URL(saved.json.data.webhookTriggers[0].url as string).pathname;
  }
});

afterAll(async () => {
  await engine.stop();
  await store.close();
});

const send = (path: string, body: string, headers: Record<string, string>) => postWebhook(app, path, body, headers);

/** The text with one character changed to another digit (never a change of case, which hex ignores). */
function tampered(text: string, at: number): string {
  return text.slice(0, at) + (text[at] === '0' ? '1' : '0') + text.slice(at + 1);
}

describe('published verification vectors through the webhook door', () => {
  const standardHeaders = (overrides: Partial<typeof STANDARD> = {}) => {
    const vector = { ...STANDARD, ...overrides };
    return {
      'webhook-id': vector.id,
      'webhook-timestamp': String(vector.timestamp),
      'webhook-signature': vector.signature,
    };
  };

  it('accepts the Standard Webhooks vector and refuses each tampered byte of body, signature, id and timestamp', async () => {
    const accepted = await send(urls.standard!, STANDARD.body, standardHeaders());
    expect(accepted.status).toBe(202);
    expect(accepted.json.data.executionId).toEqual(expect.any(String));
    for (let at = 0; at < STANDARD.body.length; at += 1) {
      expect(
        (await send(urls.standard!, tampered(STANDARD.body, at), standardHeaders())).status,
        `body byte ${at}`,
      ).toBe(401);
    }
    for (let at = 3; at < STANDARD.signature.length - 1; at += 1) {
      const signature = tampered(STANDARD.signature, at);
      expect(
        (await send(urls.standard!, STANDARD.body, standardHeaders({ signature }))).status,
        `signature ${at}`,
      ).toBe(401);
    }
    expect((await send(urls.standard!, STANDARD.body, standardHeaders({ id: tampered(STANDARD.id, 5) }))).status).toBe(
      401,
    );
    expect(
      (await send(urls.standard!, STANDARD.body, standardHeaders({ timestamp: STANDARD.timestamp + 1 }))).status,
    ).toBe(401);
  });

  it('refuses the Standard Webhooks vector replayed past the tolerance, and from the future', async () => {
    clock.set((STANDARD.timestamp + 301) * 1000);
    const replayed = await send(urls.standard!, STANDARD.body, standardHeaders());
    expect(replayed.status).toBe(401);
    expect(replayed.json.error.code).toBe('WEBHOOK_UNVERIFIED');
    clock.set((STANDARD.timestamp - 301) * 1000);
    expect((await send(urls.standard!, STANDARD.body, standardHeaders())).status).toBe(401);
    clock.set(STANDARD.timestamp * 1000);
  });

  it("accepts GitHub's vector (then finds its body is not JSON) and refuses each tampered byte", async () => {
    // Verified first, over the raw bytes: only then is the body parsed, and this one is plain text.
    const verified = await send(urls.github!, GITHUB.body, { 'x-hub-signature-256': GITHUB.signature });
    expect(verified.status).toBe(400);
    expect(verified.json.error.code).toBe('MALFORMED_JSON');
    for (let at = 0; at < GITHUB.body.length; at += 1) {
      const answer = await send(urls.github!, tampered(GITHUB.body, at), { 'x-hub-signature-256': GITHUB.signature });
      expect(answer.status, `body byte ${at}`).toBe(401);
    }
    for (let at = 7; at < GITHUB.signature.length; at += 1) {
      const answer = await send(urls.github!, GITHUB.body, { 'x-hub-signature-256': tampered(GITHUB.signature, at) });
      expect(answer.status, `signature ${at}`).toBe(401);
    }
  });
});
