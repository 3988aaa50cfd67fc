import type { Engine, SavedTarget } from '@svc/engine';
import { assertScope } from '../auth/require-scope.js';
import type { Principal } from '../auth/principal.js';
import { grants } from '../auth/scopes.js';

/**
 * A flow or suite that a schedule runs with a stored environment (or that a webhook trigger
 * naming one reaches as a subflow) decides, whenever it runs, where that environment's secrets go:
 * saving it is starting runs with the environment, which REST allows only with `executions:run`.
 * A caller who holds that scope is not asked; for others the tenant's schedules and triggers are
 * read. `target` finds what the save would change (none for a new flow or suite); it is looked
 * up only for such a caller.
 */
export async function assertMaySaveUnattended(
  engine: Engine,
  principal: Principal,
  target: () => SavedTarget | undefined | Promise<SavedTarget | undefined>,
): Promise<void> {
  if (grants(principal.scopes, 'executions:run')) return;
  const saved = await target();
  if (saved === undefined) return;
  const why = await engine.unattendedRunWithStoredEnvironment(principal.tenantId, saved);
  if (why !== undefined) assertScope(principal.scopes, 'executions:run', { reason: why });
}
