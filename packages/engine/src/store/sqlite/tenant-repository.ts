import { asc, eq } from 'drizzle-orm';
import { SvcError } from '../../errors.js';
import type { Tenant, TenantRepository } from '../types.js';
import type { SqliteContext } from './context.js';
import { tenants } from './schema.js';
import { isPrimaryKeyViolation } from './sqlite-errors.js';

export function createTenantRepository({ db }: SqliteContext): TenantRepository {
  return {
    async create(tenant) {
      try {
        db.insert(tenants).values({ id: tenant.id, name: tenant.name, createdAt: tenant.createdAt }).run();
      } catch (error) {
        if (isPrimaryKeyViolation(error)) {
          throw new SvcError('CONFLICT', `tenant "${tenant.id}" already exists`, { cause: error });
        }
        throw error;
      }
    },
    async get(id) {
      const row = db.select().from(tenants).where(eq(tenants.id, id)).get();
      return row === undefined ? undefined : toTenant(row);
    },
    async list() {
      return db.select().from(tenants).orderBy(asc(tenants.createdAt), asc(tenants.id)).all().map(toTenant);
    },
  };
}

/** A fresh object per call, so callers never share one with the store. */
export function toTenant(row: typeof tenants.$inferSelect): Tenant {
  return { id: row.id, name: row.name, createdAt: row.createdAt };
}
