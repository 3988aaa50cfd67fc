import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookVerification } from '../model/configs/webhook-config.js';
import type { JsSandbox } from '../nodes/types.js';

export interface InboundWebhook {
  /** The exact bytes received: signatures are computed over these, never over re-serialised JSON. */
  rawBody: Uint8Array;
  /** Header names lower-cased. */
  headers: Record<string, string>;
}

/**
 * What makes a verified request one of a kind, where the method signs a timestamp: the
 * Standard Webhooks message id, or the signature over `<timestamp>.<body>`. A second request with
 * the same identity is the first one again (a sender's retry or a replay); it stops mattering
 * at `expiresAt` (ms), when its timestamp falls out of the tolerance and the request is refused.
 */
export interface ReplayIdentity {
  key: string;
  expiresAt: number;
}

/**
 * A refusal's `reason` is what the sender is told; `detail`, when there is one, is for the operator
 * only (a Pre-script's error, whose text the service cannot tell apart from its secret). A
 * verified request carries its `replay` identity when the method signs a timestamp.
 */
export type VerificationOutcome =
  { verified: true; replay?: ReplayIdentity } | { verified: false; reason: string; detail?: string };

export interface VerifyWebhookDeps {
  /** Runs a Pre-script under the sandbox's time and memory limits. */
  sandbox: JsSandbox;
  /** Milliseconds since the epoch: the time a signed timestamp is judged against. */
  now: number;
}

/** The signature header HMAC methods read when `header` is not set. */
export const DEFAULT_SIGNATURE_HEADER = 'X-Signature';
/** How old (or how far in the future) a signed timestamp may be when `toleranceSeconds` is not set. */
export const DEFAULT_TOLERANCE_SECONDS = 300;
/** The names a Pre-script reads; anything else (node outputs, flowVars) is not given to it. */
export const PRE_SCRIPT_GLOBALS = ['headers', 'body', 'rawBody', 'secret'] as const;

/** Signatures looked at in one `webhook-signature` header: a sender rotating keys sends two or three. */
const MAX_STANDARD_SIGNATURES = 8;
/** A detail quotes a Pre-script's error message, cut to this length (it may echo the body). */
const MAX_DETAIL_LENGTH = 300;

const verified: VerificationOutcome = { verified: true };
const refuse = (reason: string, detail?: string): VerificationOutcome =>
  detail === undefined ? { verified: false, reason } : { verified: false, reason, detail };

/**
 * Checks that an inbound webhook comes from its sender, by the node's verification method:
 * `None`; `HMAC-SHA256` / `HMAC-SHA1` over the raw body (optionally `<timestamp>.<body>` with a
 * timestamp header and a tolerance); `Standard Webhooks` (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature: v1,<base64>`); `Bearer Token`; `Custom Header`; `Pre-script` (a JavaScript
 * boolean in the sandbox). Digests and secrets are compared in constant time (secrets through a
 * SHA-256 of each side, so their lengths are not compared either), and a refusal's reason never
 * holds the secret, the expected signature or a Pre-script's error (that goes in `detail`, for the
 * operator). Never throws: a sandbox error or time-out is a refusal.
 *
 * @example
 * const outcome = await verifyWebhook(
 *   { method: 'HMAC-SHA256', secret: "It's a Secret to Everybody" },
 *   { rawBody: new TextEncoder().encode('Hello, World!'), headers: { 'x-signature': 'sha256=7571…3e17' } },
 *   { sandbox, now: Date.now() },
 * ); // { verified: true }
 */
export async function verifyWebhook(
  settings: WebhookVerification,
  request: InboundWebhook,
  deps: VerifyWebhookDeps,
): Promise<VerificationOutcome> {
  switch (settings.method) {
    case 'None':
      return verified;
    case 'HMAC-SHA256':
      return verifyHmac(settings, request, deps.now, 'sha256');
    case 'HMAC-SHA1':
      return verifyHmac(settings, request, deps.now, 'sha1');
    case 'Standard Webhooks':
      return verifyStandardWebhook(settings, request, deps.now);
    case 'Bearer Token':
      return verifyBearer(settings, request);
    case 'Custom Header':
      return verifyCustomHeader(settings, request);
    case 'Pre-script':
      return verifyByScript(settings, request, deps.sandbox);
    default:
      return refuse(`unknown verification method "${String((settings as { method: unknown }).method)}"`);
  }
}

type Algorithm = 'sha256' | 'sha1';

