import type { Database, Statement } from 'better-sqlite3';
import { SvcError } from '../../errors.js';
import {
  EXECUTION_PATCH_FIELDS,
  type ErrorInfo,
  type ExecutionPatch,
  type ExecutionRecord,
  type StepRecord,
} from '../types.js';
import { errorJson, executionRowValues, stepRowValues, toJson, type Binding } from './execution-rows.js';
import type { SecretCipher } from '../../environments/secret-cipher.js';
import { executions, steps } from './schema.js';
import { isForeignKeyViolation, isPrimaryKeyViolation } from './sqlite-errors.js';
import { columnName, insertSql, tableName } from './table-sql.js';

/**
 * The writes of the execution repository as plain data, which the group commit applies
 * together. `updatedAt` is taken when the write is made, so a write applied at the end of the
 * event-loop turn stamps the time it was asked for.
 */
export type ExecutionWrite =
  | { kind: 'create'; record: ExecutionRecord }
  | { kind: 'update'; tenantId: string; id: string; patch: ExecutionPatch; updatedAt: number }
  | { kind: 'step'; step: StepRecord; patch: ExecutionPatch; updatedAt: number };

/** How the execution repository makes its writes durable. */
export interface ExecutionWriter {
  /** Settles once the write is committed; rejects with the contract's errors. */
  write(write: ExecutionWrite): Promise<void>;
  /** Commits every write made so far, for a read that follows. */
  flush(): void;
  /** Flushes; the writer takes no writes afterwards. */
  close(): void;
}

export function executionNotFound(id: string): SvcError {
  return new SvcError('EXECUTION_NOT_FOUND', `execution "${id}" not found`);
}

export function executionConflict(id: string, cause?: unknown): SvcError {
  return new SvcError('CONFLICT', `execution "${id}" already exists`, cause === undefined ? {} : { cause });
}

/** Applies writes to the tables through statements prepared once per connection. */
export interface ExecutionWriteApplier {
  /** Throws `CONFLICT` or `EXECUTION_NOT_FOUND` as the repository contract says. */
  apply(write: ExecutionWrite): void;
  /**
   * Whether `apply` runs at most one statement for this write, which SQLite then makes atomic
   * on its own: a create, an update, or a step that changes nothing on its execution.
   */
  isOneStatement(write: ExecutionWrite): boolean;
}

export function createExecutionWriteApplier(sqlite: Database, cipher?: SecretCipher): ExecutionWriteApplier {
  // Values go to `run` as arguments, not as one array: the driver reads an array element by
  // element through V8's object API, which makes binding a row slower.
  const insertExecution = sqlite.prepare<Binding[]>(insertSql(executions, { positional: true }));
  const upsertStep = sqlite.prepare<Binding[]>(
    insertSql(steps, { upsertOn: ['tenantId', 'executionId', 'seq'], positional: true }),
  );

  /*
   * One UPDATE per patch shape (the fields it sets, comma-separated), built on first use: a patch
   * writes only the columns it names (an unchanged `error` is not serialised again), and the few
   * shapes the runtime sends are each prepared once.
   */
  const patchStatements = new Map<string, Statement<Binding[]>>();
  function patchStatement(fields: string[]): Statement<Binding[]> {
    const shape = fields.join(',');
    let statement = patchStatements.get(shape);
    if (statement === undefined) {
      const sets = [...fields, 'updatedAt'].map((field) => `${columnName(executions, field)} = ?`);
      statement = sqlite.prepare<Binding[]>(
        `UPDATE ${tableName(executions)} SET ${sets.join(', ')} WHERE tenant_id = ? AND id = ?`,
      );
      patchStatements.set(shape, statement);
    }
    return statement;
  }

  /** Patches an execution; false when it does not exist in that tenant. Most steps change nothing. */
  function patchExecution(tenantId: string, id: string, patch: ExecutionPatch, updatedAt: number): boolean {
    const fields: string[] = [];
    const values: Binding[] = [];
    for (const field of EXECUTION_PATCH_FIELDS) {
      const value = patch[field];
      if (value === undefined) continue;
      fields.push(field);
      values.push(
        field === 'error'
          ? errorJson(value as ErrorInfo | null)
          : field === 'outputs'
            ? toJson(value)
            : (value as Binding),
      );
    }
    if (fields.length === 0) return true;
    return patchStatement(fields).run(...values, updatedAt, tenantId, id).changes > 0;
  }

  return {
    isOneStatement(write) {
      return write.kind !== 'step' || EXECUTION_PATCH_FIELDS.every((field) => write.patch[field] === undefined);
    },
    apply(write) {
      switch (write.kind) {
        case 'create': {
          try {
            insertExecution.run(...executionRowValues(write.record, cipher));
          } catch (error) {
            if (isPrimaryKeyViolation(error)) throw executionConflict(write.record.id, error);
            throw error;
          }
          return;
        }
        case 'update':
          if (!patchExecution(write.tenantId, write.id, write.patch, write.updatedAt))
            throw executionNotFound(write.id);
          return;
        case 'step': {
          const { step } = write;
          // The patch goes first: it finds out whether the execution exists in the step's tenant
          // before the step row is written. Without a patch, the foreign key finds that out.
          if (!patchExecution(step.tenantId, step.executionId, write.patch, write.updatedAt))
            throw executionNotFound(step.executionId);
          try {
            upsertStep.run(...stepRowValues(step));
          } catch (error) {
            if (isForeignKeyViolation(error)) throw executionNotFound(step.executionId);
            throw error;
          }
        }
      }
    },
  };
}
