import { SvcError, TERMINAL_STATUSES, type Engine, type SavedTarget, type StoredFlow } from '@svc/engine';
import { Hono } from 'hono';
import type { GatewayEnv, Principal } from '../auth/principal.js';
import { assertScope, requireScope } from '../auth/require-scope.js';
import type { Scope } from '../auth/scopes.js';
import { success } from '../http/envelope.js';
import { readJsonBody } from '../http/read-json-body.js';
import { resolveRestRunEnvironment } from './run-environment.js';
import { assertMaySaveUnattended } from './unattended-save.js';
import {
  expectedVersionSchema,
  listExecutionsQuerySchema,
  listFlowsQuerySchema,
  parseRequest,
  runFlowBodySchema,
  runQuerySchema,
  saveFlowQuerySchema,
  upsertQuerySchema,
} from '../http/index.js';

export interface FlowRoutesOptions {
  engine: Engine;
  /** The longest a run call may hold the request open waiting for the end. */
  maxRunWaitMs: number;
  defaultRunWaitMs: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `If-Match: "3"`, `W/"3"` or `3`: the version the client last read (the ETag of GET). */
function versionFromIfMatch(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*(?:W\/)?"?(\d+)"?\s*$/.exec(header);
  return parseRequest(expectedVersionSchema, match ? Number(match[1]) : Number.NaN, 'header');
}

/** `?allowDuplicateName=true`: save even when another flow of the folder has the name. */
function saveOptions(query: Record<string, string>): { allowDuplicateName?: boolean } {
  const { allowDuplicateName } = parseRequest(saveFlowQuerySchema, query, 'query');
  return allowDuplicateName === undefined ? {} : { allowDuplicateName };
}

/**
 * A webhook trigger that names a stored environment starts runs with that environment (its
 * secrets included) for anyone who knows its URL: saving one is starting runs with a stored
 * environment, which REST allows only with `executions:run`. Read from the document as sent,
 * before it is validated, so no save gets past it.
 */
function assertMayStartRunsWith(scopes: ReadonlySet<Scope>, document: unknown): void {
  const nodes = isObject(document) && Array.isArray(document.nodes) ? (document.nodes as unknown[]) : [];
  nodes.forEach((node, index) => {
    if (!isObject(node) || node.type !== 'component-webhook' || !isObject(node.config)) return;
    const { mode, environment } = node.config;
    if (mode !== 'trigger' || typeof environment !== 'string') return;
    const name = typeof node.name === 'string' ? node.name : String(node.id);
    assertScope(scopes, 'executions:run', {
      reason: `the webhook trigger "${name}" starts runs with the stored environment "${environment}"`,
      path: `nodes[${index}].config.environment`,
    });
  });
}

/**
 * The existing flow a POST would save: the document's id, or with `upsert` the one flow of its
 * name. None for a new flow (nothing runs it yet) or a name two flows share (the save refuses it).
 */
async function savedFlow(
  engine: Engine,
  principal: Principal,
  document: unknown,
  upsert: boolean,
): Promise<SavedTarget | undefined> {
  if (!isObject(document)) return undefined;
  if (typeof document.id === 'string') return { type: 'flow', id: document.id };
  if (!upsert || typeof document.name !== 'string') return undefined;
  const named = await engine.flows.resolve(principal.tenantId, document.name).catch(() => undefined);
  return named === undefined ? undefined : { type: 'flow', id: named.id };
}

/** `/api/gateway/flows…`: list, read, create, update, delete, validate, run, and a flow's executions. */
export function flowRoutes(options: FlowRoutesOptions): Hono<GatewayEnv> {
  const { engine } = options;
  const app = new Hono<GatewayEnv>();
  const withTriggers = (tenantId: string, flow: StoredFlow) => engine.webhooks.withTriggers(tenantId, flow);

  app.get('/', requireScope('flows:read'), async (c) => {
    const query = parseRequest(listFlowsQuerySchema, c.req.query(), 'query');
    const page = await engine.flows.list(c.get('principal').tenantId, query);
    return success(c, page);
  });

  app.post('/', requireScope('flows:write'), async (c) => {
    const body = await readJsonBody(c);
    assertMayStartRunsWith(c.get('principal').scopes, body);
    const upsert = parseRequest(upsertQuerySchema, c.req.query(), 'query').upsert === true;
    await assertMaySaveUnattended(engine, c.get('principal'), () =>
      savedFlow(engine, c.get('principal'), body, upsert),
    );
    if (upsert) {
      // Flows as code: the flow of the document's id, else of its name, gets a new version only when it changed.
      const flow = await engine.flows.upsert(c.get('principal').tenantId, body);
      c.header('ETag', `"${flow.version}"`);
      return success(c, await withTriggers(c.get('principal').tenantId, flow));
    }
    const flow = await engine.flows.create(c.get('principal').tenantId, body, saveOptions(c.req.query()));
    c.header('ETag', `"${flow.version}"`);
    c.header('Location', `/api/gateway/flows/${encodeURIComponent(flow.id)}`);
    return success(c, await withTriggers(c.get('principal').tenantId, flow), 201);
  });

  // Saves nothing: answers every problem of the document with its path (empty when it would save).
  app.post('/validate', requireScope('flows:read'), async (c) => {
    const result = engine.flows.validate(await readJsonBody(c));
    return success(c, { ok: result.ok, problems: result.problems });
  });

  app.get('/:id', requireScope('flows:read'), async (c) => {
    const flow = await engine.flows.get(c.get('principal').tenantId, c.req.param('id'));
    c.header('ETag', `"${flow.version}"`);
    return success(c, await withTriggers(c.get('principal').tenantId, flow));
  });

  app.put('/:id', requireScope('flows:write'), async (c) => {
    const body = await readJsonBody(c);
    if (!isObject(body))
      throw new SvcError('VALIDATION_ERROR', 'the body must be a flow document (a JSON object)', {
        details: { problems: [{ code: 'INVALID_FIELD', path: 'body', message: 'expected an object' }] },
      });
    const { expectedVersion: inBody, ...document } = body;
    assertMayStartRunsWith(c.get('principal').scopes, document);
    await assertMaySaveUnattended(engine, c.get('principal'), () => ({ type: 'flow', id: c.req.param('id') }));
    const fromBody = inBody === undefined ? undefined : parseRequest(expectedVersionSchema, inBody, 'body');
    const fromHeader = versionFromIfMatch(c.req.header('if-match'));
    if (fromBody !== undefined && fromHeader !== undefined && fromBody !== fromHeader) {
      throw new SvcError(
        'VALIDATION_ERROR',
        `expectedVersion ${fromBody} and If-Match ${fromHeader} disagree; send one of them`,
        {
          details: {
            problems: [{ code: 'INVALID_FIELD', path: 'body.expectedVersion', message: 'disagrees with If-Match' }],
          },
        },
      );
    }
    const expectedVersion = fromBody ?? fromHeader;
    const flow = await engine.flows.update(c.get('principal').tenantId, c.req.param('id'), document, {
      ...(expectedVersion === undefined ? {} : { expectedVersion }),
      ...saveOptions(c.req.query()),
    });
    c.header('ETag', `"${flow.version}"`);
    return success(c, await withTriggers(c.get('principal').tenantId, flow));
  });

  app.delete('/:id', requireScope('flows:write'), async (c) => {
    const id = c.req.param('id');
    await engine.flows.delete(c.get('principal').tenantId, id);
    return success(c, { id, deleted: true });
  });

  app.post('/:id/run', requireScope('executions:run'), async (c) => {
    const { tenantId, clientId } = c.get('principal');
    const query = parseRequest(runQuerySchema, c.req.query(), 'query');
    const body = parseRequest(runFlowBodySchema, (await readJsonBody(c)) ?? {}, 'body');
    // A string names a stored environment of the tenant; an object is the environment itself.
    const { env, secretKeys } = await resolveRestRunEnvironment(engine, c.get('principal'), {
      env: body.env,
      environment: body.environment,
    });
    // Held requests cost a connection each; the run itself goes on past the cap.
    const waitMs = Math.min(query.waitMs ?? options.defaultRunWaitMs, options.maxRunWaitMs);
    const execution = await engine.runFlow({
      tenantId,
      flowId: c.req.param('id'),
      env,
      secretKeys,
      inputs: body.inputs ?? {},
      trigger: { type: 'api', clientId },
      waitMs,
    });
    c.header('Location', `/api/gateway/executions/${execution.executionId}`);
    return success(c, execution, TERMINAL_STATUSES.has(execution.status) ? 200 : 202);
  });

  app.get('/:id/executions', requireScope('flows:read'), async (c) => {
    const { tenantId } = c.get('principal');
    const id = c.req.param('id');
    const query = parseRequest(listExecutionsQuerySchema, c.req.query(), 'query');
    // Answers FLOW_NOT_FOUND for an id the tenant does not have, as every flow route does.
    await engine.flows.get(tenantId, id);
    return success(c, await engine.listExecutions(tenantId, { ...query, flowId: id }));
  });

  return app;
}
