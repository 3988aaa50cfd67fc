import { BoundedMap } from '../bounded-map.js';
import type { SecretCipher } from '../environments/secret-cipher.js';
import { SvcError } from '../errors.js';
import {
  SECRET_MASK,
  type EnvironmentDefinition,
  type EnvironmentPatch,
  type EnvironmentRecord,
  type ResolvedEnvironment,
} from './types.js';
import { randomId } from './random-id.js';

/** `envr_` and 20 base32 characters (100 random bits), like flow and suite ids. */
export function newEnvironmentId(): string {
  return randomId('envr_');
}

/** An environment row as both stores hold it; `variables` is the JSON text of `StoredVariables`. */
export interface EnvironmentRowValues {
  tenantId: string;
  id: string;
  name: string;
  description: string;
  variables: string;
  createdAt: number;
  updatedAt: number;
}

/** The columns an edit of an environment writes. */
export type EnvironmentChange = Pick<EnvironmentRowValues, 'name' | 'description' | 'variables'>;

/** One variable as a row holds it: a plain JSON value, or a secret's sealed JSON text. */
type StoredVariable = { value: unknown } | { sealed: string };
type StoredVariables = Record<string, StoredVariable>;

export function environmentNotFound(id: string): SvcError {
  return new SvcError('ENVIRONMENT_NOT_FOUND', `environment "${id}" not found`);
}

/** A unique key taken: the tenant's name when `byName`, else the id. */
export function environmentConflict(error: unknown, byName: boolean, id: string, name: string): SvcError {
  return byName
    ? new SvcError('CONFLICT', `an environment named "${name}" already exists`, { cause: error })
    : new SvcError('CONFLICT', `environment "${id}" already exists`, { cause: error });
}

function parseVariables(row: EnvironmentRowValues): StoredVariables {
  // A null-prototype object: a variable named `__proto__` is a key like any other.
  return Object.assign(Object.create(null) as StoredVariables, JSON.parse(row.variables) as StoredVariables);
}

/** The record of a row, each secret's value masked. */
export function toEnvironmentRecord(row: EnvironmentRowValues): EnvironmentRecord {
  const variables: Record<string, unknown> = {};
  const secretKeys: string[] = [];
  for (const [key, variable] of Object.entries(parseVariables(row))) {
    if ('sealed' in variable) {
      variables[key] = SECRET_MASK;
      secretKeys.push(key);
    } else variables[key] = variable.value;
  }
  return {
    id: row.id,
    tenantId: row.tenantId,
    name: row.name,
    description: row.description,
    variables,
    secretKeys: secretKeys.sort(),
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/**
 * Seals and opens environment rows with one store's cipher. The sealing context names tenant,
 * environment and key, so a sealed value moved to another row does not open there, and a row
 * copied between the stores under the same key opens in both.
 */
export interface EnvironmentCodec {
  /** A new row for `definition`, its secrets sealed. */
  newRow(tenantId: string, id: string, definition: EnvironmentDefinition, now: number): EnvironmentRowValues;
  /** `row` replaced by `definition`; each of `keepSecrets` that the row holds sealed keeps its sealed value. */
  replaced(row: EnvironmentRowValues, definition: EnvironmentDefinition, keepSecrets?: string[]): EnvironmentChange;
  /** `row` with `patch` applied: keys unset, variables and secrets set, the description replaced if given. */
  patched(row: EnvironmentRowValues, patch: EnvironmentPatch): EnvironmentChange;
  /** The row's values with its secrets opened. */
  open(row: EnvironmentRowValues): ResolvedEnvironment;
}

export function createEnvironmentCodec(cipher: SecretCipher): EnvironmentCodec {
  const contextOf = (tenantId: string, id: string, key: string) => `${tenantId}/${id}/${key}`;
  const sealValue = (tenantId: string, id: string, key: string, value: unknown) => ({
    sealed: cipher.encrypt(JSON.stringify(value ?? null), contextOf(tenantId, id, key)),
  });
  const seal = (tenantId: string, id: string, definition: EnvironmentDefinition): StoredVariables => {
    const stored = Object.create(null) as StoredVariables;
    for (const [key, value] of Object.entries(definition.variables)) stored[key] = { value };
    for (const [key, value] of Object.entries(definition.secrets)) stored[key] = sealValue(tenantId, id, key, value);
    return stored;
  };

  /*
   * Values of recently opened rows, each with the `variables` text it was opened from. The same
   * text opens to the same values, so a row read again unchanged (a webhook trigger naming its
   * environment, every run of a schedule) is not decrypted again; any write changes the text (a
   * sealed value gets a new nonce each time it is sealed), whichever process made it, and the row
   * is opened anew. Nothing is kept that a read of the row would not confirm.
   */
  const opened = new BoundedMap<string, { variables: string; values: Record<string, unknown>; secretKeys: string[] }>(
    256,
  );

  return {
    newRow(tenantId, id, definition, now) {
      return {
        tenantId,
        id,
        name: definition.name,
        description: definition.description,
        variables: JSON.stringify(seal(tenantId, id, definition)),
        createdAt: now,
        updatedAt: now,
      };
    },

    replaced(row, definition, keepSecrets = []) {
      const current = parseVariables(row);
      const variables = seal(row.tenantId, row.id, definition);
      for (const key of keepSecrets) {
        const kept = current[key];
        if (kept !== undefined && 'sealed' in kept) variables[key] = kept;
      }
      return { name: definition.name, description: definition.description, variables: JSON.stringify(variables) };
    },

    patched(row, patch) {
      const variables = parseVariables(row);
      for (const key of patch.unset ?? []) delete variables[key];
      for (const [key, value] of Object.entries(patch.variables ?? {})) variables[key] = { value };
      for (const [key, value] of Object.entries(patch.secrets ?? {}))
        variables[key] = sealValue(row.tenantId, row.id, key, value);
      return {
        name: row.name,
        description: patch.description ?? row.description,
        variables: JSON.stringify(variables),
      };
    },

    open(row) {
      const cacheKey = `${row.tenantId}\u0000${row.id}`;
      let entry = opened.get(cacheKey);
      if (entry === undefined || entry.variables !== row.variables) {
        const values: Record<string, unknown> = {};
        const secretKeys: string[] = [];
        for (const [key, variable] of Object.entries(parseVariables(row))) {
          if ('sealed' in variable) {
            values[key] = JSON.parse(cipher.decrypt(variable.sealed, contextOf(row.tenantId, row.id, key))) as unknown;
            secretKeys.push(key);
          } else values[key] = variable.value;
        }
        entry = { variables: row.variables, values, secretKeys: secretKeys.sort() };
        opened.set(cacheKey, entry);
      }
      return { id: row.id, name: row.name, values: { ...entry.values }, secretKeys: [...entry.secretKeys] };
    },
  };
}
