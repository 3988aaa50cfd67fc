import { desc, eq } from 'drizzle-orm';
import { SvcError } from '../../errors.js';
import type { SigningKeyRecord, SigningKeyRepository } from '../types.js';
import type { SqliteContext } from './context.js';
import { signingKeys } from './schema.js';
import { isPrimaryKeyViolation } from './sqlite-errors.js';

export function createSigningKeyRepository({ db }: SqliteContext): SigningKeyRepository {
  return {
    async create(key) {
      try {
        db.insert(signingKeys).values(toRow(key)).run();
      } catch (error) {
        if (isPrimaryKeyViolation(error)) {
          throw new SvcError('CONFLICT', `signing key "${key.kid}" already exists`, { cause: error });
        }
        throw error;
      }
    },
    async get(kid) {
      const row = db.select().from(signingKeys).where(eq(signingKeys.kid, kid)).get();
      return row === undefined ? undefined : toRow(row);
    },
    async list() {
      return db.select().from(signingKeys).orderBy(desc(signingKeys.createdAt), desc(signingKeys.kid)).all().map(toRow);
    },
  };
}

export function toRow(key: SigningKeyRecord): SigningKeyRecord {
  return { kid: key.kid, algorithm: key.algorithm, jwk: key.jwk, createdAt: key.createdAt };
}
