import type { Engine, RunEnvironment, RunEnvironmentRequest } from '@svc/engine';
import type { Principal } from '../auth/principal.js';
import { assertScope } from '../auth/require-scope.js';

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
  if (resolved.redirectedKeys.length > 0) {
    const keys = resolved.redirectedKeys.map((key) => `"${key}"`).join(', ');
    assertScope(principal.scopes, 'environments:write', {
      reason: `env overrides ${keys} of a stored environment that holds secrets, which decides where its secrets go`,
      problems: resolved.redirectedKeys.map((key) => ({
        code: 'INSUFFICIENT_SCOPE',
        path: `env.${key}`,
        message: 'overrides a stored value of an environment that holds secrets',
      })),
    });
  }
  return resolved;
}
