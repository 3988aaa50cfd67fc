import { and, asc, eq, or } from 'drizzle-orm';
import { SvcError } from '../../errors.js';
import type { ApiClientRecord, ApiClientRepository } from '../types.js';
import type { SqliteContext } from './context.js';
import { apiClients, type ApiClientRow } from './schema.js';
import { isForeignKeyViolation, isPrimaryKeyViolation } from './sqlite-errors.js';

export function clientNotFound(clientId: string): SvcError {
  return new SvcError('CLIENT_NOT_FOUND', `client "${clientId}" not found`);
}

/*
 * Clients are read once per token request or API-key call and written rarely, so every query goes
 * through drizzle; the lookups by client id and secret hash run on unique indexes.
 */
export function createApiClientRepository({ sqlite, db }: SqliteContext): ApiClientRepository {
  const byKey = (tenantId: string, clientId: string) =>
    and(eq(apiClients.tenantId, tenantId), eq(apiClients.clientId, clientId));
  const read = (tenantId: string, clientId: string): ApiClientRecord | undefined => {
    const row = db.select().from(apiClients).where(byKey(tenantId, clientId)).get();
    return row === undefined ? undefined : toRecord(row);
  };

  const rotate = sqlite.transaction(
    (
      tenantId: string,
      clientId: string,
      rotation: { secretHash: string; previousSecretExpiresAt: number },
    ): ApiClientRecord => {
      const current = read(tenantId, clientId);
      if (current === undefined) throw clientNotFound(clientId);
      db.update(apiClients)
        .set({
          secretHash: rotation.secretHash,
          previousSecretHash: current.secretHash,
          previousSecretExpiresAt: rotation.previousSecretExpiresAt,
        })
        .where(byKey(tenantId, clientId))
        .run();
      return read(tenantId, clientId)!;
    },
  );

  return {
    async create(client) {
      try {
        db.insert(apiClients).values(toRow(client)).run();
      } catch (error) {
        if (isForeignKeyViolation(error)) {
          throw new SvcError('TENANT_NOT_FOUND', `tenant "${client.tenantId}" not found`, { cause: error });
        }
        if (isPrimaryKeyViolation(error)) {
          throw new SvcError('CONFLICT', `client "${client.clientId}" or its secret already exists`, { cause: error });
        }
        throw error;
      }
    },
    async get(tenantId, clientId) {
      return read(tenantId, clientId);
    },
    async findByClientId(clientId) {
      const row = db.select().from(apiClients).where(eq(apiClients.clientId, clientId)).get();
      return row === undefined ? undefined : toRecord(row);
    },
    async findBySecretHash(secretHash) {
      const row = db
        .select()
        .from(apiClients)
        .where(or(eq(apiClients.secretHash, secretHash), eq(apiClients.previousSecretHash, secretHash)))
        .get();
      return row === undefined ? undefined : toRecord(row);
    },
    async list(tenantId) {
      return db
        .select()
        .from(apiClients)
        .where(eq(apiClients.tenantId, tenantId))
        .orderBy(asc(apiClients.createdAt), asc(apiClients.clientId))
        .all()
        .map(toRecord);
    },
    async rotateSecret(tenantId, clientId, rotation) {
      try {
        return rotate.immediate(tenantId, clientId, rotation);
      } catch (error) {
        if (isPrimaryKeyViolation(error)) {
          throw new SvcError('CONFLICT', 'the new secret is already in use', { cause: error });
        }
        throw error;
      }
    },
    async revoke(tenantId, clientId, at) {
      const current = read(tenantId, clientId);
      if (current === undefined) throw clientNotFound(clientId);
      if (current.revokedAt !== null) return current;
      db.update(apiClients).set({ revokedAt: at }).where(byKey(tenantId, clientId)).run();
      return { ...current, revokedAt: at };
    },
    async setScopes(tenantId, clientId, scopes) {
      const changed = db
        .update(apiClients)
        .set({ scopes: JSON.stringify(scopes) })
        .where(byKey(tenantId, clientId))
        .run();
      if (changed.changes === 0) throw clientNotFound(clientId);
      return read(tenantId, clientId)!;
    },
  };
}

export function toRow(client: ApiClientRecord): ApiClientRow {
  return {
    tenantId: client.tenantId,
    clientId: client.clientId,
    name: client.name,
    scopes: JSON.stringify(client.scopes),
    trial: client.trial,
    expiresAt: client.expiresAt,
    secretHash: client.secretHash,
    previousSecretHash: client.previousSecretHash,
    previousSecretExpiresAt: client.previousSecretExpiresAt,
    revokedAt: client.revokedAt,
    createdAt: client.createdAt,
  };
}

export function toRecord(row: ApiClientRow): ApiClientRecord {
  return { ...row, scopes: JSON.parse(row.scopes) as string[] };
}
