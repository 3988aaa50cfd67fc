import { SvcError } from '../../errors.js';
import type { SigningKeyRecord, SigningKeyRepository } from '../types.js';
import { toRow } from '../sqlite/signing-key-repository.js';
import type { PostgresContext } from './context.js';
import { uniqueViolation } from './pg-errors.js';
import { signingKeys } from './schema.js';
import { insertSql, rowValues, selectList, tableName } from './table-sql.js';

export function createSigningKeyRepository({ pool }: PostgresContext): SigningKeyRepository {
  const select = `SELECT ${selectList(signingKeys)} FROM ${tableName(signingKeys)}`;
  const insert = insertSql(signingKeys);
  return {
    async create(key) {
      try {
        await pool.query(insert, rowValues(signingKeys, toRow(key)));
      } catch (error) {
        if (uniqueViolation(error) !== undefined) {
          throw new SvcError('CONFLICT', `signing key "${key.kid}" already exists`, { cause: error });
        }
        throw error;
      }
    },
    async get(kid) {
      const row = (await pool.query<SigningKeyRecord>(`${select} WHERE kid = $1`, [kid])).rows[0];
      return row === undefined ? undefined : toRow(row);
    },
    async list() {
      return (await pool.query<SigningKeyRecord>(`${select} ORDER BY created_at DESC, kid DESC`)).rows.map(toRow);
    },
  };
}
