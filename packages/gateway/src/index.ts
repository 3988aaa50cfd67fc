/** @svc/gateway: the REST gateway (a Hono app over the engine) and the `svc` command line. */
export { renderTrace } from './cli/render-trace.js';
export { createApp, DEFAULT_MAX_BODY_BYTES, type AppDeps } from './app.js';
export { ERROR_STATUS, statusForCode } from './errors/error-table.js';
export { SCOPES, DEFAULT_SCOPES, type Scope } from './auth/scopes.js';
export type { Authenticator, Principal, PresentedCredentials } from './auth/principal.js';
export {
  createGatewayAuth,
  type GatewayAuth,
  type GatewayAuthOptions,
  type ClientCredentialsGrant,
} from './auth/gateway-auth.js';
export {
  createTenant,
  createClient,
  rotateClientSecret,
  revokeClient,
  TRIAL_LIFETIME_MS,
  ROTATION_GRACE_MS,
  type NewClient,
  type ProvisionedClient,
} from './auth/provision.js';
export { TOKEN_LIFETIME_SECONDS } from './auth/access-tokens.js';
export {
  startGatewayServer,
  BOOTSTRAP_TENANT,
  type GatewayServer,
  type GatewayServerOptions,
  type Bootstrapped,
} from './serve.js';
export type { RateLimitOptions } from './auth/rate-limit.js';
export { TOKEN_THROTTLE_DEFAULTS, type TokenThrottleOptions } from './auth/token-throttle.js';
export { buildOpenApiDocument } from './openapi/openapi-document.js';
