import type { MiddlewareHandler } from 'hono';
import { HttpError } from '../errors/http-error.js';
import { REALM } from './challenge.js';
import type { GatewayEnv } from './principal.js';
import { grants, type Scope } from './scopes.js';

/** Lets a request through only when its credential grants `scope` (see `grants`: `admin` and `operator` grant more). */
export function requireScope(scope: Scope): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    assertScope(c.get('principal').scopes, scope);
    await next();
  };
}

/** What in a request needs a scope: `reason` joins the message; all of it goes into `details`. */
export interface ScopeReason {
  reason: string;
  /** The one field that needs it. */
  path?: string;
  /** The fields that need it, when there are several. */
  problems?: { code: string; path: string; message: string }[];
}

/**
 * Throws 403 `INSUFFICIENT_SCOPE` unless `scopes` grant `scope`: for checks that depend on the
 * request. `why` says what in the request needs the scope.
 */
export function assertScope(scopes: ReadonlySet<Scope>, scope: Scope, why?: ScopeReason): void {
  if (grants(scopes, scope)) return;
  throw new HttpError(
    'INSUFFICIENT_SCOPE',
    `this request needs the scope "${scope}", which the credential does not grant${why ? `: ${why.reason}` : ''}`,
    {
      details: { requiredScope: scope, ...(why ?? {}) },
      headers: { 'WWW-Authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${scope}"` },
    },
  );
}
