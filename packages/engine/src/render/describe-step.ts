import { oneLine } from './text-table.js';

/**
 * What a person reads of a step, whichever door it came through: the engine's `StepView`
 * (CLI) or the trimmed step of a tool answer (svc-mcp). A child execution is named either at the
 * top level or in the response, where the Subflow node records it.
 */
export interface DescribedStep {
  scope?: string | null;
  nodeName: string;
  attempt: number;
  status: string;
  error?: { code: string; message: string } | null;
  skipKind?: string | null;
  branch?: string | null;
  wakeAt?: string | null;
  childExecutionId?: string;
  request?: unknown;
  response?: unknown;
}

/** The step's node with its loop scope, and the attempt when it is a retry: `Orders[2]/Read (attempt 2)`. */
export function stepTitle(step: DescribedStep): string {
  const name = step.scope ? `${step.scope}/${step.nodeName}` : step.nodeName;
  return step.attempt > 1 ? `${name} (attempt ${step.attempt})` : name;
}

const field = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/**
 * The one thing most worth knowing about a step, in order: its error, why it was skipped, the
 * branch it took, the child execution it started, when a wait is due, the request it sent.
 */
export function stepNote(
  step: DescribedStep,
  limits: { message: number; url: number } = { message: 160, url: 100 },
): string {
  if (step.error) return `${step.error.code}: ${oneLine(step.error.message, limits.message)}`;
  if (step.skipKind) return `skipped (${step.skipKind})`;
  if (step.branch) return `branch ${step.branch}`;
  const child = step.childExecutionId ?? field(step.response, 'childExecutionId');
  if (typeof child === 'string') return `child execution ${child}`;
  const callbackUrl = field(step.request, 'callbackUrl');
  // The whole URL: whoever reads it sends the callback there.
  if (step.status === 'Waiting' && typeof callbackUrl === 'string')
    return `waits for POST ${callbackUrl}${step.wakeAt ? ` until ${step.wakeAt}` : ''}`;
  // A polling endpoint keeps one step however long it polls: its count says how far it got.
  const polls = field(field(step.response, 'polling'), 'polls');
  const polled = typeof polls === 'number' ? ` · ${polls} poll${polls === 1 ? '' : 's'}` : '';
  if (step.status === 'Waiting' && step.wakeAt) return `until ${step.wakeAt}${polled}`;
  const method = field(step.request, 'method');
  const url = field(step.request, 'url');
  if (typeof method === 'string' && typeof url === 'string') return `${method} ${oneLine(url, limits.url)}${polled}`;
  return '';
}
