import {
  importOpenApiBodySchema,
  listEndpointsQuerySchema,
  planRoadmapBodySchema,
  roadmapSchema,
  scaffoldFlowBodySchema,
  startTestGenerationSchema,
  TEST_CATEGORIES,
  TESTGEN_JOB_KIND,
} from '@svc/discovery';
import {
  alertChannelBodySchema,
  ALERT_CHANNEL_TYPES,
  ALERT_DELIVERY_STATUSES,
  ALERT_EVENTS,
  environmentBodySchema,
  EXECUTION_STATUSES,
  flowDocumentSchema,
  JOB_STATUSES,
  OVERLAP_POLICIES,
  SCHEDULE_RUN_OUTCOMES,
  SCHEDULE_TARGET_TYPES,
  scheduleBodySchema,
  SUITE_KINDS,
  SUITE_MODES,
  suiteDefinitionSchema,
} from '@svc/engine';
import { z } from 'zod';
import { DEFAULT_SCOPES, SCOPE_DESCRIPTIONS, SCOPES, type Scope } from '../auth/scopes.js';
import { TOKEN_THROTTLE_DEFAULTS } from '../auth/token-throttle.js';
import { ERROR_STATUS } from '../errors/error-table.js';
import {
  listAllExecutionsQuerySchema,
  listExecutionsQuerySchema,
  listFlowsQuerySchema,
  listSchedulesQuerySchema,
  listSuitesQuerySchema,
  runFlowBodySchema,
  runQuerySchema,
  runSuiteBodySchema,
  upsertQuerySchema,
} from '../http/schemas.js';
import { createClientBodySchema, createTenantBodySchema } from '../routes/backoffice.js';
import { listAlertsQuerySchema } from '../routes/suite-alerts.js';
import { tokenRequestSchema } from '../routes/oauth-token.js';

/*
 * The gateway's OpenAPI 3.1 document, built from the zod schemas the routes validate requests
 * with (OpenAPI 3.1 schemas are JSON Schema 2020-12, which is what zod emits), so the document
 * cannot drift from what the gateway accepts.
 */

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** Query parameters, one per property of the query's object schema. */
function queryParameters(schema: z.ZodObject): JsonSchema[] {
  const object = jsonSchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: object.required?.includes(name) ?? false,
    schema: property,
  }));
}

const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});

/*
 * What the suite routes answer. Documentation only (the engine builds these values), so the shapes
 * a client reads are written down where the requests' schemas are.
 */
const timestamp = z.string().describe('ISO 8601');
const suiteSchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  name: z.string(),
  description: z.string(),
  mode: z.enum(SUITE_MODES),
  flowIds: z.array(z.string()),
  kind: z.enum(SUITE_KINDS),
  source: z.record(z.string(), z.unknown()).nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
const environmentSchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  name: z.string(),
  description: z.string(),
  variables: z.record(z.string(), z.unknown()).describe('Every variable; each secret one reads "***"'),
  secretKeys: z
    .array(z.string())
    .describe('The keys of variables whose values are secret (encrypted at rest, never answered)'),
  createdAt: timestamp,
  updatedAt: timestamp,
});
const suiteSummarySchema = suiteSchema
  .omit({ tenantId: true, flowIds: true, source: true })
  .extend({ flowCount: z.number().int() });
const errorInfoSchema = z.object({ code: z.string(), message: z.string() });
const suiteRunResultSchema = z.object({
  runId: z.string().describe('shared by the executions of this run as trigger.suiteRunId'),
  suiteId: z.string(),
  suiteName: z.string(),
  mode: z.enum(SUITE_MODES),
  status: z.enum(['passed', 'failed']).describe('passed when no flow failed'),
  total: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int().describe('flows not run after a failure under failFast'),
  passRate: z.number().min(0).max(1).describe('passed / total'),
  durationMs: z.number(),
  latency: z
    .object({ p50: z.number().nullable(), p95: z.number().nullable() })
    .describe('of the durations of the flows that ran, nearest rank'),
  startedAt: timestamp,
  endedAt: timestamp,
  failFast: z.boolean(),
  flows: z.array(
    z.object({
      flowId: z.string(),
      flowName: z.string().nullable(),
      status: z.enum(['passed', 'failed', 'skipped']).describe('passed when the execution Completed'),
      executionId: z.string().nullable(),
      executionStatus: z.enum(EXECUTION_STATUSES).nullable(),
      durationMs: z.number().nullable(),
      error: errorInfoSchema.nullable(),
    }),
  ),
});