function headerOf(request: InboundWebhook, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/**
 * An empty secret usually means a template (`{{env.webhookSecret}}`) resolved to nothing: an
 * HMAC keyed with it is one anybody can compute, so that is a refusal, not a pass.
 */
function missingSecret(settings: WebhookVerification): VerificationOutcome | undefined {
  return settings.secret === undefined || settings.secret === ''
    ? refuse(`${settings.method} verification has no secret configured (is its environment variable set?)`)
    : undefined;
}

function verifyHmac(
  settings: WebhookVerification,
  request: InboundWebhook,
  now: number,
  algorithm: Algorithm,
): VerificationOutcome {
  const noSecret = missingSecret(settings);
  if (noSecret) return noSecret;
  const signatureHeader = settings.header ?? DEFAULT_SIGNATURE_HEADER;
  const given = headerOf(request, signatureHeader);
  if (given === undefined) return refuse(`missing ${signatureHeader} header (the ${settings.method} signature)`);

  let signed: Uint8Array = request.rawBody;
  let expiresAt: number | undefined;
  if (settings.timestampHeader !== undefined) {
    const timestamp = headerOf(request, settings.timestampHeader);
    if (timestamp === undefined) return refuse(`missing ${settings.timestampHeader} header (the signed timestamp)`);
    const tolerance = settings.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    const stale = checkTimestamp(timestamp, tolerance, now);
    if (stale) return refuse(`${settings.timestampHeader} ${stale}`);
    signed = Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), request.rawBody]);
    expiresAt = replayExpiry(timestamp, tolerance);
  }

  const expected = createHmac(algorithm, settings.secret!).update(signed).digest();
  const provided = decodeSignature(given, algorithm, expected.length);
  if (provided === undefined) {
    return refuse(
      `${signatureHeader} is not an ${settings.method} signature: hex, ${algorithm}=<hex> or base64 of a ${expected.length}-byte digest`,
    );
  }
  if (!timingSafeEqual(provided, expected)) return refuse(`${signatureHeader} does not match the body`);
  // Only a timestamp bounds how long a signature stays good; without one it is good forever, and
  // no record of it could be kept that long.
  return expiresAt === undefined
    ? verified
    : { verified: true, replay: { key: `signature:${expected.toString('hex')}`, expiresAt } };
}

/** When a request signed at `timestamp` (Unix seconds) stops being accepted, in ms. */
function replayExpiry(timestamp: string, toleranceSeconds: number): number {
  return (Number(timestamp) + toleranceSeconds + 1) * 1000;
}

/**
 * A digest as senders write it: hex (`757107…`), prefixed hex (`sha256=757107…`, GitHub) or
 * base64 (`dXNl…=`, Shopify). Answers the bytes only when they are a whole digest of the right
 * length, so the comparison after it is between two equal-length buffers.
 */
function decodeSignature(text: string, algorithm: Algorithm, length: number): Buffer | undefined {
  const prefix = /^(sha1|sha256)=(.*)$/i.exec(text);
  if (prefix) {
    if (prefix[1]!.toLowerCase() !== algorithm) return undefined;
    return decodeHex(prefix[2]!, length);
  }
  return decodeHex(text, length) ?? decodeBase64(text, length);
}

function decodeHex(text: string, length: number): Buffer | undefined {
  return text.length === length * 2 && /^[0-9a-f]+$/i.test(text) ? Buffer.from(text, 'hex') : undefined;
}

/** Strict base64 (standard or URL-safe alphabet, padding optional): `Buffer.from` alone skips junk. */
function decodeBase64(text: string, length?: number): Buffer | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) && !/^[A-Za-z0-9_-]*={0,2}$/.test(text)) return undefined;
  const bytes = Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64');
  if (bytes.length === 0 || (length !== undefined && bytes.length !== length)) return undefined;
  // Re-encoding must give the text back: rejects stray bits in the last character and bad padding.
  const again = bytes.toString(text.includes('-') || text.includes('_') ? 'base64url' : 'base64');
  return again.replace(/=+$/, '') === text.replace(/=+$/, '') ? bytes : undefined;
}

/**
 * Unix seconds within `toleranceSeconds` of `now` either way: an old one is a replay, one from
 * the future is a clock skew or a signature minted to be replayed later. Answers what is wrong.
 */
function checkTimestamp(text: string, toleranceSeconds: number, now: number): string | undefined {
  if (!/^\d{1,12}$/.test(text)) return 'is not a Unix time in seconds';
  const ageSeconds = Math.floor(now / 1000) - Number(text);
  if (ageSeconds > toleranceSeconds)
    return `is ${ageSeconds} s old, past the ${toleranceSeconds} s tolerance (a replayed request?)`;
  if (-ageSeconds > toleranceSeconds)
    return `is ${-ageSeconds} s in the future, past the ${toleranceSeconds} s tolerance (check the sender's clock)`;
  return undefined;
}

/**
 * The Standard Webhooks scheme (standardwebhooks.com): HMAC-SHA256 over `<id>.<timestamp>.<body>`
 * keyed with the base64 secret after its `whsec_` prefix; the header lists one or more
 * space-separated `v1,<base64>` signatures, and one match is enough (senders rotating a secret
 * sign with both).
 */
