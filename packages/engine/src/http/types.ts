/**
 * The HTTP client the engine is given. Node executors only ever talk to the network through it,
 * so tests and embedders can pass their own.
 */
export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** Whole-request deadline in milliseconds (connect, send, and read the full body). */
  timeoutMs: number;
  /** Bodies larger than this many bytes are cut, and `truncated` is set. */
  maxBodyBytes?: number;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** Lower-case header names; repeated headers joined with ", " (set-cookie with "\n"). */
  headers: Record<string, string>;
  body: Uint8Array;
  truncated: boolean;
  /** Milliseconds from sending the request to reading the last byte of the body. */
  latencyMs: number;
}

/**
 * Network failures are thrown as `SvcError` with code `NETWORK_ERROR` (connection refused,
 * reset, DNS) or `TIMEOUT` (the deadline passed), both `retryable`.
 */
export interface HttpClient {
  send(request: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}
