import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestGenerationSchema, TEST_GENERATION_ENGINES } from '@svc/discovery';
import { createEngine, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp, SCOPES } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { stubAuthenticator } from './stub-authenticator.js';

type Json = Record<string, any>;

describe('GET /api/openapi.json', () => {
  let store: ReturnType<typeof openSqliteStore>;
  let engine: Engine;
  let document: Json;

  beforeAll(async () => {
    store = openSqliteStore({ path: ':memory:' });
    engine = await createEngine({ store });
    const app = createApp({ engine, authenticator: stubAuthenticator({}), store });
    // No credentials: the document is public.
    const response = await app.request('/api/openapi.json');
    expect(response.status).toBe(200);
    document = (await response.json()) as Json;
  });
  afterAll(async () => {
    await engine?.stop();
    await store?.close();
  });

  it('validates as an OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The validator does reject a document that is not OpenAPI 3.1.
    const broken = structuredClone(document);
    broken.paths['/api/gateway/flows'].get.responses = 'none';
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('describes the request parameters and bodies from the schemas the routes validate with', () => {
    const list = document.paths['/api/gateway/flows'].get;
    expect(list.parameters.map((parameter: Json) => parameter.name)).toEqual(['search', 'folderId', 'limit', 'cursor']);
    expect(list.parameters.find((parameter: Json) => parameter.name === 'limit').schema).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 200,
    });
    expect(
      document.paths['/api/gateway/flows/{id}/run'].post.parameters.map((parameter: Json) => parameter.name),
    ).toEqual(['id', 'waitMs']);
    const flow = document.components.schemas.FlowDocument;
    expect(flow.required).toEqual(['name', 'nodes']);
    expect(flow.properties.nodes.maxItems).toBe(1000);
    expect(document.components.schemas.RunFlowBody.additionalProperties).toBe(false);
    expect(document.components.schemas.CreateClientBody.properties.scopes.items.enum).toEqual([...SCOPES]);
  });

  it('names every route with its scope and its errors', () => {
    const operations = Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(
      ([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
    );
    expect(operations.map((entry) => entry.key)).toEqual(
      expect.arrayContaining([
        'POST /oauth/token',
        'GET /api/gateway/flows',
        'PUT /api/gateway/flows/{id}',
        'POST /api/gateway/flows/{id}/run',
        'POST /api/backoffice/clients/{id}/rotate',
      ]),
    );
    for (const { key, operation } of operations.filter(
      (entry) => entry.key.includes('/api/') && !entry.key.endsWith('openapi.json'),
    )) {
      expect(operation.security[0].oauth2.length, key).toBeGreaterThanOrEqual(1);
      expect(operation.responses['401'], key).toBeDefined();
    }
    expect(document.paths['/api/gateway/flows/{id}'].get.responses['404'].description).toBe('FLOW_NOT_FOUND');
  });

  it('documents the split between operator and tenant admin, the 409 on revoked clients and the token throttle', () => {
    expect(document.paths['/api/backoffice/tenants'].get.security[0].oauth2).toEqual(['operator']);
    expect(document.paths['/api/backoffice/tenants'].post.security[0].oauth2).toEqual(['operator']);
    expect(document.paths['/api/backoffice/clients'].post.security[0].oauth2).toEqual(['admin']);
    expect(document.paths['/api/backoffice/clients'].post.summary).toContain('flows:read executions:run');
    expect(document.paths['/api/backoffice/clients'].post.responses['403'].description).toContain(
      'SCOPE_NOT_GRANTABLE',
    );
    for (const action of ['rotate', 'revoke'])
      expect(document.paths[`/api/backoffice/clients/{id}/${action}`].post.responses['409'].description).toBe(
        'CLIENT_REVOKED',
      );
    expect(document.paths['/oauth/token'].post.responses['429'].headers['Retry-After']).toBeDefined();
    expect(document.components.securitySchemes.oauth2.flows.clientCredentials.scopes.operator).toMatch(/every tenant/);
  });

  it('documents the test generation routes: the body from the schema the route validates with, a 202 job, and their errors', () => {
    const start = document.paths['/api/gateway/testgen/jobs'].post;
    expect(start.security[0].oauth2).toEqual(['catalog:write']);
    expect(start.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/StartTestGenerationBody',
    });
    const { $schema: _dialect, ...body } = z.toJSONSchema(startTestGenerationSchema, { io: 'input' }) as Json;
    expect(document.components.schemas.StartTestGenerationBody).toEqual(body);
    expect(document.components.schemas.StartTestGenerationBody).toMatchObject({
      required: ['endpointId', 'engine'],
      additionalProperties: false,
    });
    expect(document.components.schemas.StartTestGenerationBody.properties.engine.description).toContain(
      TEST_GENERATION_ENGINES.join(', '),
    );

    expect(Object.keys(start.responses)).toContain('202');
    expect(start.responses['200']).toBeUndefined();
    expect(start.responses['202'].content['application/json'].schema.properties.data).toEqual({
      $ref: '#/components/schemas/TestGenerationJob',
    });
    expect(start.responses['202'].headers.Location).toBeDefined();
    const badRequest = start.responses['400'].description.split(', ');
    expect(badRequest).toEqual(expect.arrayContaining(['UNKNOWN_ENGINE', 'SAMPLING_UNAVAILABLE', 'VALIDATION_ERROR']));
    expect(start.responses['404'].description).toBe('ENDPOINT_NOT_FOUND');

    const job = document.components.schemas.TestGenerationJob;
    expect(Object.keys(job.properties)).toEqual([
      'id',
      'kind',
      'status',
      'input',
      'progress',
      'result',
      'error',
      'createdAt',
      'startedAt',
      'endedAt',
      'updatedAt',
    ]);
    expect(job.properties.status.enum).toEqual(['Queued', 'Running', 'Completed', 'Failed']);
    const result = job.properties.result.anyOf.find((option: Json) => option.type === 'object');
    expect(result.required).toEqual(expect.arrayContaining(['suiteId', 'flowIds', 'cases']));
    expect(Object.keys(result.properties.cases.properties)).toEqual(['positive', 'negative', 'boundary', 'security']);

    const read = document.paths['/api/gateway/testgen/jobs/{id}'].get;
    expect(read.security[0].oauth2).toEqual(['catalog:read']);
    expect(read.parameters.map((parameter: Json) => parameter.name)).toEqual(['id']);
    expect(read.responses['200'].content['application/json'].schema.properties.data).toEqual({
      $ref: '#/components/schemas/TestGenerationJob',
    });
    expect(read.responses['404'].description).toBe('JOB_NOT_FOUND');
  });
});
