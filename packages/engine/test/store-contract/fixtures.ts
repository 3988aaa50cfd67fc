import {
  newExecutionRecord,
  type ApiClientRecord,
  type ExecutionRecord,
  type FlowDocument,
  type JobRecord,
  type StepRecord,
  type SuiteDefinition,
} from '@svc/engine';

/*
 * The records store tests are made of, in one place: the contract suites build theirs from
 * these, and so do the tests of one store.
 */

export const A = 'tenant-a';
export const B = 'tenant-b';
export const T0 = Date.parse('2026-01-01T00:00:00.000Z');
export const DAY = 24 * 60 * 60 * 1000;

/** Stands in for a secret's SHA-256: 64 hex characters, different per label. */
export const hash = (label: string): string => Buffer.from(label).toString('hex').padEnd(64, '0').slice(0, 64);

/** Lets the wall clock move on, so that `updatedAt` orders saves made one after the other. */
export const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 3));

/** A two-endpoint flow document, with the given fields changed. */
export function flowDocument(overrides: Partial<FlowDocument> = {}): FlowDocument {
  return {
    name: 'order-lifecycle',
    description: '',
    folderId: null,
    variables: {},
    inputs: {},
    outputs: {},
    nodes: [
      {
        id: 'n1',
        name: 'CreateOrder',
        type: 'endpoint',
        position: { x: 0, y: 0 },
        config: { method: 'POST', url: '{{env.baseUrl}}/orders' },
      },
      {
        id: 'n2',
        name: 'GetOrder',
        type: 'endpoint',
        position: { x: 240, y: 0 },
        config: { method: 'GET', url: '{{env.baseUrl}}/orders/1' },
      },
    ],
    connections: [{ id: 'w1', source: 'n1', sourceHandle: 'out', target: 'n2' }],
    flowData: { canvasGroups: [], annotations: [] },
    ...overrides,
  };
}

/** An execution record for store tests: queued, at T0, in tenant A, with the given fields changed. */
export function executionFixture(overrides: Partial<ExecutionRecord> = {}): ExecutionRecord {
  return newExecutionRecord({
    id: 'exe-0',
    tenantId: A,
    flowId: 'flw_orders',
    flowVersion: 1,
    flowName: 'order-lifecycle',
    env: { baseUrl: 'http://localhost:4010' },
    createdAt: T0,
    ...overrides,
  });
}

/** A step of the contract's tests; tests of one store build theirs from it too. */
export function stepFixture(
  overrides: Partial<StepRecord> & Pick<StepRecord, 'id' | 'executionId' | 'seq'>,
): StepRecord {
  return {
    tenantId: A,
    nodeId: 'n1',
    nodeName: 'CreateOrder',
    nodeType: 'endpoint',
    scope: '',
    attempt: 1,
    status: 'Completed',
    startedAt: T0,
    endedAt: T0 + 12,
    latencyMs: 12,
    request: { method: 'POST', url: 'http://localhost:4010/orders', headers: {}, body: { sku: 'A-1' } },
    response: { status: 201, headers: { 'content-type': 'application/json' }, body: { id: 'ord_1' } },
    output: { statusCode: 201, body: { id: 'ord_1' } },
    handles: ['out'],
    error: null,
    skipKind: null,
    branch: null,
    wakeAt: null,
    state: null,
    ...overrides,
  };
}

/** An API client record for store tests, with the given fields changed. */
export function clientFixture(overrides: Partial<ApiClientRecord> = {}): ApiClientRecord {
  return {
    clientId: 'cli_1',
    tenantId: A,
    name: 'ci pipeline',
    scopes: ['flows:read'],
    trial: false,
    expiresAt: null,
    secretHash: hash('secret-1'),
    previousSecretHash: null,
    previousSecretExpiresAt: null,
    revokedAt: null,
    createdAt: T0,
    ...overrides,
  };
}

/** A job record for store tests: running under `w1`, at T0, with the given fields changed. */
export function jobFixture(overrides: Partial<JobRecord> = {}): JobRecord {
  return {
    id: 'job_0',
    tenantId: A,
    kind: 'testgen',
    status: 'Running',
    input: { endpointId: 'getOrder', engine: 'schema' },
    progress: null,
    result: null,
    error: null,
    createdAt: T0,
    startedAt: T0,
    endedAt: null,
    updatedAt: T0,
    owner: 'w1',
    leaseExpiresAt: T0 + 30_000,
    ...overrides,
  };
}

/** A suite definition for store tests, with the given fields changed. */
export function suiteDefinition(overrides: Partial<SuiteDefinition> = {}): SuiteDefinition {
  return {
    name: 'checkout-regression',
    description: 'orders end to end',
    mode: 'sequential',
    flowIds: ['flw_b', 'flw_a', 'flw_c'],
    kind: 'regression',
    source: null,
    ...overrides,
  };
}
