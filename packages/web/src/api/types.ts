import type { FlowDocument } from '@svc/engine/flow-model';

export type { FlowDocument };

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface FlowSummary {
  id: string;
  name: string;
  description: string;
  folderId: string | null;
  version: number;
  updatedAt: string;
}

export interface ValidationProblem {
  code: string;
  message: string;
  path: string;
}

export type StepStatus = 'Completed' | 'Failed' | 'Skipped' | 'Waiting';
export type ExecutionStatus = 'Queued' | 'Running' | 'Waiting' | 'Completed' | 'Failed' | 'TimedOut' | 'Cancelled';

export interface StepView {
  stepId: string;
  seq: number;
  nodeId: string;
  nodeName: string;
  nodeType: string;
  scope: string;
  attempt: number;
  status: StepStatus;
  startedAt: string;
  endedAt: string | null;
  latencyMs: number | null;
  request: unknown;
  response: { status?: number; headers?: Record<string, string>; body?: unknown } | null;
  output: unknown;
  error: { code: string; message: string } | null;
  skipKind: 'condition' | 'failure' | null;
  branch: string | null;
  wakeAt: string | null;
}

export interface ExecutionView {
  executionId: string;
  status: ExecutionStatus;
  durationMs: number | null;
  nodesExecuted: number;
  nodesSkipped: number;
  stepsExecuted: number;
  flowId: string;
  flowName: string;
  createdAt: string;
  error: { code: string; message: string } | null;
  waits?: {
    nodeId: string;
    nodeName: string;
    scope: string;
    kind: 'callback' | 'timer';
    until: string | null;
    callbackUrl?: string;
  }[];
  steps?: StepView[];
}

export const TERMINAL_STATUSES: ReadonlySet<ExecutionStatus> = new Set([
  'Completed',
  'Failed',
  'TimedOut',
  'Cancelled',
]);

export interface EnvironmentView {
  id: string;
  name: string;
  variables: Record<string, unknown>;
}

export interface ClientView {
  clientId: string;
  tenantId: string;
  name: string;
  scopes: string[];
  trial: boolean;
  expiresAt: string | null;
  previousSecretExpiresAt: string | null;
  revokedAt: string | null;
  createdAt: string;
  clientSecret?: string;
}

export interface TenantView {
  id: string;
  name: string;
  createdAt: string;
}
