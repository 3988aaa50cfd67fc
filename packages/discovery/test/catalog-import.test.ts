import { readFileSync } from 'node:fs';
import { SvcError } from '@svc/engine';
import { describe, expect, it } from 'vitest';
import { extractEndpoints, parseOpenApiDocument, type CatalogEndpoint } from '../src/index.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

function endpointsOf(name: string): CatalogEndpoint[] {
  return extractEndpoints(parseOpenApiDocument(fixture(name), name).resolved);
}

function byId(endpoints: CatalogEndpoint[], id: string): CatalogEndpoint {
  const found = endpoints.find((endpoint) => endpoint.id === id);
  if (found === undefined) throw new Error(`no endpoint ${id} among ${endpoints.map((e) => e.id).join(', ')}`);
  return found;
}

function problemsOf(text: string): Array<{ path: string; message: string }> {
  try {
    parseOpenApiDocument(text);
  } catch (error) {
    expect(error).toBeInstanceOf(SvcError);
    expect((error as SvcError).code).toBe('INVALID_OPENAPI');
    return ((error as SvcError).details as { problems: Array<{ path: string; message: string }> }).problems;
  }
  throw new Error('the document was accepted');
}

describe('parseOpenApiDocument and extractEndpoints', () => {
  it('reads an OpenAPI 3.0 JSON document into one endpoint per operation with resolved schemas', () => {
    const parsed = parseOpenApiDocument(fixture('spotify-subset.json'));
    expect(parsed.sourceVersion).toBe('3.0');
    expect(parsed.title).toBe('Spotify Web API');
    const endpoints = extractEndpoints(parsed.resolved);
    expect(endpoints.map((endpoint) => `${endpoint.method} ${endpoint.path}`)).toEqual([
      'GET /me',
      'POST /users/{user_id}/playlists',
      'GET /playlists/{playlist_id}/tracks',
      'POST /playlists/{playlist_id}/tracks',
      'DELETE /playlists/{playlist_id}/tracks',
    ]);
    const create = byId(endpoints, 'create-playlist');
    expect(create.parameters).toContainEqual(expect.objectContaining({ name: 'user_id', in: 'path', required: true }));
    expect(create.requestBody?.contentType).toBe('application/json');
    expect(JSON.stringify(create.requestBody?.schema)).toContain('"name"');
    expect(create.security).toEqual([{ oauth_2_0: ['playlist-modify-public', 'playlist-modify-private'] }]);
    expect(create.servers).toEqual(['https://api.spotify.com/v1']);
    // The 201 response's schema was a $ref into components: it is inlined, with no schema $ref
    // left (the x-spotify-policy-list extensions keep theirs: extensions are data).
    const created = create.responses['201'];
    expect(created?.schema).toBeDefined();
    expect(JSON.stringify(created?.schema)).not.toContain('"$ref":"#/components/schemas/');
    expect(JSON.stringify(created?.schema)).toContain(
      '"x-spotify-policy-list":[{"$ref":"#/components/x-spotify-policy/',
    );
    const tracks = byId(endpoints, 'get-playlists-tracks');
    expect(tracks.parameters.find((param) => param.name === 'limit')).toMatchObject({ in: 'query', required: false });
  });

  it('reads YAML, and names an operation without operationId by its method and path', () => {
    const endpoints = endpointsOf('pet-coupons.openapi.yaml');
    expect(byId(endpoints, 'getPetById')).toMatchObject({ method: 'GET', path: '/pet/{petId}', tags: ['pet'] });
    const tree = endpointsOf('cyclic-tree.yaml');
    expect(tree.map((endpoint) => endpoint.id)).toEqual(['get_nodes_nodeid', 'replaceNode']);
  });

  it('keeps recursive schemas finite with a circular marker naming the schema', () => {
    const [get, put] = endpointsOf('cyclic-tree.yaml');
    const node = get?.responses['200']?.schema as { properties: Record<string, any> };
    expect(node.properties.name).toEqual({ type: 'string' });
    expect(node.properties.parent).toEqual({ $ref: '#/components/schemas/Node', 'x-circular': true });
    expect(node.properties.children.items).toEqual({ $ref: '#/components/schemas/Node', 'x-circular': true });
    expect(node.properties.owner.properties.bestFriend).toEqual({
      $ref: '#/components/schemas/Person',
      'x-circular': true,
    });
    expect(put?.requestBody).toMatchObject({ required: true, contentType: 'application/json' });
    expect(get?.parameters).toEqual([{ name: 'nodeId', in: 'path', required: true, schema: { type: 'string' } }]);
    expect(() => JSON.stringify(node)).not.toThrow();
  });

  it('converts Swagger 2.0: servers, body and form parameters, definitions, response schemas, security', () => {
    const parsed = parseOpenApiDocument(fixture('swagger2-shop.json'));
    expect(parsed.sourceVersion).toBe('2.0');
    expect(parsed.resolved.openapi).toBe('3.0.3');
    expect(parsed.source.swagger).toBe('2.0');
    const endpoints = extractEndpoints(parsed.resolved);
    expect(endpoints.map((endpoint) => endpoint.id)).toEqual(['get_orders', 'createOrder', 'getOrder', 'attachFile']);

    const create = byId(endpoints, 'createOrder');
    expect(create.servers).toEqual(['https://shop.example.com/v2', 'http://shop.example.com/v2']);
    expect(create.parameters).toEqual([{ name: 'dryRun', in: 'query', required: false, schema: { type: 'boolean' } }]);
    expect(create.requestBody).toMatchObject({ required: true, contentType: 'application/json' });
    expect(create.requestBody?.schema).toMatchObject({
      required: ['customerId'],
      properties: { items: { type: 'array', items: { properties: { quantity: { type: 'integer', minimum: 1 } } } } },
    });
    expect(create.responses['201']?.schema).toMatchObject({
      allOf: [{ required: ['customerId'] }, { properties: { id: { type: 'integer' } } }],
    });
    expect(create.responses['400']).toEqual({ description: 'bad input' });
    expect(create.security).toEqual([{ key: [] }]);

    const list = byId(endpoints, 'get_orders');
    expect(list.parameters[0]?.schema).toEqual({ type: 'string', enum: ['open', 'shipped'] });

    const get = byId(endpoints, 'getOrder');
    expect(get.parameters).toEqual([
      { name: 'orderId', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } },
    ]);
    expect(get.security).toEqual([{ basicAuth: [] }]);
    expect((parsed.resolved.components as any).securitySchemes.basicAuth).toMatchObject({
      type: 'http',
      scheme: 'basic',
    });

    const attach = byId(endpoints, 'attachFile');
    expect(attach.requestBody).toMatchObject({
      required: true,
      contentType: 'multipart/form-data',
      schema: {
        type: 'object',
        required: ['file'],
        properties: { file: { type: 'string', format: 'binary' }, note: { type: 'string' } },
      },
    });
    expect(attach.parameters.map((param) => param.name)).toEqual(['orderId']);
  });

  it('lists every problem of a broken document in one INVALID_OPENAPI error', () => {
    const problems = problemsOf(fixture('broken-many.yaml'));
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: '#/info/title', message: 'info.title is missing' },
        expect.objectContaining({
          path: '#/paths/~1things/get/parameters/0',
          message: expect.stringContaining('#/components/parameters/Missing'),
        }),
        expect.objectContaining({
          path: '#/paths/~1things/get/responses/200/content/application~1json/schema',
          message: expect.stringContaining('#/components/schemas/Thing'),
        }),
        expect.objectContaining({
          path: '#/paths/~1things/get/parameters/1',
          message: expect.stringContaining('"in" must be one of'),
        }),
        expect.objectContaining({
          path: '#/paths/~1other/get/operationId',
          message: expect.stringContaining('listThings'),
        }),
      ]),
    );
    expect(problems).toHaveLength(5);
  });

  it('rejects what is not OpenAPI: other YAML, unknown versions, missing paths, unreadable text', () => {
    expect(problemsOf('name: a docker compose file\nservices: {}\n')).toEqual([
      { path: '#', message: expect.stringContaining('not an OpenAPI document') },
    ]);
    expect(problemsOf('{"openapi": "4.0.0", "info": {"title": "x", "version": "1"}, "paths": {}}')).toEqual([
      { path: '#/openapi', message: expect.stringContaining('unsupported OpenAPI version "4.0.0"') },
    ]);
    expect(problemsOf('{"swagger": "1.2", "info": {"title": "x"}, "paths": {}}')).toEqual([
      { path: '#/swagger', message: expect.stringContaining('only 2.0') },
    ]);
    expect(problemsOf('openapi: 3.0.0\ninfo:\n  title: t\n  version: "1"\n')).toEqual([
      { path: '#/paths', message: 'paths is missing' },
    ]);
    expect(problemsOf('{"openapi": ')).toEqual([
      { path: '#', message: expect.stringContaining('cannot be read as JSON or YAML') },
    ]);
    expect(problemsOf('- a list\n- not a document\n')).toHaveLength(1);
  });

  it('reports references outside the document instead of fetching them', () => {
    const text = JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'x', version: '1' },
      paths: { '/a': { get: { responses: { '200': { $ref: 'https://example.com/shared.yaml#/Ok' } } } } },
    });
    expect(problemsOf(text)).toEqual([
      {
        path: '#/paths/~1a/get/responses/200',
        message: expect.stringContaining('external reference "https://example.com/shared.yaml#/Ok"'),
      },
    ]);
  });

  it('reads JSON saved with a byte-order mark, and points at the line of a YAML syntax error', () => {
    expect(parseOpenApiDocument('\uFEFF' + fixture('swagger2-shop.json')).title).toBe('Shop');
    expect(problemsOf('openapi: 3.0.0\ninfo:\n  title: [unclosed\npaths: {}\n')).toEqual([
      { path: '#', message: expect.stringMatching(/cannot be read as JSON or YAML: .*line \d+/) },
    ]);
  });

  it('derives ids from method and path as stable slugs', async () => {
    const { endpointIdFor } = await import('../src/index.js');
    expect(endpointIdFor('get', '/users/{user_id}/playlists')).toBe('get_users_user_id_playlists');
    expect(endpointIdFor('DELETE', '/v1/items/{id}.json')).toBe('delete_v1_items_id_json');
  });
});

