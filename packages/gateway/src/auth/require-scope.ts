import type { MiddlewareHandler } from 'hono';
import { HttpError } from '../errors/http-error.js';
import { REALM } from './challenge.js';
import type { GatewayEnv } from './principal.js';
import type { Scope } from './scopes.js';

/** Lets a request through only when its credential grants `scope` (or `admin`, which grants all). */
export function requireScope(scope: Scope): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const { scopes } = c.get('principal');
    if (!scopes.has(scope) && !scopes.has('admin')) {
      throw new HttpError('INSUFFICIENT_SCOPE', `this request needs the scope "${scope}", which the credential does not grant`, {
        status: 403,
        details: { requiredScope: scope },
        headers: { 'WWW-Authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${scope}"` },
      });
    }
    await next();
  };
}
