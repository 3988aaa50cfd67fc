import { SvcError } from '../../errors.js';
import type { ApiClientRecord, ApiClientRepository } from '../types.js';
import { clientNotFound, toRecord, toRow } from '../sqlite/api-client-repository.js';
import { inTransaction, type PostgresContext } from './context.js';
import { isForeignKeyViolation, uniqueViolation } from './pg-errors.js';
import { apiClients, type ApiClientRow } from './schema.js';
import { insertSql, rowValues, selectList, tableName } from './table-sql.js';

/** Clients are read once per token request or API-key call and written rarely. */
export function createApiClientRepository({ pool }: PostgresContext): ApiClientRepository {
  const table = tableName(apiClients);
  const select = `SELECT ${selectList(apiClients)} FROM ${table}`;
  const insert = insertSql(apiClients);
  const read = async (tenantId: string, clientId: string): Promise<ApiClientRecord | undefined> => {
    const row = (
      await pool.query<ApiClientRow>(`${select} WHERE tenant_id = $1 AND client_id = $2`, [tenantId, clientId])
    ).rows[0];
    return row === undefined ? undefined : toRecord(row);
  };
  /** Updates one client and answers it as it is afterwards; missing: `CLIENT_NOT_FOUND`. */
  const change = async (tenantId: string, clientId: string, set: string, values: unknown[]) => {
    const row = (
      await pool.query<ApiClientRow>(
        `UPDATE ${table} SET ${set} WHERE tenant_id = $1 AND client_id = $2 RETURNING ${selectList(apiClients)}`,
        [tenantId, clientId, ...values],
      )
    ).rows[0];
    if (row === undefined) throw clientNotFound(clientId);
    return toRecord(row);
  };

  return {
    async create(client) {
      try {
        await pool.query(insert, rowValues(apiClients, toRow(client)));
      } catch (error) {
        if (isForeignKeyViolation(error)) {
          throw new SvcError('TENANT_NOT_FOUND', `tenant "${client.tenantId}" not found`, { cause: error });
        }
        if (uniqueViolation(error) !== undefined) {
          throw new SvcError('CONFLICT', `client "${client.clientId}" or its secret already exists`, { cause: error });
        }
        throw error;
      }
    },
    get: read,
    async findByClientId(clientId) {
      const row = (await pool.query<ApiClientRow>(`${select} WHERE client_id = $1`, [clientId])).rows[0];
      return row === undefined ? undefined : toRecord(row);
    },
    async findBySecretHash(secretHash) {
      const row = (
        await pool.query<ApiClientRow>(`${select} WHERE secret_hash = $1 OR previous_secret_hash = $1 LIMIT 1`, [
          secretHash,
        ])
      ).rows[0];
      return row === undefined ? undefined : toRecord(row);
    },
    async list(tenantId) {
      return (
        await pool.query<ApiClientRow>(`${select} WHERE tenant_id = $1 ORDER BY created_at, client_id`, [tenantId])
      ).rows.map(toRecord);
    },
    async rotateSecret(tenantId, clientId, rotation) {
      try {
        return await inTransaction(pool, async (client) => {
          const current = (
            await client.query<{ secretHash: string }>(
              `SELECT secret_hash AS "secretHash" FROM ${table} WHERE tenant_id = $1 AND client_id = $2 FOR UPDATE`,
              [tenantId, clientId],
            )
          ).rows[0];
          if (current === undefined) throw clientNotFound(clientId);
          const row = (
            await client.query<ApiClientRow>(
              `UPDATE ${table} SET secret_hash = $3, previous_secret_hash = $4, previous_secret_expires_at = $5
                WHERE tenant_id = $1 AND client_id = $2 RETURNING ${selectList(apiClients)}`,
              [tenantId, clientId, rotation.secretHash, current.secretHash, rotation.previousSecretExpiresAt],
            )
          ).rows[0]!;
          return toRecord(row);
        });
      } catch (error) {
        if (uniqueViolation(error) !== undefined) {
          throw new SvcError('CONFLICT', 'the new secret is already in use', { cause: error });
        }
        throw error;
      }
    },
    async revoke(tenantId, clientId, at) {
      // The first revocation's time stays.
      return change(tenantId, clientId, 'revoked_at = coalesce(revoked_at, $3)', [at]);
    },
    async setScopes(tenantId, clientId, scopes) {
      return change(tenantId, clientId, 'scopes = $3', [JSON.stringify(scopes)]);
    },
  };
}
