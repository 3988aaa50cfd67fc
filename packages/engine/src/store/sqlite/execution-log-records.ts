import type { ExecutionWrite } from './execution-writes.js';

/*
 * A record of the execution log is one write as JSON, with the log's epoch inside as well as in
 * the record's header: a record that lost its payload (a power cut between pages) and shows an
 * older one's instead does not pass for a write of this epoch.
 */

export function serializeWrite(write: ExecutionWrite, epoch: number): string {
  return JSON.stringify({ e: epoch, w: write });
}

/** The write a record holds; undefined when it is not one of `epoch` (torn, or not ours). */
export function parseWrite(text: string, epoch: number): ExecutionWrite | undefined {
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null) return undefined;
  const { e, w } = record as { e?: unknown; w?: unknown };
  if (e !== epoch || typeof w !== 'object' || w === null) return undefined;
  const write = w as Partial<ExecutionWrite> & Record<string, unknown>;
  switch (write.kind) {
    case 'create':
      return isObject(write.record) ? (write as ExecutionWrite) : undefined;
    case 'update':
      return typeof write.tenantId === 'string' && typeof write.id === 'string' && isObject(write.patch) && typeof write.updatedAt === 'number'
        ? (write as ExecutionWrite)
        : undefined;
    case 'step':
      return isObject(write.step) && isObject(write.patch) && typeof write.updatedAt === 'number' ? (write as ExecutionWrite) : undefined;
    default:
      return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