const scheduleSchema = z.object({
  id: z.string().describe('sch_ and 20 base32 characters'),
  name: z.string(),
  description: z.string(),
  target: z.object({ type: z.enum(SCHEDULE_TARGET_TYPES), id: z.string() }),
  targetName: z.string().nullable().describe('the target’s name now; null once it was deleted'),
  cron: z.string().describe('five fields: minute hour day-of-month month day-of-week'),
  timezone: z.string().describe('UTC or an IANA zone name'),
  environment: z.string().nullable().describe('the stored environment the runs read as env.*'),
  enabled: z.boolean().describe('false while paused'),
  overlap: z.enum(OVERLAP_POLICIES).describe('skip: a due run is skipped (and counted) while the previous one runs'),
  nextDueAt: timestamp.nullable().describe('null while paused'),
  nextDueTimes: z.array(timestamp).describe('the next three due times'),
  lastRun: z
    .object({
      at: timestamp,
      dueAt: timestamp.describe('the slot it was fired for'),
      executionId: z.string().nullable().describe('flow targets'),
      suiteRunId: z.string().nullable().describe('suite targets: the executions’ trigger.suiteRunId'),
      outcome: z.enum(SCHEDULE_RUN_OUTCOMES),
      error: errorInfoSchema.nullable(),
      endedAt: timestamp.nullable(),
      missed: z.number().int().describe('due runs missed while no scheduler ran, fired as this one'),
      manual: z.boolean().describe('asked by POST /api/schedules/{id}/run'),
    })
    .nullable(),
  skippedRuns: z.number().int(),
  lastSkippedAt: timestamp.nullable(),
  missedRuns: z.number().int(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

/** A test generation job as the testgen routes answer it (without the tenant and the lease). */
const testGenerationResultSchema = z.object({
  suiteId: z.string(),
  suiteName: z.string(),
  endpointId: z.string(),
  engine: z.string(),
  flowIds: z.array(z.string()).describe('the saved flows, one per case, in the suite’s order'),
  cases: z
    .object(Object.fromEntries(TEST_CATEGORIES.map((category) => [category, z.number().int()])))
    .describe('how many cases of each category were saved'),
});
const epochMs = z.number().describe('milliseconds since the epoch');
const testGenerationJobSchema = z.object({
  id: z.string(),
  kind: z.literal(TESTGEN_JOB_KIND),
  status: z.enum(JOB_STATUSES).describe('Queued or Running until it ends Completed (result) or Failed (error)'),
  input: z.object({ endpointId: z.string(), engine: z.string() }),
  progress: z.string().nullable().describe('the latest line of progress'),
  result: testGenerationResultSchema.nullable(),
  error: errorInfoSchema.nullable(),
  createdAt: epochMs,
  startedAt: epochMs.nullable(),
  endedAt: epochMs.nullable(),
  updatedAt: epochMs,
});

/*
 * Health-check suites: what the alert routes answer (documentation only, like the suite shapes).
 */
const alertChannelSchema = z.object({
  id: z.string(),
  suiteId: z.string(),
  name: z.string(),
  type: z.enum(ALERT_CHANNEL_TYPES),
  enabled: z.boolean(),
  repeatEvery: z.number().int().nullable().describe('milliseconds between reminders while a check keeps failing'),
  url: z.string().describe('"***" for webhook and Slack channels (their URL holds a token); PagerDuty’s address as is'),
  destination: z.string().describe('scheme, host and port of the URL: where the channel sends'),
  routingKey: z.literal('***').optional().describe('PagerDuty only'),
  severity: z.string().optional().describe('PagerDuty only'),
  headers: z.record(z.string(), z.literal('***')).optional().describe('webhook only: header names, values hidden'),
  signingSecret: z.literal('***').nullable().describe('"***" when deliveries are signed (Standard Webhooks)'),
  createdAt: timestamp,
  updatedAt: timestamp,
});
const checkFailureSchema = z.object({
  at: timestamp,
  executionId: z.string().nullable(),
  step: z.string().nullable().describe('the node whose step failed'),
  error: errorInfoSchema,
});
const suiteHealthSchema = z.object({
  suiteId: z.string(),
  suiteName: z.string(),
  kind: z.enum(SUITE_KINDS),
  status: z
    .enum(['healthy', 'failing', 'unknown'])
    .describe('failing when a check fails, unknown while one has not run'),
  checks: z.array(
    z.object({
      flowId: z.string(),
      name: z.string().nullable(),
      state: z.enum(['healthy', 'failing', 'unknown']),
      since: timestamp.nullable(),
      streak: z.number().int().describe('runs in a row that ended in this state'),
      lastRunAt: timestamp.nullable(),
      lastExecutionId: z.string().nullable(),
      lastFailure: checkFailureSchema.nullable(),
    }),
  ),
});
const alertDeliverySchema = z.object({
  id: z.string().describe('sent as webhook-id when signed, and as the webhook payload’s id'),
  suiteId: z.string(),
  channelId: z.string(),
  channelName: z.string().nullable().describe('null once the channel is deleted'),
  channelType: z.enum(ALERT_CHANNEL_TYPES),
  flowId: z.string(),
  event: z.enum(ALERT_EVENTS),
  status: z.enum(ALERT_DELIVERY_STATUSES),
  attempts: z.number().int(),
  nextAttemptAt: timestamp.nullable().describe('while pending: when the next attempt is due'),
  lastError: errorInfoSchema.nullable(),
  responseStatus: z.number().int().nullable(),
  createdAt: timestamp,
  deliveredAt: timestamp.nullable(),
  alert: z.object({
    event: z.enum(ALERT_EVENTS),
    suite: z.object({ id: z.string(), name: z.string() }),
    check: z.object({ flowId: z.string(), name: z.string() }),
    state: z.enum(['healthy', 'failing']),
    since: timestamp,
    error: errorInfoSchema.extend({ step: z.string().nullable() }).nullable(),
    executionId: z.string().nullable(),
    executionUrl: z.string().nullable(),
    time: timestamp,
  }),
});

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const pathId = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});

function success(description: string, data: JsonSchema = {}) {
  return {
    description,
    content: json({ type: 'object', required: ['success', 'data'], properties: { success: { const: true }, data } }),
  };
}

/** Error answers under their statuses, from the one error table. */
function answers(codes: readonly (keyof typeof ERROR_STATUS)[]) {
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      { description: [...new Set(list)].join(', '), content: json(ref('ErrorEnvelope')) },
    ]),
  );
}

