import type { Engine, RunEnvironment, RunEnvironmentRequest } from '@svc/engine';
import { REALM } from '../auth/challenge.js';
import type { Principal } from '../auth/principal.js';
import { grants } from '../auth/scopes.js';
import { HttpError } from '../errors/http-error.js';

/**
 * A REST run's environment (`env`, `environment`), as `engine.environments.resolveRun` makes it.
 * Overriding a stored environment's plain values while it holds secrets (a new `baseUrl`, say)
 * decides where those secrets go, which is changing the environment: it needs
 * `environments:write`, not only the scope that runs. Secrets, and keys the environment does not
 * hold, may be given by any run.
 */
export async function resolveRestRunEnvironment(
  engine: Engine,
  principal: Principal,
  request: RunEnvironmentRequest,
): Promise<RunEnvironment> {
  const resolved = await engine.environments.resolveRun(principal.tenantId, request);
  if (resolved.redirectedKeys.length === 0 || grants(principal.scopes, 'environments:write')) return resolved;
  const keys = resolved.redirectedKeys.map((key) => `"${key}"`).join(', ');
  throw new HttpError(
    'INSUFFICIENT_SCOPE',
    `env overrides ${keys} of a stored environment that holds secrets, which decides where its secrets go: ` +
      'that needs the scope "environments:write", which the credential does not grant',
    {
      details: {
        requiredScope: 'environments:write',
        problems: resolved.redirectedKeys.map((key) => ({
          code: 'INSUFFICIENT_SCOPE',
          path: `env.${key}`,
          message: 'overrides a stored value of an environment that holds secrets',
        })),
      },
      headers: {
        'WWW-Authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="environments:write"`,
      },
    },
  );
}
