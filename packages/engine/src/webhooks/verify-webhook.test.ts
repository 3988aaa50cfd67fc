import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcError } from '../errors.js';
import { createQuickJsSandbox, type QuickJsSandbox } from '../expressions/quickjs-sandbox.js';
import { webhookVerificationSchema, type WebhookVerification } from '../model/configs/webhook-config.js';
import type { JsSandbox } from '../nodes/types.js';
import { verifyWebhook, type InboundWebhook, type VerificationOutcome } from './verify-webhook.js';

const bytes = (text: string) => new TextEncoder().encode(text);

/** A sandbox for the methods that never run a script: using it is a failure of the test. */
const noSandbox: JsSandbox = {
  evaluateBoolean: () => Promise.reject(new Error('no script should run for this method')),
};

const settingsOf = (input: Record<string, unknown>): WebhookVerification => webhookVerificationSchema.parse(input);

async function verify(
  settings: Record<string, unknown>,
  request: InboundWebhook,
  now = Date.now(),
  sandbox: JsSandbox = noSandbox,
): Promise<VerificationOutcome> {
  return verifyWebhook(settingsOf(settings), request, { sandbox, now });
}

function refusal(outcome: VerificationOutcome): string {
  if (outcome.verified) throw new Error('expected a refusal, the request was verified');
  return outcome.reason;
}

/** Each position of `text` with one character changed (digits and letters stay in their alphabet). */
function* tampered(text: string): Generator<string> {
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    const swap = /\d/.test(char) ? String((Number(char) + 1) % 10) : char === 'a' ? 'b' : char === 'A' ? 'B' : 'a';
    yield text.slice(0, index) + swap + text.slice(index + 1);
  }
}

