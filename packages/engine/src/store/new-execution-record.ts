import type { ExecutionRecord } from './types.js';

/** What a new execution must be told; every other field starts empty. */
export type NewExecutionFields = Pick<
  ExecutionRecord,
  'id' | 'tenantId' | 'flowId' | 'flowVersion' | 'flowName' | 'createdAt'
> &
  Partial<ExecutionRecord>;

/**
 * An execution as it is created: Queued, nothing run, no lease, `updatedAt` at `createdAt`,
 * unless `fields` say otherwise.
 *
 * @example
 * const record = newExecutionRecord({ id: uuidV7(), tenantId: 'acme', flowId: flow.id, flowVersion: 1, flowName: flow.name, createdAt: Date.now() });
 * await store.executions.create(record);
 */
export function newExecutionRecord(fields: NewExecutionFields): ExecutionRecord {
  return {
    status: 'Queued',
    trigger: { type: 'api' },
    env: {},
    secretKeys: [],
    inputs: {},
    parentExecutionId: null,
    error: null,
    outputs: null,
    startedAt: null,
    endedAt: null,
    durationMs: null,
    nodesExecuted: 0,
    nodesSkipped: 0,
    stepsExecuted: 0,
    wakeAt: null,
    leaseOwner: null,
    leaseExpiresAt: null,
    updatedAt: fields.createdAt,
    ...fields,
  };
}
