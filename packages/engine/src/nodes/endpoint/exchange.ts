import { performance } from 'node:perf_hooks';
import { isSvcError, type SvcError } from '../../errors.js';
import type { HttpRequest, HttpResponse } from '../../http/types.js';
import type { NodeContext, NodeOutput } from '../types.js';
import { decodeBody } from './read-response.js';
import { type RequestTrace, type ResponseTrace, traceRequest, traceResponse } from './trace.js';

/** One request sent and what came of it, traced: an answer (of any status), or no answer at all. */
export type Exchange =
  | {
      ok: true;
      response: HttpResponse;
      /** What later nodes read: status, headers and the decoded body. */
      output: NodeOutput;
      latencyMs: number;
      requestTrace: RequestTrace;
      responseTrace: ResponseTrace;
    }
  | { ok: false; error: SvcError; latencyMs: number; requestTrace: RequestTrace };

export function roundMs(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/**
 * Sends a built request and decodes its answer. A failure to get an answer (network error,
 * timeout, refused address) is an `SvcError` in the result; anything else thrown is a bug and
 * propagates.
 */
export async function exchange(
  context: Pick<NodeContext<unknown>, 'http' | 'redact' | 'limits'>,
  options: { request: HttpRequest; bodyValue: unknown; sentBody: string | undefined },
): Promise<Exchange> {
  const { request, bodyValue, sentBody } = options;
  const { redact } = context;
  const maxBytes = context.limits.maxTracedBodyBytes;
  const requestTrace = traceRequest({ request, bodyValue, sentBody, maxBytes, redact });
  const started = performance.now();
  let response: HttpResponse;
  try {
    response = await context.http.send(request);
  } catch (error) {
    if (!isSvcError(error)) throw error;
    return { ok: false, error, latencyMs: roundMs(performance.now() - started), requestTrace };
  }
  const body = decodeBody(response.body, response.headers['content-type']);
  return {
    ok: true,
    response,
    output: { statusCode: response.status, headers: response.headers, body },
    latencyMs: roundMs(response.latencyMs),
    requestTrace,
    responseTrace: traceResponse({ response, decodedBody: body, maxBytes, redact }),
  };
}