/** The error answers a route can give, beside those of every authenticated route. */
function errors(...codes: (keyof typeof ERROR_STATUS)[]) {
  return answers(['UNAUTHORIZED', 'INSUFFICIENT_SCOPE', 'RATE_LIMITED', 'INTERNAL_ERROR', ...codes]);
}

/** The answers of a public webhook door: it asks no credentials of svc, so none of their refusals. */
function webhookErrors(...codes: (keyof typeof ERROR_STATUS)[]) {
  return answers([
    'WEBHOOK_UNVERIFIED',
    'UNSUPPORTED_MEDIA_TYPE',
    'PAYLOAD_TOO_LARGE',
    'PAYLOAD_INVALID',
    'VALIDATION_ERROR',
    'INTERNAL_ERROR',
    ...codes,
  ]);
}

/** Saving a flow whose webhook trigger names a stored environment is starting runs with it. */
const SAVES_A_RUN_DOOR =
  'A document whose webhook trigger node names a stored `environment` also needs executions:run (403 INSUFFICIENT_SCOPE otherwise): anyone with its URL starts runs with that environment.';

/** `scope` may list several scopes: a token needs every one of them (an API key carries its client's). */
function operation(summary: string, scope: Scope | Scope[], details: JsonSchema) {
  return { summary, security: [{ oauth2: Array.isArray(scope) ? scope : [scope] }, { apiKey: [] }], ...details };
}

const page = (items: JsonSchema) => ({
  type: 'object',
  properties: { items: { type: 'array', items }, nextCursor: { type: ['string', 'null'] } },
});

/**
 * @example
 * const document = buildOpenApiDocument();
 * document.paths['/api/gateway/flows'].get.parameters; // search, folderId, limit, cursor
 */
