import type { HttpRequest, HttpResponse } from '../../http/types.js';
import type { AssertionResult } from './assertions.js';
import { redactDeep, type Redactor } from '../../redaction.js';
import { redactHeaders } from './redact.js';
import { traceRequestBody, traceResponseBody } from './trace-body.js';

export interface RequestTrace {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
  bodyTruncated?: boolean;
}

export interface ResponseTrace {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** The trace shows less than the whole body: cut for the trace, or cut by the client's limit. */
  bodyTruncated?: boolean;
  /** Bytes of body received. */
  size: number;
  assertions?: AssertionResult[];
}

type Redact = Redactor;

/** The request as sent, with credentials masked, secrets redacted and the body cut for the trace. */
export function traceRequest(options: {
  request: HttpRequest;
  /** The resolved body, shown as itself when it is small enough. */
  bodyValue: unknown;
  /** The body text that went on the wire. */
  sentBody: string | undefined;
  maxBytes: number;
  redact: Redact;
}): RequestTrace {
  const { request, bodyValue, sentBody, maxBytes, redact } = options;
  const trace: RequestTrace = {
    method: request.method,
    url: redact(request.url),
    headers: redactHeaders(request.headers, redact),
  };
  const body = traceRequestBody(bodyValue, sentBody, maxBytes);
  if (body.body !== undefined) trace.body = redactDeep(body.body, redact);
  if (body.cut) trace.bodyTruncated = true;
  return trace;
}

/**
 * The response for the trace. Response data is redacted too: an API that echoes a request
 * (or leaks a token) must not put a secret into the trace the request trace kept out.
 */
export function traceResponse(options: {
  response: HttpResponse;
  decodedBody: unknown;
  maxBytes: number;
  redact: Redact;
}): ResponseTrace {
  const { response, decodedBody, maxBytes, redact } = options;
  const body = traceResponseBody(response.body, decodedBody, response.headers['content-type'], maxBytes);
  const trace: ResponseTrace = {
    status: response.status,
    headers: redactHeaders(response.headers, redact),
    body: redactDeep(body.body, redact),
    size: response.body.byteLength,
  };
  if (body.cut || response.truncated) trace.bodyTruncated = true;
  return trace;
}

/** Assertion results for the trace: secrets redacted, and a huge `actual` (a whole body) cut. */
export function traceAssertions(
  results: readonly AssertionResult[],
  maxBytes: number,
  redact: Redact,
): AssertionResult[] {
  const fit = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return redactDeep(value, redact);
    const text = JSON.stringify(value);
    return text.length <= maxBytes ? redactDeep(value, redact) : redact(`${text.slice(0, maxBytes)}…[truncated]`);
  };
  return results.map((result) => ({ ...result, expected: fit(result.expected), actual: fit(result.actual) }));
}
