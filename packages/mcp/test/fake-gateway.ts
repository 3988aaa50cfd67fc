import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isSvcError, type ExecutionView } from '@svc/engine';
import type { SvcApi } from '@svc/mcp';

export interface GatewayRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  apiKey: string | undefined;
  body: unknown;
}

export interface FakeGateway {
  url: string;
  requests: GatewayRequest[];
  close(): Promise<void>;
}

const STATUS: Record<string, number> = {
  FLOW_NOT_FOUND: 404,
  SUITE_NOT_FOUND: 404,
  EXECUTION_NOT_FOUND: 404,
  VALIDATION_ERROR: 400,
  ENVIRONMENT_NOT_FOUND: 404,
  CONFLICT: 409,
  FLOW_NAME_TAKEN: 409,
};

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

/**
 * The gateway's REST contract for the MCP tools, in a few lines: each path is answered by an
 * `SvcApi` (the local engine) and wrapped in the envelope, with `X-API-Key` checked. The run
 * answer carries the summary only, as the spec shows it, so the client must read the trace.
 */
export async function startFakeGateway(api: SvcApi, apiKey: string): Promise<FakeGateway> {
  const requests: GatewayRequest[] = [];
  const server: Server = createServer((request, response) => {
    const send = (status: number, envelope: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(envelope));
    };
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://gateway');
      const body = await readBody(request);
      const key = request.headers['x-api-key'];
      requests.push({
        method: request.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        apiKey: typeof key === 'string' ? key : undefined,
        body,
      });
      if (key !== apiKey)
        return send(401, {
          success: false,
          error: { code: 'UNAUTHORIZED', message: 'the API key is missing, unknown or revoked' },
        });
      const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      try {
        if (parts[0] !== 'api' || parts[1] !== 'gateway') throw new Error('no route');
        const [resource, id, action] = parts.slice(2);
        let data: unknown;
        if (resource === 'flows' && !id && request.method === 'GET') {
          const list = await api.listFlows({
            search: url.searchParams.get('search') ?? undefined,
            folderId: url.searchParams.get('folderId') ?? undefined,
          });
          data = { items: list.flows, nextCursor: list.hasMore ? 'more' : null };
        } else if (resource === 'flows' && !id && request.method === 'POST') {
          data = await api.createFlow(body as never, {
            allowDuplicateName: url.searchParams.get('allowDuplicateName') === 'true',
          });
        } else if (resource === 'flows' && id === 'validate' && request.method === 'POST') {
          const problems = await api.validateFlow(body);
          data = { ok: problems.length === 0, problems };
        } else if (resource === 'flows' && id && !action && request.method === 'GET') {
          data = await api.getFlow(id);
        } else if (resource === 'flows' && id && !action && request.method === 'PUT') {
          const { expectedVersion, ...document } = body as { expectedVersion?: number };
          data = await api.updateFlow(id, document as never, {
            ...(expectedVersion === undefined ? {} : { expectedVersion }),
            allowDuplicateName: url.searchParams.get('allowDuplicateName') === 'true',
          });
        } else if (resource === 'flows' && id && !action && request.method === 'DELETE') {
          await api.deleteFlow(id);
          data = { id, deleted: true };
        } else if (resource === 'flows' && id && action === 'executions' && request.method === 'GET') {
          const cursor = url.searchParams.get('cursor');
          const page = await api.listExecutions(id, {
            limit: Number(url.searchParams.get('limit') ?? 20),
            ...(cursor ? { cursor } : {}),
          });
          data = { items: page.executions, nextCursor: page.nextCursor };
        } else if (resource === 'flows' && id && action === 'run' && request.method === 'POST') {
          const waitMs = url.searchParams.has('waitMs') ? Number(url.searchParams.get('waitMs')) : undefined;
          const { env, inputs } = (body ?? {}) as {
            env?: string | Record<string, unknown>;
            inputs?: Record<string, unknown>;
          };
          const run: ExecutionView = await api.runFlow({
            flowId: id,
            ...(env ? { env } : {}),
            ...(inputs ? { inputs } : {}),
            ...(waitMs === undefined ? {} : { waitMs }),
          });
          const { executionId, status, durationMs, nodesExecuted, nodesSkipped, flowId, flowName } = run;
          return send(status === 'Completed' || status === 'Failed' ? 200 : 202, {
            success: true,
            data: { executionId, status, durationMs, nodesExecuted, nodesSkipped, flowId, flowName },
          });
        } else if (resource === 'suites' && id && !action && request.method === 'GET') {
          data = await api.getSuite(id);
        } else if (resource === 'suites' && id && action === 'run' && request.method === 'POST') {
          const { env, failFast } = (body ?? {}) as { env?: string | Record<string, unknown>; failFast?: boolean };
          data = await api.runSuite({
            suiteId: id,
            ...(env !== undefined ? { env } : {}),
            ...(failFast !== undefined ? { failFast } : {}),
          });
        } else if (resource === 'environments' && id && !action && request.method === 'GET') {
          data = await api.getEnvironment(id);
        } else if (resource === 'executions' && id && action === 'cancel' && request.method === 'POST') {
          data = await api.cancelExecution(id);
        } else if (resource === 'executions' && id && request.method === 'GET') {
          const waitMs = Number(url.searchParams.get('waitMs') ?? 0);
          data = waitMs > 0 ? await api.waitForExecution(id, waitMs) : await api.getExecution(id);
        } else {
          return send(404, {
            success: false,
            error: { code: 'NOT_FOUND', message: `no route for ${request.method} ${url.pathname}` },
          });
        }
        send(200, { success: true, data });
      } catch (error) {
        if (!isSvcError(error))
          return send(500, { success: false, error: { code: 'INTERNAL_ERROR', message: String(error) } });
        send(STATUS[error.code] ?? 500, { success: false, error: error.toJSON() });
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
