import { SvcError } from '../errors.js';
import { SECRET_MASK, type EnvironmentRecord, type Store } from '../store/types.js';
import {
  environmentBodySchema,
  parseEnvironmentInput as parse,
  setEnvironmentSchema,
  type SetEnvironmentRequest,
} from './environment-schema.js';

/** What a run reads as `env.*`, and which of its keys are secret. */
export interface RunEnvironment {
  env: Record<string, unknown>;
  secretKeys: string[];
  /**
   * The keys whose stored values the overrides replaced, when the stored environment holds a
   * secret and the key is not one: a run so changed can send the secrets elsewhere (a new
   * `baseUrl`), which is as much as changing the environment. Empty otherwise.
   */
  redirectedKeys: string[];
}

/** A run's `env` and `environment` as a door received them. */
export interface RunEnvironmentRequest {
  env?: string | Record<string, unknown> | undefined;
  environment?: string | undefined;
}

export interface EnvironmentService {
  /** By name. */
  list(tenantId: string): Promise<EnvironmentRecord[]>;
  /** By id, else by name; `ENVIRONMENT_NOT_FOUND` otherwise (another tenant's included). */
  get(tenantId: string, idOrName: string): Promise<EnvironmentRecord>;
  /** Validates `body` (`environmentBodySchema`); a name in use is `CONFLICT`. */
  create(tenantId: string, body: unknown): Promise<EnvironmentRecord>;
  /** Replaces the environment; a secret sent as `***` keeps its stored value. */
  update(tenantId: string, idOrName: string, body: unknown): Promise<EnvironmentRecord>;
  delete(tenantId: string, idOrName: string): Promise<EnvironmentRecord>;
  /** Writes the variables given (creating the environment when missing), keeps the rest. */
  set(tenantId: string, request: unknown): Promise<{ environment: EnvironmentRecord; created: boolean }>;
  /**
   * The environment of a run: `env` as a string names a stored environment (its secrets
   * decrypted), as an object it is the environment itself. With `environment` (a stored one's
   * name), the object `env` overrides its values key by key. Stored secret keys stay secret
   * whatever their names. An unknown name is `ENVIRONMENT_NOT_FOUND`.
   */
  resolveRun(tenantId: string, request: RunEnvironmentRequest): Promise<RunEnvironment>;
}

/**
 * Stored environments of a tenant, for every door (REST, MCP, CLI).
 * @example
 * await engine.environments.set('acme', { name: 'staging', variables: { baseUrl }, secrets: { apiToken } });
 * const { env, secretKeys } = await engine.environments.resolveRun('acme', { environment: 'staging', env: { baseUrl: 'http://localhost:4010' } });
 */
export function createEnvironmentService(store: Store): EnvironmentService {
  const repository = store.environments;

  const notFound = (idOrName: string) =>
    new SvcError(
      'ENVIRONMENT_NOT_FOUND',
      `environment "${idOrName}" not found; svc env list (or GET /api/gateway/environments) lists them`,
    );
  const find = async (tenantId: string, idOrName: string): Promise<EnvironmentRecord> => {
    const found = (await repository.get(tenantId, idOrName)) ?? (await repository.findByName(tenantId, idOrName));
    if (found === undefined) throw notFound(idOrName);
    return found;
  };

  return {
    list: (tenantId) => repository.list(tenantId),
    get: find,

    async create(tenantId, body) {
      const parsed = parse(environmentBodySchema, body);
      const kept = parsed.secretKeys.filter((key) => parsed.variables[key] === SECRET_MASK);
      if (kept.length > 0) throw maskWithoutValue(kept);
      return repository.create(tenantId, split(parsed.variables, parsed.secretKeys, parsed.name, parsed.description));
    },

    async update(tenantId, idOrName, body) {
      const parsed = parse(environmentBodySchema, body);
      const current = await find(tenantId, idOrName);
      const keep = parsed.secretKeys.filter((key) => parsed.variables[key] === SECRET_MASK);
      const missing = keep.filter((key) => !current.secretKeys.includes(key));
      if (missing.length > 0) throw maskWithoutValue(missing);
      const definition = split(parsed.variables, parsed.secretKeys, parsed.name, parsed.description);
      for (const key of keep) delete definition.secrets[key];
      return repository.update(tenantId, current.id, definition, { keepSecrets: keep });
    },

    async delete(tenantId, idOrName) {
      const current = await find(tenantId, idOrName);
      if (!(await repository.delete(tenantId, current.id)))
        throw new SvcError('ENVIRONMENT_NOT_FOUND', `environment "${idOrName}" not found`);
      return current;
    },

    async set(tenantId, input) {
      const request: SetEnvironmentRequest = parse(setEnvironmentSchema, input);
      const current = await repository.findByName(tenantId, request.name);
      if (current === undefined) {
        const environment = await repository.create(tenantId, {
          name: request.name,
          description: request.description ?? '',
          variables: request.variables ?? {},
          secrets: request.secrets ?? {},
        });
        return { environment, created: true };
      }
      const environment = await repository.patch(tenantId, current.id, {
        ...(request.description === undefined ? {} : { description: request.description }),
        variables: request.variables ?? {},
        secrets: request.secrets ?? {},
        unset: request.unset ?? [],
      });
      return { environment, created: false };
    },

    async resolveRun(tenantId, { env, environment }) {
      if (environment !== undefined && typeof env === 'string') {
        throw new SvcError(
          'VALIDATION_ERROR',
          `env "${env}" and environment "${environment}" both name a stored environment; name one, and give env as an object of overrides`,
          {
            details: {
              problems: [
                { code: 'INVALID_FIELD', path: 'env', message: 'expected an object of overrides beside environment' },
              ],
            },
          },
        );
      }
      const name = environment ?? (typeof env === 'string' ? env : undefined);
      const inline = typeof env === 'object' ? env : {};
      if (name === undefined) return { env: { ...inline }, secretKeys: [], redirectedKeys: [] };
      // By id, else by name, as `get` finds it; one read of the row either way.
      const resolved = (await repository.resolve(tenantId, name)) ?? (await repository.resolveByName(tenantId, name));
      if (resolved === undefined) throw notFound(name);
      const redirectedKeys =
        resolved.secretKeys.length === 0
          ? []
          : Object.keys(inline).filter(
              (key) => Object.hasOwn(resolved.values, key) && !resolved.secretKeys.includes(key),
            );
      return { env: { ...resolved.values, ...inline }, secretKeys: resolved.secretKeys, redirectedKeys };
    },
  };
}

function split(variables: Record<string, unknown>, secretKeys: string[], name: string, description: string) {
  const plain: Record<string, unknown> = {};
  const secrets: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(variables)) (secretKeys.includes(key) ? secrets : plain)[key] = value;
  return { name, description, variables: plain, secrets };
}

function maskWithoutValue(keys: string[]): SvcError {
  const problems = keys.map((key) => ({
    code: 'INVALID_FIELD',
    path: `variables.${key}`,
    message: `"${SECRET_MASK}" keeps a stored secret, and "${key}" has none; send its value`,
  }));
  return new SvcError(
    'VALIDATION_ERROR',
    `the environment does not validate: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
    { details: { problems } },
  );
}
