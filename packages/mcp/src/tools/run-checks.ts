import { describeRunNeeds } from '@svc/discovery';
import { isSvcError, SvcError, type StoredFlow } from '@svc/engine';
import type { SvcApi } from '../api/svc-api.js';

/** The env keys a flow reads with no fallback, that `env` does not give. */
export function missingEnvKeys(flow: StoredFlow, env: Record<string, unknown> | undefined): string[] {
  return describeRunNeeds(flow)
    .env.filter((variable) => variable.required && (env === undefined || env[variable.name] === undefined))
    .map((variable) => variable.name);
}

/**
 * Refuses a run whose flows read env keys the call does not give, naming every key and where it
 * is read, instead of starting executions that each fail on an unresolved URL.
 */
export function assertEnvGiven(flows: StoredFlow[], env: Record<string, unknown> | undefined): void {
  const missing = new Map<string, string[]>();
  for (const flow of flows) {
    for (const key of missingEnvKeys(flow, env)) missing.set(key, [...(missing.get(key) ?? []), flow.name]);
  }
  if (missing.size === 0) return;
  const keys = [...missing.keys()];
  const where = [...missing].map(
    ([key, names]) =>
      `${key} (read by ${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''})`,
  );
  throw new SvcError(
    'MISSING_ENV',
    `env does not give ${keys.join(', ')}: ${where.join('; ')}. Pass env with ${keys.map((key) => `"${key}"`).join(', ')}, e.g. {"baseUrl":"http://localhost:4010"}; nothing was run`,
    { details: { missing: keys } },
  );
}

/**
 * What a run's `env` gives, for the check above: the object itself, or a stored environment's
 * variables (secrets as `***`; only their keys matter); `null` when the credential may run flows
 * but not read environments, so the run itself resolves the name. An unknown name is
 * `ENVIRONMENT_NOT_FOUND`.
 */
export async function envKeysOf(
  api: SvcApi,
  env: string | Record<string, unknown> | undefined,
): Promise<Record<string, unknown> | undefined | null> {
  if (typeof env !== 'string') return env;
  try {
    return (await api.getEnvironment(env)).variables;
  } catch (error) {
    if (isSvcError(error) && error.code === 'INSUFFICIENT_SCOPE') return null;
    throw error;
  }
}

/** `assertEnvGiven` when `envKeysOf` could tell what the env gives. */
export async function assertRunEnvGiven(
  api: SvcApi,
  flows: StoredFlow[],
  env: string | Record<string, unknown> | undefined,
): Promise<void> {
  const given = await envKeysOf(api, env);
  if (given !== null) assertEnvGiven(flows, given);
}