describe('verifyWebhook', () => {
  describe('None', () => {
    it('accepts any request', async () => {
      await expect(verify({ method: 'None' }, { rawBody: bytes('{}'), headers: {} })).resolves.toEqual({
        verified: true,
      });
    });
  });

  describe('HMAC-SHA256 (GitHub test vector)', () => {
    const secret = "It's a Secret to Everybody";
    const body = 'Hello, World!';
    const signature = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';
    const github = { method: 'HMAC-SHA256', secret, header: 'X-Hub-Signature-256' };

    it('accepts the published signature over the raw body', async () => {
      const outcome = await verify(github, { rawBody: bytes(body), headers: { 'x-hub-signature-256': signature } });
      expect(outcome).toEqual({ verified: true });
    });

    it('accepts the same digest as bare hex and as base64 in the default X-Signature header', async () => {
      const hex = signature.slice('sha256='.length);
      const base64 = Buffer.from(hex, 'hex').toString('base64');
      for (const value of [hex, hex.toUpperCase(), base64]) {
        const outcome = await verify(
          { method: 'HMAC-SHA256', secret },
          { rawBody: bytes(body), headers: { 'x-signature': value } },
        );
        expect(outcome, value).toEqual({ verified: true });
      }
    });

    it('refuses every tampered byte of the body and of the signature', async () => {
      for (const changed of tampered(body)) {
        const outcome = await verify(github, {
          rawBody: bytes(changed),
          headers: { 'x-hub-signature-256': signature },
        });
        expect(refusal(outcome), changed).toBe('X-Hub-Signature-256 does not match the body');
      }
      const hex = signature.slice('sha256='.length);
      for (const changed of tampered(hex)) {
        const outcome = await verify(github, {
          rawBody: bytes(body),
          headers: { 'x-hub-signature-256': `sha256=${changed}` },
        });
        expect(refusal(outcome), changed).toBe('X-Hub-Signature-256 does not match the body');
      }
    });

    it('refuses a signature made with another secret, another algorithm or a wrong shape', async () => {
      const request = (value: string) => ({ rawBody: bytes(body), headers: { 'x-hub-signature-256': value } });
      const other = createHmac('sha256', 'another secret').update(body).digest('hex');
      expect(refusal(await verify(github, request(`sha256=${other}`)))).toContain('does not match');
      const sha1 = createHmac('sha1', secret).update(body).digest('hex');
      expect(refusal(await verify(github, request(`sha1=${sha1}`)))).toContain('is not an HMAC-SHA256 signature');
      expect(refusal(await verify(github, request(signature.slice(0, -2))))).toContain('is not an HMAC-SHA256');
      expect(refusal(await verify(github, request('sha256=zz' + 'a'.repeat(62))))).toContain('is not an HMAC');
      expect(refusal(await verify(github, request('!!!!')))).toContain('is not an HMAC');
    });

    it('refuses a request without the signature header, naming it', async () => {
      const reason = refusal(await verify(github, { rawBody: bytes(body), headers: {} }));
      expect(reason).toBe('missing X-Hub-Signature-256 header (the HMAC-SHA256 signature)');
    });

    it('never tells the secret or the expected signature in a reason', async () => {
      const expected = signature.slice('sha256='.length);
      const reasons = [
        refusal(await verify(github, { rawBody: bytes('other'), headers: { 'x-hub-signature-256': signature } })),
        refusal(await verify(github, { rawBody: bytes(body), headers: { 'x-hub-signature-256': 'x' } })),
        refusal(await verify(github, { rawBody: bytes(body), headers: {} })),
      ];
      for (const reason of reasons) {
        expect(reason).not.toContain(secret);
        expect(reason).not.toContain(expected);
        expect(reason).not.toContain(Buffer.from(expected, 'hex').toString('base64'));
      }
    });

    it('refuses when the secret resolved to an empty string (an unset variable)', async () => {
      const settings = { ...settingsOf(github), secret: '' };
      const outcome = await verifyWebhook(
        settings,
        {
          rawBody: bytes(body),
          headers: { 'x-hub-signature-256': createHmac('sha256', '').update(body).digest('hex') },
        },
        { sandbox: noSandbox, now: Date.now() },
      );
      expect(refusal(outcome)).toContain('has no secret configured');
    });
  });

  describe('HMAC-SHA1', () => {
    const secret = 'sha1-secret';
    const body = '{"event":"ping"}';
    const hex = createHmac('sha1', secret).update(body).digest('hex');

    it('accepts hex, sha1=<hex> and base64, and refuses a changed body', async () => {
      for (const value of [hex, `sha1=${hex}`, Buffer.from(hex, 'hex').toString('base64')]) {
        const outcome = await verify(
          { method: 'HMAC-SHA1', secret },
          { rawBody: bytes(body), headers: { 'x-signature': value } },
        );
        expect(outcome, value).toEqual({ verified: true });
      }
      const outcome = await verify(
        { method: 'HMAC-SHA1', secret },
        { rawBody: bytes(body + ' '), headers: { 'x-signature': hex } },
      );
      expect(refusal(outcome)).toBe('X-Signature does not match the body');
    });

    it('refuses an HMAC-SHA256 signature of the same body', async () => {
      const sha256 = createHmac('sha256', secret).update(body).digest('hex');
      const outcome = await verify(
        { method: 'HMAC-SHA1', secret },
        { rawBody: bytes(body), headers: { 'x-signature': `sha256=${sha256}` } },
      );
      expect(refusal(outcome)).toContain('is not an HMAC-SHA1 signature');
    });
  });

  describe('HMAC with a signed timestamp', () => {
    const secret = 'whsk-test';
    const body = '{"jobId":"j-1","status":"COMPLETED"}';
    const now = 1_700_000_000_000;
    const timestamp = String(now / 1000);
    const sign = (ts: string, text = body) =>
      `sha256=${createHmac('sha256', secret).update(`${ts}.${text}`).digest('hex')}`;
    const settings = { method: 'HMAC-SHA256', secret, timestampHeader: 'X-Timestamp' };
    const request = (ts: string, signature = sign(ts), text = body): InboundWebhook => ({
      rawBody: bytes(text),
      headers: { 'x-signature': signature, 'x-timestamp': ts },
    });

    it('accepts <timestamp>.<body> signed within the tolerance, either side of now', async () => {
      await expect(verify(settings, request(timestamp), now)).resolves.toMatchObject({ verified: true });
      await expect(verify(settings, request(String(now / 1000 - 300)), now)).resolves.toMatchObject({ verified: true });
      await expect(verify(settings, request(String(now / 1000 + 300)), now)).resolves.toMatchObject({ verified: true });
    });

    it('identifies a verified request by its signature, until its timestamp leaves the tolerance', async () => {
      const digest = sign(timestamp).slice('sha256='.length);
      await expect(verify(settings, request(timestamp), now)).resolves.toEqual({
        verified: true,
        replay: { key: `signature:${digest}`, expiresAt: now + 301_000 },
      });
      // Without a timestamp a signature is good forever: nothing to keep it by.
      const unstamped = { method: 'HMAC-SHA256', secret };
      const bodyOnly = createHmac('sha256', secret).update(body).digest('hex');
      await expect(
        verify(unstamped, { rawBody: bytes(body), headers: { 'x-signature': bodyOnly } }, now),
      ).resolves.toEqual({ verified: true });
    });

    it('refuses a replay past the default 300 s tolerance and a timestamp from the future', async () => {
      expect(refusal(await verify(settings, request(String(now / 1000 - 301)), now))).toBe(
        'X-Timestamp is 301 s old, past the 300 s tolerance (a replayed request?)',
      );
      expect(refusal(await verify(settings, request(String(now / 1000 + 301)), now))).toBe(
        "X-Timestamp is 301 s in the future, past the 300 s tolerance (check the sender's clock)",
      );
    });

    it('uses toleranceSeconds when it is set', async () => {
      const strict = { ...settings, toleranceSeconds: 5 };
      await expect(verify(strict, request(String(now / 1000 - 5)), now)).resolves.toMatchObject({
        verified: true,
        replay: { expiresAt: now + 1_000 },
      });
      expect(refusal(await verify(strict, request(String(now / 1000 - 6)), now))).toContain('past the 5 s tolerance');
    });

    it('refuses a signature of the body alone, a changed timestamp and a missing timestamp header', async () => {
      const bodyOnly = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
      expect(refusal(await verify(settings, request(timestamp, bodyOnly), now))).toContain('does not match');
      for (const changed of tampered(timestamp)) {
        // A changed timestamp still inside the tolerance is refused by the signature.
        const outcome = await verify(settings, request(changed, sign(timestamp)), Number(changed) * 1000);
        expect(refusal(outcome), changed).toBe('X-Signature does not match the body');
      }
      const missing = await verify(
        settings,
        { rawBody: bytes(body), headers: { 'x-signature': sign(timestamp) } },
        now,
      );
      expect(refusal(missing)).toBe('missing X-Timestamp header (the signed timestamp)');
      expect(refusal(await verify(settings, request('17e8'), now))).toBe('X-Timestamp is not a Unix time in seconds');
    });
  });

  describe('Standard Webhooks (published test vector)', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
    const timestamp = '1614265330';
    const body = '{"test": 2432232314}';
    const signature = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
    const now = Number(timestamp) * 1000;
    const settings = { method: 'Standard Webhooks', secret };
    const request = (headers: Record<string, string>, text = body): InboundWebhook => ({
      rawBody: bytes(text),
      headers: { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature, ...headers },
    });

    it('accepts the published signature, and identifies the request by its message id', async () => {
      await expect(verify(settings, request({}), now)).resolves.toEqual({
        verified: true,
        replay: { key: `id:${id}`, expiresAt: now + 301_000 },
      });
    });

    it('accepts when one of several space-separated signatures matches', async () => {
      const headers = { 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')} v2,abc ${signature}` };
      await expect(verify(settings, request(headers), now)).resolves.toMatchObject({ verified: true });
    });

    it('refuses every tampered byte of the body, the signature, the id and the timestamp', async () => {
      const refused = async (outcome: Promise<VerificationOutcome>, label: string) =>
        expect(refusal(await outcome), label).toBe(
          'no signature in webhook-signature matches the id, timestamp and body',
        );
      for (const changed of tampered(body)) await refused(verify(settings, request({}, changed), now), changed);
      for (const changed of tampered(signature.slice(3))) {
        await refused(verify(settings, request({ 'webhook-signature': `v1,${changed}` }), now), changed);
      }
      for (const changed of tampered(id))
        await refused(verify(settings, request({ 'webhook-id': changed }), now), changed);
      for (const changed of tampered(timestamp)) {
        await refused(verify(settings, request({ 'webhook-timestamp': changed }), Number(changed) * 1000), changed);
      }
    });

    it('refuses a replay past 300 s and a timestamp 300 s ahead', async () => {
      expect(refusal(await verify(settings, request({}), now + 301_000))).toContain('is 301 s old');
      expect(refusal(await verify(settings, request({}), now - 301_000))).toContain('is 301 s in the future');
      await expect(verify(settings, request({}), now + 300_000)).resolves.toMatchObject({ verified: true });
    });

    it('names every missing header', async () => {
      const outcome = await verify(settings, { rawBody: bytes(body), headers: { 'webhook-id': id } }, now);
      expect(refusal(outcome)).toBe('missing webhook-timestamp, webhook-signature header');
    });

    it('refuses a signature list without a v1 entry, and a secret that is not base64', async () => {
      expect(refusal(await verify(settings, request({ 'webhook-signature': 'v2,abc' }), now))).toBe(
        'webhook-signature holds no v1,<base64> signature',
      );
      const badSecret = { method: 'Standard Webhooks', secret: 'whsec_not base64!' };
      const reason = refusal(await verify(badSecret, request({}), now));
      expect(reason).toBe('the Standard Webhooks secret is not base64 (whsec_<base64>)');
    });
  });

  describe('Bearer Token', () => {
    const settings = { method: 'Bearer Token', secret: 'tok_live_123' };
    const request = (authorization?: string): InboundWebhook => ({
      rawBody: bytes('{}'),
      headers: authorization === undefined ? {} : { authorization },
    });

    it('accepts the expected token and refuses any other', async () => {
      await expect(verify(settings, request('Bearer tok_live_123'))).resolves.toEqual({ verified: true });
      await expect(verify(settings, request('bearer tok_live_123'))).resolves.toEqual({ verified: true });
      for (const wrong of ['Bearer tok_live_12', 'Bearer tok_live_1234', 'Bearer TOK_LIVE_123', 'Bearer x']) {
        const reason = refusal(await verify(settings, request(wrong)));
        expect(reason, wrong).toBe('the bearer token is not the expected one');
        expect(reason).not.toContain('tok_live_123');
      }
    });

    it('refuses a missing header and another scheme with a clear reason', async () => {
      expect(refusal(await verify(settings, request()))).toBe('missing Authorization header (Bearer <token>)');
      expect(refusal(await verify(settings, request('Basic dG9rOmxpdmU=')))).toBe(
        'Authorization is not a Bearer token (Bearer <token>)',
      );
    });
  });

  describe('Custom Header', () => {
    const settings = { method: 'Custom Header', header: 'X-Api-Token', value: 'shared-value' };

    it('accepts the expected value (header names are case-insensitive) and refuses another', async () => {
      await expect(
        verify(settings, { rawBody: bytes(''), headers: { 'x-api-token': 'shared-value' } }),
      ).resolves.toEqual({ verified: true });
      const reason = refusal(await verify(settings, { rawBody: bytes(''), headers: { 'x-api-token': 'shared' } }));
      expect(reason).toBe('X-Api-Token is not the expected value');
      expect(reason).not.toContain('shared-value');
    });

    it('refuses a missing header, naming it', async () => {
      expect(refusal(await verify(settings, { rawBody: bytes(''), headers: {} }))).toBe('missing X-Api-Token header');
    });
  });

  describe('Pre-script (QuickJS sandbox)', () => {
    let sandbox: QuickJsSandbox;
    beforeAll(async () => {
      sandbox = await createQuickJsSandbox({ timeoutMs: 200 });
    });
    afterAll(() => sandbox.dispose());

    const body = '{"event":"order.paid","amount":120}';
    const run = (script: string, headers: Record<string, string> = {}, text = body, secret = 's3cret-value') =>
      verify({ method: 'Pre-script', script, secret }, { rawBody: bytes(text), headers }, Date.now(), sandbox);

    it('accepts when the script answers true over headers, body, rawBody and secret', async () => {
      const script =
        "headers['x-token'] === secret && body.event === 'order.paid' && body.amount > 100 && rawBody.startsWith('{')";
      await expect(run(script, { 'x-token': 's3cret-value' })).resolves.toEqual({ verified: true });
    });

    it('refuses when the script answers false', async () => {
      expect(refusal(await run("headers['x-token'] === secret", { 'x-token': 'guess' }))).toBe(
        'the pre-script answered false',
      );
    });

    it('gives body as null and rawBody as text when the body is not JSON', async () => {
      await expect(run("body === null && rawBody === 'a=1&b=2'", {}, 'a=1&b=2')).resolves.toEqual({ verified: true });
    });

    it('refuses a script that throws with a fixed reason; the detail withholds the message of a script given a secret', async () => {
      const outcome = await run('(() => { throw new Error("bad " + secret.split("").join("-")) })()');
      expect(refusal(outcome)).toBe('the pre-script failed');
      const detail = (outcome as { detail?: string }).detail ?? '';
      expect(detail).toMatch(/^SANDBOX_ERROR: its message is withheld/);
      expect(detail).not.toContain('s-3-c');

      // With no secret, nothing in the message can come from one: the operator reads it.
      const unkeyed = await verify(
        { method: 'Pre-script', script: '(() => { throw new Error("no " + rawBody) })()' },
        { rawBody: bytes('header'), headers: {} },
        0,
        sandbox,
      );
      expect((unkeyed as { detail?: string }).detail).toMatch(/^SANDBOX_ERROR: .*no header/);
    });

    it('never tells a thrown value, whatever it is', async () => {
      for (const script of ['(() => { throw secret.toUpperCase() })()', '(() => { throw { s: secret } })()']) {
        expect(refusal(await run(script))).toBe('the pre-script failed');
      }
    });

    it('refuses a script that runs past the time limit, and the event loop stays free', async () => {
      let ticks = 0;
      const timer = setInterval(() => (ticks += 1), 10);
      const started = Date.now();
      const reason = refusal(await run('(() => { while (true) {} })()'));
      clearInterval(timer);
      expect(reason).toBe('the pre-script failed');
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(ticks).toBeGreaterThan(5);
    });

    it('refuses a script that answers something other than a boolean', async () => {
      const outcome = await run('body.amount');
      expect(refusal(outcome)).toBe('the pre-script failed');
      expect((outcome as { detail?: string }).detail).toMatch(/^EXPRESSION_NOT_BOOLEAN: /);
    });

    it('refuses, never throws, when the sandbox itself fails', async () => {
      const broken: JsSandbox = {
        evaluateBoolean: () => Promise.reject(new SvcError('SANDBOX_MEMORY', 'out of memory')),
      };
      const outcome = await verify(
        { method: 'Pre-script', script: 'true' },
        { rawBody: bytes(''), headers: {} },
        0,
        broken,
      );
      expect(outcome).toEqual({
        verified: false,
        reason: 'the pre-script failed',
        detail: 'SANDBOX_MEMORY: out of memory',
      });
    });
  });
});
