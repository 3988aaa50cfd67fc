import type { MiddlewareHandler } from 'hono';
import type { Authenticator, GatewayEnv } from './principal.js';

/** Reads the credentials of every `/api/*` request and sets the caller as `principal`. */
export function authenticate(authenticator: Authenticator): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const principal = await authenticator.authenticate({
      authorization: c.req.header('authorization'),
      apiKey: c.req.header('x-api-key'),
    });
    c.set('principal', principal);
    await next();
  };
}