export function buildOpenApiDocument(): Record<string, unknown> {
  const flowId = pathId('id', 'flow id');
  const scheduleId = pathId('id', 'schedule id or name');
  return {
    openapi: '3.1.0',
    info: {
      title: 'svc REST API',
      version: '0.1.0',
      description:
        'Flows, runs and executions; every answer of /api is the envelope { success, data } or { success: false, error: { code, message, details? } }.',
    },
    components: {
      schemas: {
        FlowDocument: jsonSchema(flowDocumentSchema),
        ErrorEnvelope: jsonSchema(errorEnvelopeSchema),
        RunFlowBody: jsonSchema(runFlowBodySchema),
        TokenRequest: jsonSchema(tokenRequestSchema),
        CreateTenantBody: jsonSchema(createTenantBodySchema),
        CreateClientBody: jsonSchema(createClientBodySchema),
        ImportOpenApiBody: jsonSchema(importOpenApiBodySchema),
        SuiteDefinition: jsonSchema(suiteDefinitionSchema),
        Suite: jsonSchema(suiteSchema),
        SuiteSummary: jsonSchema(suiteSummarySchema),
        RunSuiteBody: jsonSchema(runSuiteBodySchema),
        EnvironmentBody: jsonSchema(environmentBodySchema),
        Environment: jsonSchema(environmentSchema),
        ScheduleBody: jsonSchema(scheduleBodySchema),
        Schedule: jsonSchema(scheduleSchema),
        SuiteRunResult: jsonSchema(suiteRunResultSchema),
        PlanRoadmapBody: jsonSchema(planRoadmapBodySchema),
        ScaffoldFlowBody: jsonSchema(scaffoldFlowBodySchema),
        Roadmap: jsonSchema(roadmapSchema),
        StartTestGenerationBody: jsonSchema(startTestGenerationSchema),
        TestGenerationJob: jsonSchema(testGenerationJobSchema),
        AlertChannelBody: jsonSchema(alertChannelBodySchema),
        AlertChannel: jsonSchema(alertChannelSchema),
        SuiteHealth: jsonSchema(suiteHealthSchema),
        AlertDelivery: jsonSchema(alertDeliverySchema),
      },
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description: 'Client credentials; the access token is presented as Authorization: Bearer.',
          flows: {
            clientCredentials: {
              tokenUrl: '/oauth/token',
              scopes: Object.fromEntries(SCOPES.map((scope) => [scope, SCOPE_DESCRIPTIONS[scope]])),
            },
          },
        },
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'The client secret itself; it carries all of its client’s scopes.',
        },
      },
    },
    paths: {
      '/oauth/token': {
        post: {
          summary:
            'Exchange client credentials for an access token (RFC 6749 §4.4); answers are OAuth2 JSON, not the envelope.',
          security: [],
          requestBody: {
            required: true,
            content: { 'application/x-www-form-urlencoded': { schema: ref('TokenRequest') } },
          },
          responses: {
            '200': {
              description: 'An access token',
              content: json({
                type: 'object',
                required: ['access_token', 'token_type', 'expires_in', 'scope'],
                properties: {
                  access_token: { type: 'string' },
                  token_type: { const: 'Bearer' },
                  expires_in: { type: 'integer' },
                  scope: { type: 'string' },
                },
              }),
            },
            '400': {
              description: 'invalid_request, unsupported_grant_type, invalid_scope',
              content: json({
                type: 'object',
                properties: { error: { type: 'string' }, error_description: { type: 'string' } },
              }),
            },
            '401': {
              description: 'invalid_client',
              content: json({
                type: 'object',
                properties: { error: { type: 'string' }, error_description: { type: 'string' } },
              }),
            },
            '429': {
              description: `temporarily_unavailable: more than ${TOKEN_THROTTLE_DEFAULTS.failuresPerClient} failed attempts for this client id from this address, or ${TOKEN_THROTTLE_DEFAULTS.failuresPerAddress} from this address, within ${TOKEN_THROTTLE_DEFAULTS.windowMs / 60_000} minutes`,
              headers: {
                'Retry-After': { description: 'seconds until the address may try again', schema: { type: 'integer' } },
              },
              content: json({
                type: 'object',
                properties: { error: { type: 'string' }, error_description: { type: 'string' } },
              }),
            },
          },
        },
      },
      '/api/openapi.json': {
        get: {
          summary: 'This document',
          security: [],
          responses: { '200': { description: 'OpenAPI 3.1', content: json({ type: 'object' }) } },
        },
      },
      '/health': {
        get: {
          summary:
            'Liveness and store readiness, for load balancers: no credentials; answers are plain JSON, not the envelope.',
          security: [],
          responses: {
            '200': {
              description: 'The process answers and its store can be read',
              content: json({
                type: 'object',
                required: ['status', 'store'],
                properties: { status: { const: 'ok' }, store: { const: 'ok' } },
              }),
            },
            '503': {
              description: 'The store cannot be read (or did not answer within 2 s)',
              content: json({
                type: 'object',
                required: ['status', 'store', 'error'],
                properties: {
                  status: { const: 'unavailable' },
                  store: { const: 'unavailable' },
                  error: { type: 'string' },
                },
              }),
            },
          },
        },
      },
      '/webhooks/trigger/{path}': {
        post: {
          summary:
            'Start the flow whose webhook trigger node holds this path; the JSON body and headers are that node’s output. No credentials of svc: the node’s verification method is the lock.',
          security: [],
          parameters: [pathId('path', 'The trigger path (an `auto` id, or the path chosen on the node; may hold `/`)')],
          requestBody: { required: true, content: json({}) },
          responses: {
            '200': success(
              'The same request was taken before (a Standard Webhooks id or a timestamped signature seen within its tolerance): nothing started, the execution it started is named',
              {
                type: 'object',
                required: ['executionId', 'duplicate'],
                properties: { executionId: { type: 'string' }, duplicate: { const: true } },
              },
            ),
            '202': success('Verified; the execution started', {
              type: 'object',
              required: ['executionId'],
              properties: { executionId: { type: 'string' } },
            }),
            ...webhookErrors('WEBHOOK_NOT_FOUND', 'WEBHOOK_IN_PROGRESS', 'MALFORMED_JSON'),
          },
        },
      },
      '/webhooks/callback/{token}': {
        post: {
          summary:
            'Resume the webhook wait the token names (`{{<Node>.callbackUrl}}`) with the JSON body and headers as the node’s output. A callback before the wait is reached is kept; a token is used once.',
          security: [],
          parameters: [pathId('token', 'The callback token of one wait')],
          requestBody: { required: true, content: json({}) },
          responses: {
            '202': success('Verified and stored; the wait resumes', {
              type: 'object',
              required: ['executionId'],
              properties: { executionId: { type: 'string' } },
            }),
            ...webhookErrors('WEBHOOK_NOT_FOUND', 'WEBHOOK_TOKEN_USED', 'WEBHOOK_GONE', 'MALFORMED_JSON'),
          },
        },
      },
      '/api/gateway/flows': {
        get: operation('List the tenant’s flows, most recently updated first', 'flows:read', {
          parameters: queryParameters(listFlowsQuerySchema),
          responses: {
            '200': success('A page of flow summaries', page({ type: 'object' })),
            ...errors('VALIDATION_ERROR'),
          },
        }),
        post: operation('Create a flow (validated whole; every problem answered with its path)', 'flows:write', {
          description: SAVES_A_RUN_DOOR,
          parameters: queryParameters(upsertQuerySchema),
          requestBody: { required: true, content: json(ref('FlowDocument')) },
          responses: {
            '200': success(
              'upsert=true: the flow of the document’s id, else of its name, with a new version only when it changed',
              ref('FlowDocument'),
            ),
            '201': success('The saved flow, version 1', ref('FlowDocument')),
            ...errors('VALIDATION_ERROR', 'MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE', 'CONFLICT'),
          },
        }),
      },
      '/api/gateway/flows/{id}': {
        get: operation('Read a flow; its ETag is the version', 'flows:read', {
          parameters: [flowId],
          responses: { '200': success('The flow', ref('FlowDocument')), ...errors('FLOW_NOT_FOUND') },
        }),
        put: operation('Save a new version; a stale expectedVersion (body) or If-Match answers 409', 'flows:write', {
          description: SAVES_A_RUN_DOOR,
          parameters: [flowId, { name: 'If-Match', in: 'header', required: false, schema: { type: 'string' } }],
          requestBody: {
            required: true,
            content: json({
              allOf: [
                ref('FlowDocument'),
                { type: 'object', properties: { expectedVersion: { type: 'integer', minimum: 1 } } },
              ],
            }),
          },
          responses: {
            '200': success('The new version', ref('FlowDocument')),
            ...errors(
              'FLOW_NOT_FOUND',
              'CONFLICT',
              'VALIDATION_ERROR',
              'MALFORMED_JSON',
              'UNSUPPORTED_MEDIA_TYPE',
              'PAYLOAD_TOO_LARGE',
            ),
          },
        }),
        delete: operation('Delete a flow (its executions stay readable)', 'flows:write', {
          parameters: [flowId],
          responses: {
            '200': success('Deleted', {
              type: 'object',
              properties: { id: { type: 'string' }, deleted: { const: true } },
            }),
            ...errors('FLOW_NOT_FOUND'),
          },
        }),
      },
      '/api/gateway/flows/{id}/run': {
        post: operation('Run a flow and wait up to waitMs for its end', 'executions:run', {
          parameters: [flowId, ...queryParameters(runQuerySchema)],
          requestBody: { required: false, content: json(ref('RunFlowBody')) },
          responses: {
            '200': success('The execution, ended, with its steps'),
            '202': success('The execution, still going, with its current status'),
            ...errors(
              'FLOW_NOT_FOUND',
              'VALIDATION_ERROR',
              'ENVIRONMENT_NOT_FOUND',
              'SECRET_UNREADABLE',
              'MALFORMED_JSON',
              'SHUTTING_DOWN',
            ),
          },
        }),
      },
      '/api/gateway/flows/{id}/executions': {
        get: operation('List a flow’s executions, newest first', 'flows:read', {
          parameters: [flowId, ...queryParameters(listExecutionsQuerySchema)],
          responses: {
            '200': success('A page of executions', page({ type: 'object' })),
            ...errors('FLOW_NOT_FOUND', 'VALIDATION_ERROR'),
          },
        }),
      },
      '/api/gateway/executions': {
        get: operation('List the tenant’s executions, newest first (of one flow, or with one status)', 'flows:read', {
          parameters: queryParameters(listAllExecutionsQuerySchema),
          responses: {
            '200': success('A page of executions, without their steps', page({ type: 'object' })),
            ...errors('VALIDATION_ERROR'),
          },
        }),
      },
      '/api/gateway/executions/{id}': {
        get: operation('Read an execution with its trace, status and latencies', 'flows:read', {
          parameters: [pathId('id', 'execution id')],
          responses: { '200': success('The execution with its steps'), ...errors('EXECUTION_NOT_FOUND') },
        }),
      },
      '/api/gateway/suites': {
        get: operation(
          'List the tenant’s suites with flow counts and modes, most recently updated first',
          'suites:read',
          {
            parameters: queryParameters(listSuitesQuerySchema),
            responses: {
              '200': success('A page of suite summaries', page(ref('SuiteSummary'))),
              ...errors('VALIDATION_ERROR'),
            },
          },
        ),
        post: operation(
          'Create a suite; every flow id must exist in the tenant (authoring, hence flows:write)',
          'flows:write',
          {
            parameters: queryParameters(upsertQuerySchema),
            requestBody: { required: true, content: json(ref('SuiteDefinition')) },
            responses: {
              '200': success(
                'upsert=true: the suite of that name, its definition replaced (not written again when it did not change)',
                ref('Suite'),
              ),
              '201': success('The saved suite', ref('Suite')),
              ...errors(
                'VALIDATION_ERROR',
                'CONFLICT',
                'MALFORMED_JSON',
                'UNSUPPORTED_MEDIA_TYPE',
                'PAYLOAD_TOO_LARGE',
              ),
            },
          },
        ),
      },
      '/api/gateway/suites/{id}': {
        get: operation('Read a suite', 'suites:read', {
          parameters: [pathId('id', 'suite id')],
          responses: { '200': success('The suite', ref('Suite')), ...errors('SUITE_NOT_FOUND') },
        }),
        delete: operation('Delete a suite (its flows and executions stay)', 'flows:write', {
          parameters: [pathId('id', 'suite id')],
          responses: {
            '200': success('Deleted', {
              type: 'object',
              properties: { id: { type: 'string' }, deleted: { const: true } },
            }),
            ...errors('SUITE_NOT_FOUND'),
          },
        }),
      },
      '/api/gateway/suites/{id}/run': {
        post: operation(
          'Run every flow of a suite and answer its KPIs when the last one ended (a failing suite is a 200 with status failed)',
          'suites:run',
          {
            parameters: [pathId('id', 'suite id')],
            requestBody: { required: false, content: json(ref('RunSuiteBody')) },
            responses: {
              '200': success('KPIs and per-flow results', ref('SuiteRunResult')),
              ...errors(
                'SUITE_NOT_FOUND',
                'VALIDATION_ERROR',
                'ENVIRONMENT_NOT_FOUND',
                'SECRET_UNREADABLE',
                'MALFORMED_JSON',
              ),
            },
          },
        ),
      },
      '/api/gateway/suites/{id}/health': {
        get: operation(
          'Each check of a health-check suite: healthy or failing, since when, the last failure’s step and error',
          'suites:read',
          {
            parameters: [pathId('id', 'suite id')],
            responses: {
              '200': success('The checks, in the suite’s order', ref('SuiteHealth')),
              ...errors('SUITE_NOT_FOUND'),
            },
          },
        ),
      },
      '/api/gateway/suites/{id}/alerts': {
        get: operation('The suite’s alert deliveries, newest first: status, attempts, last error', 'suites:read', {
          parameters: [pathId('id', 'suite id'), ...queryParameters(listAlertsQuerySchema)],
          responses: {
            '200': success('A page of deliveries', page(ref('AlertDelivery'))),
            ...errors('SUITE_NOT_FOUND', 'VALIDATION_ERROR'),
          },
        }),
      },
      '/api/gateway/suites/{id}/alert-channels': {
        get: operation('The suite’s alert channels; secret parts read "***"', 'suites:read', {
          parameters: [pathId('id', 'suite id')],
          responses: {
            '200': success('The channels, by name', {
              type: 'object',
              properties: { items: { type: 'array', items: ref('AlertChannel') } },
            }),
            ...errors('SUITE_NOT_FOUND'),
          },
        }),
        post: operation(
          'Add an alert channel to a health-check suite (webhook, slack or pagerduty); URLs must be http(s)',
          'flows:write',
          {
            parameters: [pathId('id', 'suite id')],
            requestBody: { required: true, content: json(ref('AlertChannelBody')) },
            responses: {
              '201': success('The saved channel', ref('AlertChannel')),
              ...errors(
                'SUITE_NOT_FOUND',
                'VALIDATION_ERROR',
                'CONFLICT',
                'MALFORMED_JSON',
                'UNSUPPORTED_MEDIA_TYPE',
                'PAYLOAD_TOO_LARGE',
              ),
            },
          },
        ),
      },
      '/api/gateway/suites/{id}/alert-channels/{channelId}': {
        get: operation('Read an alert channel; secret parts read "***"', 'suites:read', {
          parameters: [pathId('id', 'suite id'), pathId('channelId', 'alert channel id')],
          responses: {
            '200': success('The channel', ref('AlertChannel')),
            ...errors('SUITE_NOT_FOUND', 'ALERT_CHANNEL_NOT_FOUND'),
          },
        }),
        put: operation('Replace an alert channel; "***" keeps a secret unless the destination changes', 'flows:write', {
          parameters: [pathId('id', 'suite id'), pathId('channelId', 'alert channel id')],
          requestBody: { required: true, content: json(ref('AlertChannelBody')) },
          responses: {
            '200': success('The channel', ref('AlertChannel')),
            ...errors(
              'SUITE_NOT_FOUND',
              'ALERT_CHANNEL_NOT_FOUND',
              'VALIDATION_ERROR',
              'CONFLICT',
              'MALFORMED_JSON',
              'UNSUPPORTED_MEDIA_TYPE',
            ),
          },
        }),
        delete: operation('Delete an alert channel', 'flows:write', {
          parameters: [pathId('id', 'suite id'), pathId('channelId', 'alert channel id')],
          responses: {
            '200': success('Deleted', {
              type: 'object',
              properties: { id: { type: 'string' }, name: { type: 'string' }, deleted: { const: true } },
            }),
            ...errors('SUITE_NOT_FOUND', 'ALERT_CHANNEL_NOT_FOUND'),
          },
        }),
      },
      '/api/gateway/environments': {
        get: operation('List the tenant’s stored environments by name; secret values read "***"', 'environments:read', {
          responses: {
            '200': success('The environments', {
              type: 'object',
              properties: { items: { type: 'array', items: ref('Environment') } },
            }),
            ...errors(),
          },
        }),
        post: operation(
          'Create a stored environment; the keys named in secretKeys are encrypted at rest and never answered',
          'environments:write',
          {
            requestBody: { required: true, content: json(ref('EnvironmentBody')) },
            responses: {
              '201': success('The saved environment', ref('Environment')),
              ...errors(
                'VALIDATION_ERROR',
                'CONFLICT',
                'MALFORMED_JSON',
                'UNSUPPORTED_MEDIA_TYPE',
                'PAYLOAD_TOO_LARGE',
              ),
            },
          },
        ),
      },
      '/api/gateway/environments/{id}': {
        get: operation('Read a stored environment (by id or name); secret values read "***"', 'environments:read', {
          parameters: [pathId('id', 'environment id or name')],
          responses: { '200': success('The environment', ref('Environment')), ...errors('ENVIRONMENT_NOT_FOUND') },
        }),
        put: operation(
          'Replace a stored environment; a secret key sent with the value "***" keeps its stored value',
          'environments:write',
          {
            parameters: [pathId('id', 'environment id or name')],
            requestBody: { required: true, content: json(ref('EnvironmentBody')) },
            responses: {
              '200': success('The saved environment', ref('Environment')),
              ...errors(
                'ENVIRONMENT_NOT_FOUND',
                'VALIDATION_ERROR',
                'CONFLICT',
                'MALFORMED_JSON',
                'UNSUPPORTED_MEDIA_TYPE',
                'PAYLOAD_TOO_LARGE',
              ),
            },
          },
        ),
        delete: operation('Delete a stored environment', 'environments:write', {
          parameters: [pathId('id', 'environment id or name')],
          responses: {
            '200': success('Deleted', {
              type: 'object',
              properties: { id: { type: 'string' }, name: { type: 'string' }, deleted: { const: true } },
            }),
            ...errors('ENVIRONMENT_NOT_FOUND'),
          },
        }),
      },
      '/api/schedules': {
        get: operation(
          'List active schedules (all=true: paused ones too), oldest first, each with its next three due times',
          'schedules:read',
          {
            parameters: queryParameters(listSchedulesQuerySchema),
            responses: {
              '200': success('A page of schedules', page(ref('Schedule'))),
              ...errors('VALIDATION_ERROR'),
            },
          },
        ),
        post: operation(
          'Create a schedule of a flow or a suite (target by id or name) on a 5-field cron, in UTC or an IANA time zone',
          'schedules:write',
          {
            requestBody: { required: true, content: json(ref('ScheduleBody')) },
            responses: {
              '201': success('The saved schedule', ref('Schedule')),
              ...errors(
                'VALIDATION_ERROR',
                'CONFLICT',
                'MALFORMED_JSON',
                'UNSUPPORTED_MEDIA_TYPE',
                'PAYLOAD_TOO_LARGE',
              ),
            },
          },
        ),
      },
      '/api/schedules/{id}': {
        get: operation('Read a schedule (by id or name)', 'schedules:read', {
          parameters: [scheduleId],
          responses: { '200': success('The schedule', ref('Schedule')), ...errors('SCHEDULE_NOT_FOUND') },
        }),
        put: operation('Replace a schedule; its next due time is computed afresh', 'schedules:write', {
          parameters: [scheduleId],
          requestBody: { required: true, content: json(ref('ScheduleBody')) },
          responses: {
            '200': success('The saved schedule', ref('Schedule')),
            ...errors(
              'SCHEDULE_NOT_FOUND',
              'VALIDATION_ERROR',
              'CONFLICT',
              'MALFORMED_JSON',
              'UNSUPPORTED_MEDIA_TYPE',
              'PAYLOAD_TOO_LARGE',
            ),
          },
        }),
        delete: operation('Delete a schedule', 'schedules:write', {
          parameters: [scheduleId],
          responses: {
            '200': success('Deleted', {
              type: 'object',
              properties: { id: { type: 'string' }, name: { type: 'string' }, deleted: { const: true } },
            }),
            ...errors('SCHEDULE_NOT_FOUND'),
          },
        }),
      },
      '/api/schedules/{id}/pause': {
        post: operation('Pause a schedule: no run is due until it is resumed', 'schedules:write', {
          parameters: [scheduleId],
          responses: { '200': success('The paused schedule', ref('Schedule')), ...errors('SCHEDULE_NOT_FOUND') },
        }),
      },
      '/api/schedules/{id}/resume': {
        post: operation(
          'Resume a schedule: due again from the next slot after now (slots passed while paused are not made up)',
          'schedules:write',
          {
            parameters: [scheduleId],
            responses: { '200': success('The resumed schedule', ref('Schedule')), ...errors('SCHEDULE_NOT_FOUND') },
          },
        ),
      },
      '/api/schedules/{id}/run': {
        post: operation(
          'Fire a run now (trigger { type: "schedule", scheduleId, manual: true }); answers once it started',
          'schedules:write',
          {
            parameters: [scheduleId],
            responses: {
              '202': success('The schedule and the run started', {
                type: 'object',
                properties: {
                  schedule: ref('Schedule'),
                  run: {
                    type: 'object',
                    properties: {
                      scheduleId: { type: 'string' },
                      status: { enum: ['fired', 'failed'] },
                      runId: { type: 'string', description: 'the execution id or suite run id' },
                      error: jsonSchema(errorInfoSchema),
                    },
                  },
                },
              }),
              ...errors('SCHEDULE_NOT_FOUND', 'CONFLICT'),
            },
          },
        ),
      },
      '/api/gateway/catalog/import': {
        post: operation(
          'Import (or replace, by name) an OpenAPI 3.0/3.1 or Swagger 2.0 document into the tenant’s catalog',
          'catalog:write',
          {
            requestBody: { required: true, content: json(ref('ImportOpenApiBody')) },
            responses: {
              '200': success('The spec and the endpoint ids added, removed and changed since its previous import'),
              ...errors(
                'INVALID_OPENAPI',
                'VALIDATION_ERROR',
                'MALFORMED_JSON',
                'UNSUPPORTED_MEDIA_TYPE',
                'PAYLOAD_TOO_LARGE',
              ),
            },
          },
        ),
      },
      '/api/gateway/catalog/endpoints': {
        get: operation('List the catalog’s endpoints, by spec and in document order', 'catalog:read', {
          parameters: queryParameters(listEndpointsQuerySchema),
          responses: { '200': success('A page of endpoints', page({ type: 'object' })), ...errors('VALIDATION_ERROR') },
        }),
      },
      '/api/gateway/catalog/endpoints/{id}': {
        get: operation(
          'Read one endpoint: parameters, request and response schemas, security, servers',
          'catalog:read',
          {
            parameters: [pathId('id', 'endpoint id, or specId:endpointId')],
            responses: { '200': success('The endpoint'), ...errors('ENDPOINT_NOT_FOUND') },
          },
        ),
      },
      '/api/gateway/discovery/roadmaps': {
        post: operation(
          'Plan a plain-language requirement against the tenant’s catalog: steps in run order (method, path, reason, score), bindings between them, inputs, confidence and runner-up candidates. Deterministic; nothing is saved',
          'catalog:read',
          {
            requestBody: { required: true, content: json(ref('PlanRoadmapBody')) },
            responses: {
              '200': success('The roadmap', ref('Roadmap')),
              ...errors(
                'CATALOG_EMPTY',
                'SPEC_NOT_FOUND',
                'VALIDATION_ERROR',
                'MALFORMED_JSON',
                'UNSUPPORTED_MEDIA_TYPE',
                'PAYLOAD_TOO_LARGE',
              ),
            },
          },
        ),
      },
      '/api/gateway/discovery/scaffolds': {
        post: operation(
          'Scaffold a roadmap (or a requirement, planned first; exactly one of the two) into a saved flow: one endpoint node per step, wired in run order, in one frame. Needs catalog:read and flows:write',
          ['catalog:read', 'flows:write'],
          {
            requestBody: { required: true, content: json(ref('ScaffoldFlowBody')) },
            responses: {
              '201': success('The saved flow and the roadmap it was built from', {
                type: 'object',
                required: ['flow', 'roadmap'],
                properties: { flow: ref('FlowDocument'), roadmap: ref('Roadmap') },
              }),
              ...errors(
                'CATALOG_EMPTY',
                'SPEC_NOT_FOUND',
                'ENDPOINT_NOT_FOUND',
                'INVALID_ROADMAP',
                'VALIDATION_ERROR',
                'MALFORMED_JSON',
                'UNSUPPORTED_MEDIA_TYPE',
                'PAYLOAD_TOO_LARGE',
              ),
            },
          },
        ),
      },
      '/api/gateway/testgen/jobs': {
        post: operation(
          'Start a test generation for a catalog endpoint: a job, answered at once (Location names it). Its result is a generated suite of flows, one per case. The engine and the endpoint are checked before the job starts; sampling needs an MCP client and is refused here',
          'catalog:write',
          {
            requestBody: { required: true, content: json(ref('StartTestGenerationBody')) },
            responses: {
              '202': {
                ...success('The job, Queued or Running', ref('TestGenerationJob')),
                headers: { Location: { description: '/api/gateway/testgen/jobs/{id}', schema: { type: 'string' } } },
              },
              ...errors(
                'UNKNOWN_ENGINE',
                'ENDPOINT_NOT_FOUND',
                'SAMPLING_UNAVAILABLE',
                'VALIDATION_ERROR',
                'MALFORMED_JSON',
                'UNSUPPORTED_MEDIA_TYPE',
                'PAYLOAD_TOO_LARGE',
              ),
            },
          },
        ),
      },
      '/api/gateway/testgen/jobs/{id}': {
        get: operation(
          'Read a test generation job: status, progress, and its result (the suite) or error',
          'catalog:read',
          {
            parameters: [pathId('id', 'job id')],
            responses: { '200': success('The job', ref('TestGenerationJob')), ...errors('JOB_NOT_FOUND') },
          },
        ),
      },
      '/api/backoffice/tenants': {
        get: operation('List tenants (operator only)', 'operator', {
          responses: { '200': success('Every tenant', page({ type: 'object' })), ...errors() },
        }),
        post: operation('Create a tenant (operator only)', 'operator', {
          requestBody: { required: true, content: json(ref('CreateTenantBody')) },
          responses: { '201': success('The tenant'), ...errors('VALIDATION_ERROR', 'CONFLICT') },
        }),
      },
      '/api/backoffice/clients': {
        get: operation(
          'List the clients of a tenant (never their secrets): the caller’s own with admin, another with operator',
          'admin',
          {
            parameters: [
              {
                name: 'tenantId',
                in: 'query',
                required: false,
                description: 'default the caller’s tenant; another tenant needs operator',
                schema: { type: 'string' },
              },
            ],
            responses: { '200': success('Clients', page({ type: 'object' })), ...errors() },
          },
        ),
        post: operation(
          `Create a client; the answer carries its clientSecret, this once. Without scopes it gets ${DEFAULT_SCOPES.join(' ')}; it may get only scopes the caller holds (operator only from an operator), and a tenant other than the caller’s needs operator`,
          'admin',
          {
            requestBody: { required: true, content: json(ref('CreateClientBody')) },
            responses: {
              '201': success('The client and its secret'),
              ...errors('VALIDATION_ERROR', 'SCOPE_NOT_GRANTABLE', 'TENANT_NOT_FOUND'),
            },
          },
        ),
      },
      '/api/backoffice/clients/{id}/rotate': {
        post: operation(
          'Issue a new secret; the previous one works 24 hours more. Another tenant’s client answers 404 unless the caller is an operator',
          'admin',
          {
            parameters: [pathId('id', 'client id')],
            responses: {
              '200': success('The client, its new secret and when the old one stops'),
              ...errors('CLIENT_NOT_FOUND', 'SCOPE_NOT_GRANTABLE', 'CLIENT_REVOKED'),
            },
          },
        ),
      },
      '/api/backoffice/clients/{id}/revoke': {
        post: operation(
          'Revoke at once: secrets and tokens already issued. Another tenant’s client answers 404 unless the caller is an operator',
          'admin',
          {
            parameters: [pathId('id', 'client id')],
            responses: {
              '200': success('The revoked client'),
              ...errors('CLIENT_NOT_FOUND', 'SCOPE_NOT_GRANTABLE', 'CLIENT_REVOKED'),
            },
          },
        ),
      },
    },
  };
}
