import { randomBytes } from 'node:crypto';
import { getTableColumns } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSecretCipher } from '../../environments/secret-cipher.js';
import { newExecutionRecord } from '../new-execution-record.js';
import type { StepRecord } from '../types.js';
import { executionRowValues, stepRowValues, toExecutionRecord, toStepRecord } from './execution-rows.js';
import { executions, steps, type ExecutionRow, type StepRow } from './schema.js';

/** The row a statement stores from `values`, named by the table's columns in their order. */
function rowOf<Row>(table: typeof executions | typeof steps, values: unknown[]): Row {
  const keys = Object.keys(getTableColumns(table));
  expect(values).toHaveLength(keys.length);
  return Object.fromEntries(keys.map((key, index) => [key, values[index]])) as Row;
}

describe('row values', () => {
  it("bind a step's fields in the column order of the steps table", () => {
    // Every field different, so that two swapped columns cannot read back the same.
    const step: StepRecord = {
      tenantId: 'tenant-a',
      id: 'exe-1:7',
      executionId: 'exe-1',
      seq: 7,
      nodeId: 'n3',
      nodeName: 'GetOrder',
      nodeType: 'endpoint',
      scope: 'Orders[2]',
      attempt: 2,
      status: 'Failed',
      startedAt: 1_000,
      endedAt: 1_250,
      latencyMs: 12.5,
      request: { method: 'GET', url: 'http://api.test/orders/1', headers: {} },
      response: { status: 503, headers: {}, body: 'busy', size: 4 },
      output: { statusCode: 503, headers: { 'retry-after': '1' }, body: 'busy' },
      handles: ['error'],
      error: { code: 'HTTP_ERROR_STATUS', message: 'GET answered 503' },
      skipKind: 'failure',
      branch: 'case-1',
      wakeAt: 2_000,
      state: { polls: 3 },
    };
    expect(toStepRecord(rowOf<StepRow>(steps, stepRowValues(step)))).toEqual(step);
  });

  it('store a null JSON value as SQL NULL, which reads back as null', () => {
    const values = stepRowValues({
      tenantId: 'tenant-a',
      id: 'exe-1:1',
      executionId: 'exe-1',
      seq: 1,
      nodeId: 'n1',
      nodeName: 'Wait',
      nodeType: 'delay',
      scope: '',
      attempt: 1,
      status: 'Completed',
      startedAt: 1_000,
      endedAt: null,
      latencyMs: null,
      request: null,
      response: null,
      output: null,
      handles: [],
      error: null,
      skipKind: null,
      branch: null,
      wakeAt: null,
      state: null,
    });
    const row = rowOf<StepRow>(steps, values);
    expect([row.request, row.response, row.output, row.state]).toEqual([null, null, null, null]);
    expect(toStepRecord({ ...row, state: 'null' }).state).toBeNull();
  });

  it("bind an execution's fields in the column order of the executions table, secrets sealed", () => {
    const cipher = createSecretCipher(randomBytes(32));
    const record = {
      ...newExecutionRecord({
        id: 'exe-2',
        tenantId: 'tenant-b',
        flowId: 'flw_orders',
        flowVersion: 3,
        flowName: 'order-lifecycle',
        createdAt: 1_000,
      }),
      status: 'Running' as const,
      trigger: { type: 'schedule', scheduleId: 'sch_1' },
      env: { baseUrl: 'http://api.test', apiToken: 'tok-123456' },
      secretKeys: ['apiToken'],
      inputs: { customerId: 'c-9' },
      parentExecutionId: 'exe-0',
      error: { code: 'TIMEOUT', message: 'slow' },
      startedAt: 1_001,
      endedAt: 1_900,
      durationMs: 899.5,
      nodesExecuted: 4,
      nodesSkipped: 1,
      stepsExecuted: 5,
      wakeAt: 3_000,
      leaseOwner: 'host/1/abc',
      leaseExpiresAt: 4_000,
      updatedAt: 1_950,
      outputs: { orderId: 'ord_1' },
    };
    const row = rowOf<ExecutionRow>(executions, executionRowValues(record, cipher));
    expect(row.env).not.toContain('tok-123456');
    expect(toExecutionRecord(row, cipher)).toEqual(record);
  });
});
