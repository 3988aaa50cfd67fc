import type { SecretCipher } from '../environments/secret-cipher.js';
import { SvcError } from '../errors.js';
import type { AlertChannelDefinition, AlertChannelRecord, AlertChannelType } from './health-types.js';
import { randomId } from './random-id.js';

/** `alc_` and 20 base32 characters (100 random bits), like suite ids. */
export function newAlertChannelId(): string {
  return randomId('alc_');
}

/**
 * An alert channel row as both stores hold it: `settings` is JSON text, `secrets` the JSON text of
 * the sealed secrets by name.
 */
export interface AlertChannelRowValues {
  tenantId: string;
  id: string;
  suiteId: string;
  name: string;
  type: AlertChannelType;
  enabled: boolean;
  repeatEveryMs: number | null;
  settings: string;
  secrets: string;
  createdAt: number;
  updatedAt: number;
}

export function alertChannelNotFound(id: string): SvcError {
  return new SvcError('ALERT_CHANNEL_NOT_FOUND', `alert channel "${id}" not found`);
}

/** A unique key taken: the suite's channel name when `byName`, else the id. */
export function alertChannelConflict(error: unknown, byName: boolean, id: string, name: string): SvcError {
  return byName
    ? new SvcError('CONFLICT', `the suite already has an alert channel named "${name}"`, { cause: error })
    : new SvcError('CONFLICT', `alert channel "${id}" already exists`, { cause: error });
}

function parseSealed(row: AlertChannelRowValues): Record<string, string> {
  return Object.assign(
    Object.create(null) as Record<string, string>,
    JSON.parse(row.secrets) as Record<string, string>,
  );
}

/** The record of a row: the names of its secrets, never their values. */
export function toAlertChannelRecord(row: AlertChannelRowValues): AlertChannelRecord {
  return {
    id: row.id,
    tenantId: row.tenantId,
    suiteId: row.suiteId,
    name: row.name,
    type: row.type,
    // SQLite's raw statements read the column as 0 or 1.
    enabled: Boolean(row.enabled),
    repeatEveryMs: row.repeatEveryMs,
    settings: JSON.parse(row.settings) as Record<string, unknown>,
    secretKeys: Object.keys(parseSealed(row)).sort(),
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/**
 * Seals and opens alert channel rows with one store's cipher. The sealing context names tenant,
 * channel and secret, so a sealed value copied into another row does not open there.
 */
export interface AlertChannelCodec {
  /** The row of `definition`, its secrets sealed. */
  rowOf(
    tenantId: string,
    suiteId: string,
    id: string,
    definition: AlertChannelDefinition,
    createdAt: number,
    updatedAt: number,
  ): AlertChannelRowValues;
  /** The row's secrets opened, by name. */
  openSecrets(row: AlertChannelRowValues): Record<string, string>;
}

export function createAlertChannelCodec(cipher: SecretCipher): AlertChannelCodec {
  const contextOf = (tenantId: string, id: string, key: string) => `alert-channel/${tenantId}/${id}/${key}`;
  const seal = (tenantId: string, id: string, secrets: Record<string, string>): string => {
    const sealed: Record<string, string> = {};
    for (const [key, value] of Object.entries(secrets))
      sealed[key] = cipher.encrypt(value, contextOf(tenantId, id, key));
    return JSON.stringify(sealed);
  };

  return {
    rowOf: (tenantId, suiteId, id, definition, createdAt, updatedAt) => ({
      tenantId,
      id,
      suiteId,
      name: definition.name,
      type: definition.type,
      enabled: definition.enabled,
      repeatEveryMs: definition.repeatEveryMs,
      settings: JSON.stringify(definition.settings),
      secrets: seal(tenantId, id, definition.secrets),
      createdAt,
      updatedAt,
    }),

    openSecrets(row) {
      const opened: Record<string, string> = {};
      for (const [key, sealed] of Object.entries(parseSealed(row))) {
        opened[key] = cipher.decrypt(sealed, contextOf(row.tenantId, row.id, key));
      }
      return opened;
    },
  };
}
