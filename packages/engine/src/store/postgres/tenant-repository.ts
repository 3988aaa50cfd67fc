import { SvcError } from '../../errors.js';
import type { Tenant, TenantRepository } from '../types.js';
import { toTenant } from '../sqlite/tenant-repository.js';
import type { PostgresContext } from './context.js';
import { uniqueViolation } from './pg-errors.js';
import { tenants } from './schema.js';
import { insertSql, rowValues, selectList, tableName } from './table-sql.js';

export function createTenantRepository({ pool }: PostgresContext): TenantRepository {
  const select = `SELECT ${selectList(tenants)} FROM ${tableName(tenants)}`;
  const insert = insertSql(tenants);
  return {
    async create(tenant) {
      try {
        await pool.query(insert, rowValues(tenants, tenant));
      } catch (error) {
        if (uniqueViolation(error) !== undefined) {
          throw new SvcError('CONFLICT', `tenant "${tenant.id}" already exists`, { cause: error });
        }
        throw error;
      }
    },
    async get(id) {
      const row = (await pool.query<Tenant>(`${select} WHERE id = $1`, [id])).rows[0];
      return row === undefined ? undefined : toTenant(row);
    },
    async list() {
      return (await pool.query<Tenant>(`${select} ORDER BY created_at, id`)).rows.map(toTenant);
    },
  };
}
