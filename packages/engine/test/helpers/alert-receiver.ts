import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedAlert {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as sent, byte for byte (what a signature covers). */
  raw: string;
  body: Record<string, unknown>;
}

export interface AlertReceiver {
  url: string;
  received: ReceivedAlert[];
  /** What the next requests are answered: a status (and headers), or `hang` (never answered). */
  answer: { status: number; headers?: Record<string, string>; body?: string } | 'hang';
  close(): Promise<void>;
}

/** A real local HTTP server that records every alert posted to it. */
export async function startAlertReceiver(): Promise<AlertReceiver> {
  const received: ReceivedAlert[] = [];
  const receiver: AlertReceiver = {
    url: '',
    received,
    answer: { status: 200 },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        // Recorded as sent.
      }
      received.push({ path: request.url ?? '/', headers: request.headers, raw, body });
      const answer = receiver.answer;
      if (answer === 'hang') return;
      response.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      response.end(answer.body ?? 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

/** An address nothing listens on: a port opened and closed again (connections are refused). */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A health endpoint whose answer a test switches: `HEALTHY`, or `DEGRADED` (which the checks' assertion refuses). */
export async function startHealthApi(): Promise<{ url: string; healthy: boolean; close(): Promise<void> }> {
  const api = {
    url: '',
    healthy: true,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ status: api.healthy ? 'HEALTHY' : 'DEGRADED', path: request.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return api;
}

/** A health-check flow: one endpoint node asserting the status code and `body.status == "HEALTHY"`. */
export function healthFlow(name: string, path = '/health') {
  return {
    name,
    nodes: [
      {
        id: 'n1',
        name: 'GetHealth',
        type: 'endpoint',
        config: {
          url: `{{env.baseUrl}}${path}`,
          assertions: [
            { target: 'statusCode', operator: '==', value: 200 },
            { target: 'body.status', operator: '==', value: 'HEALTHY' },
          ],
        },
      },
    ],
    connections: [],
  };
}