function verifyStandardWebhook(
  settings: WebhookVerification,
  request: InboundWebhook,
  now: number,
): VerificationOutcome {
  const noSecret = missingSecret(settings);
  if (noSecret) return noSecret;
  const id = headerOf(request, 'webhook-id');
  const timestamp = headerOf(request, 'webhook-timestamp');
  const signatures = headerOf(request, 'webhook-signature');
  const missing = [
    ['webhook-id', id],
    ['webhook-timestamp', timestamp],
    ['webhook-signature', signatures],
  ].filter(([, value]) => value === undefined);
  if (missing.length > 0) return refuse(`missing ${missing.map(([name]) => name).join(', ')} header`);

  const key = decodeBase64(settings.secret!.replace(/^whsec_/, ''));
  if (key === undefined) return refuse('the Standard Webhooks secret is not base64 (whsec_<base64>)');
  const tolerance = settings.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const stale = checkTimestamp(timestamp!, tolerance, now);
  if (stale) return refuse(`webhook-timestamp ${stale}`);

  const expected = createHmac('sha256', key)
    .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), request.rawBody]))
    .digest();
  let versionOne = 0;
  let matched = false;
  for (const entry of signatures!.split(' ').filter(Boolean).slice(0, MAX_STANDARD_SIGNATURES)) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    versionOne += 1;
    const provided = decodeBase64(entry.slice(comma + 1), expected.length);
    // Every listed signature is compared, so the time taken does not tell which one matched.
    if (provided !== undefined && timingSafeEqual(provided, expected)) matched = true;
  }
  // The message id is what the sender keeps across its retries (each signed anew): the key.
  if (matched) return { verified: true, replay: { key: `id:${id!}`, expiresAt: replayExpiry(timestamp!, tolerance) } };
  return versionOne === 0
    ? refuse('webhook-signature holds no v1,<base64> signature')
    : refuse('no signature in webhook-signature matches the id, timestamp and body');
}

/**
 * Equal in constant time whatever the lengths: both sides are hashed first, so neither an early
 * exit on a length difference nor the secret's length shows in the timing.
 */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function verifyBearer(settings: WebhookVerification, request: InboundWebhook): VerificationOutcome {
  const noSecret = missingSecret(settings);
  if (noSecret) return noSecret;
  const authorization = headerOf(request, 'authorization');
  if (authorization === undefined) return refuse('missing Authorization header (Bearer <token>)');
  const bearer = /^Bearer +(\S+)$/i.exec(authorization);
  if (!bearer) return refuse('Authorization is not a Bearer token (Bearer <token>)');
  return sameSecret(bearer[1]!, settings.secret!) ? verified : refuse('the bearer token is not the expected one');
}

function verifyCustomHeader(settings: WebhookVerification, request: InboundWebhook): VerificationOutcome {
  if (settings.header === undefined) return refuse('Custom Header verification names no header');
  if (settings.value === undefined || settings.value === '')
    return refuse(`Custom Header verification has no expected value for ${settings.header} (is its variable set?)`);
  const given = headerOf(request, settings.header);
  if (given === undefined) return refuse(`missing ${settings.header} header`);
  return sameSecret(given, settings.value) ? verified : refuse(`${settings.header} is not the expected value`);
}

/**
 * Runs the author's JavaScript boolean over `headers`, `body` (the parsed JSON, or null when the
 * body is not JSON), `rawBody` (the body as UTF-8 text) and `secret` (null when none is set).
 */
async function verifyByScript(
  settings: WebhookVerification,
  request: InboundWebhook,
  sandbox: JsSandbox,
): Promise<VerificationOutcome> {
  if (settings.script === undefined) return refuse('Pre-script verification has no script');
  const rawBody = new TextDecoder().decode(request.rawBody);
  let body: unknown = null;
  try {
    body = JSON.parse(rawBody);
  } catch {
    // Not JSON: the script reads rawBody.
  }
  try {
    const answer = await sandbox.evaluateBoolean(settings.script, {
      headers: request.headers,
      body,
      rawBody,
      secret: settings.secret ?? null,
    });
    return answer === true ? verified : refuse('the pre-script answered false');
  } catch (error) {
    // The error's text is the script's to choose (`throw secret.split('').join('-')`, an error
    // quoting a value derived from the secret): the sender is told only that the script failed,
    // and the operator's log gets the text only from a script that was given no secret.
    const code = (error as { code?: unknown } | null)?.code;
    const message = error instanceof Error ? error.message : String(error);
    const shown =
      settings.secret === undefined || settings.secret === ''
        ? cut(message)
        : 'its message is withheld: the script reads the secret, and may have put it there in any form';
    return refuse('the pre-script failed', `${typeof code === 'string' ? `${code}: ` : ''}${shown}`);
  }
}

function cut(text: string): string {
  return text.length > MAX_DETAIL_LENGTH ? `${text.slice(0, MAX_DETAIL_LENGTH)}…` : text;
}