describe('endpoint ids', () => {
  it('numbers generated ids that collide in document order, past an id an operation already took', () => {
    const ok = { responses: { '200': { description: 'ok' } } };
    const text = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'Ids', version: '1' },
      paths: {
        '/taken': { get: { ...ok, operationId: 'get_a_b_3' } },
        '/a-b': { get: ok },
        '/a_b': { get: ok },
        '/a.b': { get: ok },
        '/a~b': { get: ok, post: ok },
      },
    });
    expect(extractEndpoints(parseOpenApiDocument(text).resolved).map((endpoint) => endpoint.id)).toEqual([
      'get_a_b_3',
      'get_a_b',
      'get_a_b_2',
      'get_a_b_4',
      'get_a_b_5',
      'post_a_b',
    ]);
  });
});

describe('references in extensions and examples', () => {
  it('leaves $refs inside x- extensions and examples alone, but resolves a property named like one', () => {
    const text = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'x', version: '1' },
      'x-policies': { $ref: '../policies.yaml' },
      paths: {
        '/a': {
          get: {
            'x-rate-limit': { $ref: '#/nowhere' },
            responses: {
              '200': {
                description: 'ok',
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      properties: {
                        example: { $ref: '#/components/schemas/Name' },
                        'x-tag': { $ref: '#/components/schemas/Name' },
                      },
                    },
                    example: { $ref: 'just data' },
                  },
                },
              },
            },
          },
        },
      },
      components: { schemas: { Name: { type: 'string' } } },
    });
    const parsed = parseOpenApiDocument(text);
    const [endpoint] = extractEndpoints(parsed.resolved);
    expect(endpoint?.responses['200']?.schema).toEqual({
      type: 'object',
      properties: { example: { type: 'string' }, 'x-tag': { type: 'string' } },
    });
    expect((parsed.resolved['x-policies'] as { $ref: string }).$ref).toBe('../policies.yaml');
  });
});
