import type { NodeOutput } from '../nodes/types.js';

/**
 * A step stores both the response as traced and the output later nodes read; for most HTTP
 * steps their headers and body are the same data. The stored response then leaves them out and
 * says so, and a view puts them back: half the bytes per step, the same trace for a reader.
 */
interface TracedResponse {
  headers?: unknown;
  body?: unknown;
  /** Set on a stored response whose headers and body are those of the step's output. */
  sameAsOutput?: true;
}

function sameHeaders(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => left[key] === right[key]);
}

/** The response to store: without headers and body when the output holds the very same. */
export function compactResponse(response: unknown, output: NodeOutput | undefined): unknown {
  if (output === undefined || typeof response !== 'object' || response === null) return response;
  const traced = response as TracedResponse;
  // Identity, not equality: a body the trace cut or redacted is another object.
  if (traced.body === undefined || traced.body !== output.body || !sameHeaders(traced.headers, output.headers))
    return response;
  const compact: Record<string, unknown> = { sameAsOutput: true };
  for (const key in traced)
    if (key !== 'headers' && key !== 'body') compact[key] = (traced as Record<string, unknown>)[key];
  return compact;
}

/** The response as traced, from what was stored. */
export function expandResponse(response: unknown, output: unknown): unknown {
  if (typeof response !== 'object' || response === null || (response as TracedResponse).sameAsOutput !== true)
    return response;
  const { headers, body } = (output ?? {}) as NodeOutput;
  const expanded: Record<string, unknown> = {};
  for (const key in response) if (key !== 'sameAsOutput') expanded[key] = (response as Record<string, unknown>)[key];
  expanded.headers = headers;
  expanded.body = body;
  return expanded;
}
