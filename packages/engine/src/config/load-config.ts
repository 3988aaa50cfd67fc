import type { z } from 'zod';
import { SvcError } from '../errors.js';
import { CONFIG_VARIABLES } from './config-variables.js';

type Variables = typeof CONFIG_VARIABLES;

/** svc's configuration, one field per `SVC_*` variable (see `CONFIG_VARIABLES`), defaults applied. */
export type SvcConfig = { readonly [Key in keyof Variables]: z.output<Variables[Key]['schema']> };

/** What a process's environment looks like to `loadConfig`: `process.env`, or a plain object in tests. */
export type ConfigEnv = Readonly<Record<string, string | undefined>>;

/** One variable that cannot be used, as `CONFIG_ERROR`'s details list it. */
export interface ConfigProblem {
  variable: string;
  message: string;
}

/**
 * Reads every `SVC_*` variable of `env` at once, so that a bad value stops the start with the
 * variable's name and what it takes instead of failing (or being ignored) later. Blank counts as
 * unset. Throws `CONFIG_ERROR` listing every problem found.
 *
 * @example
 * const config = loadConfig(process.env);
 * config.leaseMs; // 30000 unless SVC_LEASE_MS says otherwise
 * loadConfig({ SVC_LEASE_MS: 'soon' }); // throws CONFIG_ERROR: SVC_LEASE_MS must be a whole number of milliseconds (1 or more), not "soon"
 */
export function loadConfig(env: ConfigEnv): SvcConfig {
  const config: Record<string, unknown> = {};
  const problems: ConfigProblem[] = [];
  for (const [key, variable] of Object.entries(CONFIG_VARIABLES)) {
    const raw = env[variable.name]?.trim();
    const parsed = variable.schema.safeParse(raw === '' ? undefined : raw);
    if (parsed.success) {
      config[key] = parsed.data;
      continue;
    }
    const shown = 'secret' in variable && variable.secret ? '' : `, not "${raw}"`;
    for (const issue of parsed.error.issues)
      problems.push({ variable: variable.name, message: `${variable.name} ${issue.message}${shown}` });
  }
  const loaded = config as SvcConfig;
  if (
    problems.length === 0 &&
    (loaded.bootstrapClientId === undefined) !== (loaded.bootstrapClientSecret === undefined)
  ) {
    const missing = loaded.bootstrapClientId === undefined ? 'SVC_BOOTSTRAP_CLIENT_ID' : 'SVC_BOOTSTRAP_CLIENT_SECRET';
    problems.push({
      variable: missing,
      message: 'set both SVC_BOOTSTRAP_CLIENT_ID and SVC_BOOTSTRAP_CLIENT_SECRET, or neither',
    });
  }
  if (problems.length > 0) {
    throw new SvcError('CONFIG_ERROR', problems.map((problem) => problem.message).join('; '), {
      details: { problems },
    });
  }
  return loaded;
}
