import type { Context } from 'hono';
import { Hono } from 'hono';
import { z } from 'zod';
import type { ClientCredentialsGrant } from '../auth/gateway-auth.js';
import { REALM } from '../auth/challenge.js';
import { isScope } from '../auth/scopes.js';
import { TOKEN_LIFETIME_SECONDS } from '../auth/access-tokens.js';
import type { TokenThrottle } from '../auth/token-throttle.js';

/*
 * `POST /oauth/token`, the OAuth 2.0 client credentials grant (RFC 6749 §4.4). Its answers are
 * the ones OAuth client libraries expect, not the svc envelope: the token response of §5.1 and
 * the error response of §5.2, both with `Cache-Control: no-store`.
 */

/** The form fields of a token request; the checks beyond their shape answer RFC 6749 errors. */
export const tokenRequestSchema = z.object({
  grant_type: z.string().describe('client_credentials'),
  client_id: z.string().optional().describe('or HTTP Basic'),
  client_secret: z.string().optional().describe('or HTTP Basic'),
  scope: z.string().optional().describe("space-separated; a subset of the client's scopes"),
});

type OAuthError =
  'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'invalid_scope' | 'temporarily_unavailable';

function oauthError(
  c: Context,
  status: 400 | 401 | 429,
  error: OAuthError,
  description: string,
  headers: Record<string, string> = {},
): Response {
  c.header('Cache-Control', 'no-store');
  c.header('Pragma', 'no-cache');
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  return c.json({ error, error_description: description }, status);
}

/** `Basic base64(id:secret)`, each part form-urlencoded (RFC 6749 §2.3.1). */
function readBasic(header: string): { clientId: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/]+=*)\s*$/i.exec(header);
  if (match === null) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const unescape = (part: string) => {
    try {
      return decodeURIComponent(part.replaceAll('+', ' '));
    } catch {
      return undefined;
    }
  };
  const clientId = unescape(decoded.slice(0, colon));
  const secret = unescape(decoded.slice(colon + 1));
  return clientId === undefined || secret === undefined ? undefined : { clientId, secret };
}

/**
 * The address a request came from: the TCP peer as the Node server reports it (never a header a
 * client can write, such as X-Forwarded-For), or `unknown` where there is no socket.
 */
export function peerAddress(c: Context): string {
  const env = c.env as
    | {
        incoming?: { socket?: { remoteAddress?: string } };
        server?: { incoming?: { socket?: { remoteAddress?: string } } };
      }
    | undefined;
  return (env?.server ?? env)?.incoming?.socket?.remoteAddress ?? 'unknown';
}

export interface OAuthTokenRouteOptions {
  /** Refuses (429) an address that failed too often for a client id, or at all; none when absent. */
  throttle?: TokenThrottle;
}

export function oauthTokenRoutes(grant: ClientCredentialsGrant, options: OAuthTokenRouteOptions = {}): Hono {
  const { throttle } = options;
  const app = new Hono();
  app.post('/', async (c) => {
    const type = c.req.header('content-type') ?? '';
    if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
      return oauthError(
        c,
        400,
        'invalid_request',
        'the request must be form-encoded (Content-Type: application/x-www-form-urlencoded)',
      );
    }
    const form = new URLSearchParams(await c.req.text());
    const repeated = [...new Set(form.keys())].find((name) => form.getAll(name).length > 1);
    if (repeated !== undefined)
      return oauthError(c, 400, 'invalid_request', `the parameter "${repeated}" is sent more than once`);

    const fields = tokenRequestSchema.safeParse(Object.fromEntries(form));
    if (!fields.success) return oauthError(c, 400, 'invalid_request', 'grant_type is required');
    const grantType = fields.data.grant_type;
    if (!grantType) return oauthError(c, 400, 'invalid_request', 'grant_type is required');
    if (grantType !== 'client_credentials')
      return oauthError(
        c,
        400,
        'unsupported_grant_type',
        `grant_type "${grantType}" is not supported; use client_credentials`,
      );

    const authorization = c.req.header('authorization');
    const basic = authorization === undefined ? undefined : readBasic(authorization);
    if (authorization !== undefined && basic === undefined) {
      return oauthError(
        c,
        401,
        'invalid_client',
        'the Authorization header must be HTTP Basic with client_id:client_secret',
        {
          'WWW-Authenticate': `Basic realm="${REALM}"`,
        },
      );
    }
    if (
      basic !== undefined &&
      (form.has('client_secret') || (form.has('client_id') && form.get('client_id') !== basic.clientId))
    ) {
      return oauthError(
        c,
        400,
        'invalid_request',
        'send the client credentials one way: HTTP Basic or form fields, not both',
      );
    }
    const clientId = basic?.clientId ?? form.get('client_id');
    const secret = basic?.secret ?? form.get('client_secret');
    if (!clientId || !secret) return oauthError(c, 401, 'invalid_client', 'client_id and client_secret are required');

    // Refused before the secret is looked at: once over the limit, even the right secret waits,
    // or the throttle would not slow guessing at all.
    const address = peerAddress(c);
    const retryAfter = throttle?.retryAfter(clientId, address);
    if (retryAfter !== undefined) {
      return oauthError(
        c,
        429,
        'temporarily_unavailable',
        `too many failed attempts from this address; retry in ${retryAfter} s`,
        { 'Retry-After': String(retryAfter) },
      );
    }
    const checked = await grant.checkClient(clientId, secret);
    if (checked.ok) throttle?.succeeded(clientId, address);
    else throttle?.failed(clientId, address);
    if (!checked.ok) {
      return oauthError(
        c,
        401,
        'invalid_client',
        checked.reason,
        basic === undefined ? {} : { 'WWW-Authenticate': `Basic realm="${REALM}"` },
      );
    }

    const requested = form.get('scope');
    let scopes = checked.client.scopes;
    if (requested !== null) {
      const names = requested.split(' ').filter(Boolean);
      const refused = names.filter((name) => !isScope(name) || !checked.client.scopes.includes(name));
      if (names.length === 0 || refused.length > 0) {
        return oauthError(
          c,
          400,
          'invalid_scope',
          names.length === 0
            ? 'scope is empty'
            : `the client may not use the scope${refused.length > 1 ? 's' : ''} ${refused.join(', ')}`,
        );
      }
      scopes = [...new Set(names)];
    }

    const { token } = await grant.tokens.issue({
      clientId: checked.client.clientId,
      tenantId: checked.client.tenantId,
      scopes,
    });
    c.header('Cache-Control', 'no-store');
    c.header('Pragma', 'no-cache');
    return c.json({
      access_token: token,
      token_type: 'Bearer',
      expires_in: TOKEN_LIFETIME_SECONDS,
      scope: scopes.join(' '),
    });
  });
  return app;
}
