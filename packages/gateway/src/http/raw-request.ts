import type { IncomingMessage } from 'node:http';
import { SvcError } from '@svc/engine';
import type { Context } from 'hono';

/** A request's exact bytes and its headers, names lower-cased (repeated headers joined by ", "). */
export interface RawRequest {
  rawBody: Uint8Array;
  headers: Record<string, string>;
}

/**
 * The body and headers of a request as received. Under `svc serve` (the Node adapter puts the
 * Node request in `c.env.incoming`) a body of declared length is read from the Node request
 * itself: building the web Request and its stream that `c.req.arrayBuffer()` reads through costs
 * more than the rest of a small webhook's verification. Elsewhere (`app.request` in tests, a
 * chunked body, which a body limit has read already) the web Request is read.
 */
export async function readRawRequest(c: Context, maxBytes: number): Promise<RawRequest> {
  const incoming = nodeRequestOf(c);
  if (
    incoming !== undefined &&
    incoming.headers['content-length'] !== undefined &&
    incoming.headers['transfer-encoding'] === undefined &&
    !incoming.readableDidRead
  ) {
    return { rawBody: await readBody(incoming, maxBytes), headers: headersOf(incoming.rawHeaders) };
  }
  const headers: Record<string, string> = {};
  c.req.raw.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  return { rawBody: new Uint8Array(await c.req.arrayBuffer()), headers };
}

/** The Node request under the Node adapter (`svc serve`); undefined elsewhere (`app.request`). */
export function nodeRequestOf(c: Context): IncomingMessage | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming !== undefined && Array.isArray(incoming.rawHeaders) ? incoming : undefined;
}

/** As the Fetch API's `Headers` reads them: lower-cased names, repeated values joined by ", ". */
function headersOf(raw: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index]!.toLowerCase();
    const value = raw[index + 1]!.trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { ...headers };
}

function readBody(incoming: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        reject(new SvcError('PAYLOAD_TOO_LARGE', `a body is at most ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onClose = () => {
      // Closed before its end: the sender went away mid-body.
      if (!incoming.complete) onError(new SvcError('BAD_REQUEST', 'the request ended before its body did'));
    };
    function cleanup() {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    }
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}
