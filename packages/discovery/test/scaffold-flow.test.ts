import { createNodeRegistry, FRAME_COLORS, validateFlow, type FlowDocument, type FlowNode } from '@svc/engine';
import { describe, expect, it } from 'vitest';
import { extractEndpoints, parseOpenApiDocument, scaffoldFlow, type Roadmap } from '../src/index.js';
import { fixtureEndpoints, shopRoadmap, stepOf } from './helpers/roadmaps.js';

const shop = fixtureEndpoints('shop.openapi.yaml');
const pets = fixtureEndpoints('pet-coupons.openapi.yaml');
const spotify = fixtureEndpoints('spotify-subset.json');

function node(flow: FlowDocument, name: string): FlowNode {
  const found = flow.nodes.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no node ${name}`);
  return found;
}

function problemsOf(run: () => unknown): Array<{ code: string; path: string; message: string }> {
  try {
    run();
  } catch (error) {
    expect(error).toMatchObject({ code: 'INVALID_ROADMAP' });
    return (error as { details: { problems: Array<{ code: string; path: string; message: string }> } }).details
      .problems;
  }
  throw new Error('expected INVALID_ROADMAP');
}

describe('scaffoldFlow over the shop spec', () => {
  const flow = scaffoldFlow(shopRoadmap(shop), shop);

  it('makes one endpoint node per step, named as the step, in run order, and the flow validates', () => {
    expect(flow.nodes.map((n) => [n.id, n.name, n.type])).toEqual([
      ['n1', 'CreateCustomer', 'endpoint'],
      ['n2', 'CreateOrder', 'endpoint'],
      ['n3', 'ShipOrder', 'endpoint'],
      ['n4', 'GetOrder', 'endpoint'],
    ]);
    expect(validateFlow(flow, createNodeRegistry()).ok).toBe(true);
    expect(node(flow, 'ShipOrder').description).toBe('POST /orders/{orderId}/shipments: Ship an order');
  });

  it('starts URLs at env.baseUrl with the first absolute server URL as the default, and binds path parameters', () => {
    const base = '{{env.baseUrl ?? "https://shop.example.com/api"}}';
    expect(node(flow, 'CreateCustomer').config.url).toBe(`${base}/customers`);
    expect(node(flow, 'ShipOrder').config.url).toBe(`${base}/orders/{{ResponseBinding.CreateOrder.body.id}}/shipments`);
    expect(node(flow, 'GetOrder').config.url).toBe(`${base}/orders/{{ResponseBinding.CreateOrder.body.id}}`);
  });

  it('fills bodies from the schema and its examples, with bound fields as whole templates so they keep their type', () => {
    expect(node(flow, 'CreateCustomer').config).toMatchObject({
      method: 'POST',
      bodyType: 'json',
      body: { name: 'Ada Lovelace', email: '{{flowVars.customerEmail}}' },
    });
    expect(node(flow, 'CreateOrder').config.body).toEqual({
      customerId: '{{ResponseBinding.CreateCustomer.body.id}}',
      items: [{ sku: '{{flowVars.sku}}', quantity: 2 }],
    });
    // `express` is optional with only a default: left to the server.
    expect(node(flow, 'ShipOrder').config.body).toEqual({ carrier: 'DHL' });
    expect(node(flow, 'GetOrder').config).not.toHaveProperty('body');
  });

  it('puts query values, Content-Type and credentials from the security schemes on the request', () => {
    expect(node(flow, 'CreateOrder').config.headers).toEqual({
      Authorization: 'Bearer {{env.bearerAuthToken}}',
      'Content-Type': 'application/json',
    });
    // createShipment takes the warehouse key or a bearer token: the first alternative is used.
    expect(node(flow, 'ShipOrder').config.headers).toEqual({
      'X-Warehouse-Key': '{{env.warehouseApiKey}}',
      'Content-Type': 'application/json',
    });
    expect(node(flow, 'ShipOrder').config.query).toEqual({ warehouse: '{{flowVars.warehouse}}' });
    expect(node(flow, 'GetOrder').config.headers).toEqual({});
    expect(node(flow, 'GetOrder').config.query).toEqual({});
  });

  it('asserts the success status each endpoint declares', () => {
    expect(node(flow, 'CreateOrder').config.assertions).toEqual([
      expect.objectContaining({ target: 'statusCode', operator: '==', value: 201 }),
    ]);
    expect(node(flow, 'GetOrder').config.assertions).toEqual([
      expect.objectContaining({ target: 'statusCode', operator: '==', value: 200 }),
    ]);
    // Two 2xx statuses (200 and 202): any 2xx.
    expect(node(flow, 'ShipOrder').config.assertions).toEqual([
      expect.objectContaining({ target: 'statusCode', operator: '>=', value: 200 }),
      expect.objectContaining({ target: 'statusCode', operator: '<', value: 300 }),
    ]);
  });

  it('turns roadmap inputs into variables (their examples) and declared inputs', () => {
    expect(flow.variables).toEqual({ customerEmail: 'ada@example.com', warehouse: 'AMS-1' });
    expect(flow.inputs).toEqual({
      customerEmail: {
        type: 'string',
        required: false,
        default: 'ada@example.com',
        description: "The new customer's email address",
      },
      sku: { type: 'string', required: true, description: 'The product ordered' },
      warehouse: { type: 'string', required: false, default: 'AMS-1', description: 'The warehouse that ships' },
    });
  });

  it('wires the nodes out → next in run order', () => {
    expect(flow.connections).toEqual([
      { id: 'w1', source: 'n1', sourceHandle: 'out', target: 'n2' },
      { id: 'w2', source: 'n2', sourceHandle: 'out', target: 'n3' },
      { id: 'w3', source: 'n3', sourceHandle: 'out', target: 'n4' },
    ]);
  });

  it('lays the nodes out left to right at a fixed spacing inside one frame titled with the requirement', () => {
    const xs = flow.nodes.map((n) => n.position.x);
    const ys = new Set(flow.nodes.map((n) => n.position.y));
    expect(ys.size).toBe(1);
    const gaps = xs.slice(1).map((x, i) => x - xs[i]!);
    expect(new Set(gaps).size).toBe(1);
    expect(gaps[0]).toBeGreaterThan(0);

    expect(flow.flowData.canvasGroups).toHaveLength(1);
    const frame = flow.flowData.canvasGroups[0]!;
    expect(frame.title).toBe('Create a customer, place an order for them, ship it from a warehouse and check…');
    expect(frame.title.length).toBeLessThanOrEqual(80);
    expect(FRAME_COLORS).toContain(frame.color);
    expect(frame.nodeIds).toEqual(['n1', 'n2', 'n3', 'n4']);
    for (const n of flow.nodes) {
      expect(n.position.x).toBeGreaterThanOrEqual(frame.bounds.x);
      expect(n.position.y).toBeGreaterThanOrEqual(frame.bounds.y);
      // Nodes are drawn 220 × 80.
      expect(n.position.x + 220).toBeLessThanOrEqual(frame.bounds.x + frame.bounds.width);
      expect(n.position.y + 80).toBeLessThanOrEqual(frame.bounds.y + frame.bounds.height);
    }
  });

  it('names the flow from the requirement and lists the env variables and inputs a run needs', () => {
    expect(flow.name).toBe('create-customer-place-order-ship-from-warehouse-check');
    for (const text of [flow.description, flow.flowData.annotations[0]!.text]) {
      expect(text).toContain(
        'env.baseUrl: base URL of the API of spec "shop-api" (default https://shop.example.com/api)',
      );
      expect(text).toContain('env.bearerAuthToken: bearer token for bearerAuth');
      expect(text).toContain('env.warehouseApiKey: API key for warehouseKey, sent in the header "X-Warehouse-Key"');
      expect(text).toContain('flowVars.sku (string, required): The product ordered');
    }
    const annotation = flow.flowData.annotations[0]!;
    const frame = flow.flowData.canvasGroups[0]!;
    expect(annotation.position.y).toBeGreaterThan(frame.bounds.y + frame.bounds.height);
  });

  it('takes a name, a colour and a base URL policy from the options', () => {
    const named = scaffoldFlow(shopRoadmap(shop), shop, {
      name: 'Checkout smoke',
      color: 'Emerald',
      baseUrl: { env: 'shopUrl', default: null },
    });
    expect(named.name).toBe('Checkout smoke');
    expect(named.flowData.canvasGroups[0]!.color).toBe('Emerald');
    expect(node(named, 'CreateCustomer').config.url).toBe('{{env.shopUrl}}/customers');
    const elsewhere = scaffoldFlow(shopRoadmap(shop), shop, { baseUrl: { default: 'http://localhost:4010/' } });
    expect(node(elsewhere, 'CreateCustomer').config.url).toBe('{{env.baseUrl ?? "http://localhost:4010"}}/customers');
  });

  it('accepts the endpoints as a record by endpoint id', () => {
    const record = Object.fromEntries(shop.map((entry) => [entry.id, entry]));
    expect(scaffoldFlow(shopRoadmap(shop), record)).toEqual(flow);
  });

  it('makes a required parameter nothing fills an input, shared by the steps that need it', () => {
    const roadmap = shopRoadmap(shop);
    roadmap.bindings = roadmap.bindings.filter((binding) => binding.to.name !== 'orderId');
    roadmap.inputs = roadmap.inputs.filter((input) => input.name !== 'warehouse');
    const flow = scaffoldFlow(roadmap, shop);
    expect(node(flow, 'ShipOrder').config.url).toBe(
      '{{env.baseUrl ?? "https://shop.example.com/api"}}/orders/{{flowVars.orderId}}/shipments',
    );
    expect(node(flow, 'GetOrder').config.url).toBe(
      '{{env.baseUrl ?? "https://shop.example.com/api"}}/orders/{{flowVars.orderId}}',
    );
    expect(node(flow, 'ShipOrder').config.query).toEqual({ warehouse: '{{flowVars.warehouse}}' });
    expect(flow.inputs.orderId).toMatchObject({ type: 'number', required: true });
    expect(flow.inputs.warehouse).toMatchObject({
      type: 'string',
      required: true,
      description: expect.stringContaining('The warehouse that ships'),
    });
  });
});

describe('scaffoldFlow over other specs', () => {
  it('pet coupons: no server means {{env.baseUrl}} without a default; an api key header; a body from property examples', () => {
    const roadmap: Roadmap = {
      requirement: 'Find a coupon for my pet and use it in an order',
      steps: [
        stepOf('FindCoupon', pets, 'getPetCoupons'),
        stepOf('PlaceOrder', pets, 'placeOrder'),
        stepOf('GetOrder', pets, 'getOrderById'),
      ],
      bindings: [
        {
          expression: '{{ResponseBinding.FindCoupon.body.couponCode}}',
          from: { step: 'FindCoupon', source: 'body', path: 'couponCode' },
          to: { step: 'PlaceOrder', in: 'body', name: 'couponCode' },
          confidence: 0.8,
          reason: 'same name',
        },
        {
          expression: '',
          from: { step: 'PlaceOrder', source: 'body', path: 'id' },
          to: { step: 'GetOrder', in: 'path', name: 'orderId' },
          confidence: 0.8,
          reason: 'the order placed',
        },
      ],
      inputs: [
        {
          name: 'petId',
          description: 'The pet',
          required: true,
          schema: { type: 'integer', format: 'int64' },
          usedBy: [
            { step: 'FindCoupon', in: 'path', name: 'petId' },
            { step: 'PlaceOrder', in: 'body', name: 'petId' },
          ],
        },
      ],
      confidence: 0.7,
      actions: [],
      decidedBy: 'scores',
    };
    const flow = scaffoldFlow(roadmap, pets);
    expect(node(flow, 'FindCoupon').config).toMatchObject({
      url: '{{env.baseUrl}}/pet/{{flowVars.petId}}/coupons',
      headers: { api_key: '{{env.apiKey}}' },
    });
    expect(node(flow, 'PlaceOrder').config).toMatchObject({
      headers: { 'Content-Type': 'application/json' },
      body: {
        id: 10,
        petId: '{{flowVars.petId}}',
        quantity: 7,
        status: 'approved',
        couponCode: '{{ResponseBinding.FindCoupon.body.couponCode}}',
      },
    });
    // An empty expression is built from the binding's source.
    expect(node(flow, 'GetOrder').config.url).toBe(
      '{{env.baseUrl}}/store/order/{{ResponseBinding.PlaceOrder.body.id}}',
    );
    expect(flow.inputs.petId).toEqual({ type: 'number', required: true, description: 'The pet' });
    expect(flow.variables).toEqual({});
    expect(flow.description).toContain(
      'env.baseUrl: base URL of the API of spec "swagger-petstore-openapi-3-0" (no default: set it for every run)',
    );
    expect(flow.name).toBe('find-coupon-pet-use-in-order');
  });

  it('spotify: an oauth2 scheme becomes a bearer token from env; a body example is kept and bound fields written over it', () => {
    const roadmap: Roadmap = {
      requirement: 'Create a playlist for the current user and add tracks to it',
      steps: [
        stepOf('GetCurrentUser', spotify, 'get-current-users-profile', 'producer'),
        stepOf('CreatePlaylist', spotify, 'create-playlist'),
        stepOf('AddTracks', spotify, 'add-tracks-to-playlist'),
      ],
      bindings: [
        {
          expression: '{{ResponseBinding.GetCurrentUser.body.id}}',
          from: { step: 'GetCurrentUser', source: 'body', path: 'id' },
          to: { step: 'CreatePlaylist', in: 'path', name: 'user_id' },
          confidence: 0.9,
          reason: 'the user',
        },
        {
          expression: '{{ResponseBinding.CreatePlaylist.body.id}}',
          from: { step: 'CreatePlaylist', source: 'body', path: 'id' },
          to: { step: 'AddTracks', in: 'path', name: 'playlist_id' },
          confidence: 0.9,
          reason: 'the playlist',
        },
      ],
      inputs: [
        {
          name: 'playlistName',
          description: 'Name of the playlist',
          required: true,
          schema: { type: 'string' },
          example: 'Road trip',
          usedBy: [{ step: 'CreatePlaylist', in: 'body', name: 'name' }],
        },
        {
          name: 'trackUris',
          description: 'Tracks to add',
          required: false,
          schema: { type: 'array', items: { type: 'string' } },
          usedBy: [{ step: 'AddTracks', in: 'body', name: 'uris' }],
        },
      ],
      confidence: 0.8,
      actions: [],
      decidedBy: 'scores',
    };
    const flow = scaffoldFlow(roadmap, spotify);
    const base = '{{env.baseUrl ?? "https://api.spotify.com/v1"}}';
    expect(node(flow, 'GetCurrentUser').config).toMatchObject({
      method: 'GET',
      url: `${base}/me`,
      headers: { Authorization: 'Bearer {{env.oauth20Token}}' },
    });
    expect(node(flow, 'CreatePlaylist').config).toMatchObject({
      url: `${base}/users/{{ResponseBinding.GetCurrentUser.body.id}}/playlists`,
      body: { description: 'New playlist description', name: '{{flowVars.playlistName}}', public: 'false' },
    });
    // An optional input without a value reads as `?`: left out of the body when not given.
    expect((node(flow, 'AddTracks').config.body as Record<string, unknown>).uris).toBe('{{flowVars.trackUris?}}');
    expect(flow.inputs.trackUris).toEqual({ type: 'array', required: false, description: 'Tracks to add' });
    expect(flow.description).toContain('env.oauth20Token: access token for oauth_2_0 (oauth2)');
  });

  it('gives each spec of a roadmap its own base URL variable', () => {
    const roadmap: Roadmap = {
      requirement: 'Create a customer and read my Spotify profile',
      steps: [
        stepOf('CreateCustomer', shop, 'createCustomer'),
        stepOf('GetProfile', spotify, 'get-current-users-profile'),
      ],
      bindings: [],
      inputs: [],
      confidence: 0.5,
      actions: [],
      decidedBy: 'scores',
    };
    const flow = scaffoldFlow(roadmap, [...shop, ...spotify]);
    expect(node(flow, 'CreateCustomer').config.url).toBe('{{env.baseUrl ?? "https://shop.example.com/api"}}/customers');
    expect(node(flow, 'GetProfile').config.url).toBe('{{env.spotifyWebApiBaseUrl ?? "https://api.spotify.com/v1"}}/me');
    // No input fills the email: the skeleton has a placeholder that fits the format.
    expect(node(flow, 'CreateCustomer').config.body).toEqual({ name: 'Ada Lovelace', email: 'user@example.com' });
  });
});

describe('scaffoldFlow on every endpoint of every fixture', () => {
  it.each([
    'shop.openapi.yaml',
    'pet-coupons.openapi.yaml',
    'spotify-subset.json',
    'swagger2-shop.json',
    'cyclic-tree.yaml',
  ])('%s: a roadmap through all its endpoints becomes a valid flow', (file) => {
    const endpoints = fixtureEndpoints(file);
    const names = endpoints.map((entry, index) => `Step${index + 1}_${entry.id.replace(/[^A-Za-z0-9]+/g, '_')}`);
    const roadmap: Roadmap = {
      requirement: `Call every endpoint of ${file}`,
      steps: endpoints.map((entry, index) => stepOf(names[index]!, endpoints, entry.id)),
      bindings: [],
      inputs: [],
      confidence: 0.5,
      actions: [],
      decidedBy: 'scores',
    };
    const flow = scaffoldFlow(roadmap, endpoints);
    expect(flow.nodes).toHaveLength(endpoints.length);
    expect(validateFlow(flow, createNodeRegistry()).ok).toBe(true);
    // Every path parameter is bound to something.
    for (const n of flow.nodes) expect(String(n.config.url)).not.toMatch(/\/\{[^{]/);
  });
});

describe('scaffoldFlow on roadmaps that cannot become a flow', () => {
  it('answers every problem at once, with where in the roadmap it is', () => {
    const roadmap = shopRoadmap(shop);
    roadmap.steps[1] = { ...roadmap.steps[1]!, endpointId: 'nope' };
    roadmap.steps[3] = { ...roadmap.steps[3]!, name: 'CreateCustomer' };
    roadmap.bindings.push({
      expression: '{{ResponseBinding.ShipOrder.body.id}}',
      from: { step: 'ShipOrder', source: 'body', path: 'id' },
      to: { step: 'CreateCustomer', in: 'body', name: 'name' },
      confidence: 0.1,
      reason: 'backwards',
    });
    roadmap.inputs.push({
      name: 'other',
      description: '',
      required: false,
      usedBy: [
        { step: 'Missing', in: 'query', name: 'q' },
        { step: 'ShipOrder', in: 'path', name: 'shipmentId' },
      ],
    });
    const problems = problemsOf(() => scaffoldFlow(roadmap, shop));
    expect(problems.map((problem) => [problem.code, problem.path])).toEqual([
      ['UNKNOWN_ENDPOINT', 'steps[1].endpointId'],
      ['DUPLICATE_STEP_NAME', 'steps[3].name'],
      // GetOrder is no longer a step's name.
      ['UNKNOWN_STEP', 'bindings[2].to.step'],
      ['BINDING_ORDER', 'bindings[3]'],
      ['UNKNOWN_STEP', 'inputs[3].usedBy[0].step'],
      ['UNKNOWN_PATH_PARAMETER', 'inputs[3].usedBy[1].name'],
    ]);
  });

  it('reports an empty roadmap, a place filled twice and a bad option', () => {
    const empty = { ...shopRoadmap(shop), steps: [], bindings: [], inputs: [] };
    expect(problemsOf(() => scaffoldFlow(empty, shop)).map((problem) => problem.code)).toEqual(['EMPTY_ROADMAP']);
    const twice = shopRoadmap(shop);
    twice.inputs.push({
      name: 'orderId',
      description: '',
      required: true,
      usedBy: [{ step: 'GetOrder', in: 'path', name: 'orderId' }],
    });
    expect(problemsOf(() => scaffoldFlow(twice, shop, { color: 'Pink' as never }))).toEqual([
      expect.objectContaining({
        code: 'TARGET_FILLED_TWICE',
        path: 'inputs[3].usedBy[0]',
        message: expect.stringContaining('bindings[2]'),
      }),
      expect.objectContaining({ code: 'INVALID_OPTION', path: 'options.color' }),
    ]);
  });

  it("reports the engine's validation problems of the built flow, under flow.", () => {
    const roadmap = shopRoadmap(shop);
    roadmap.bindings[0] = { ...roadmap.bindings[0]!, expression: '{{ResponseBinding.CreateCustomer.body.id' };
    roadmap.steps[0] = { ...roadmap.steps[0]!, name: 'env' };
    roadmap.bindings[0].from.step = 'env';
    roadmap.inputs[0]!.usedBy[0]!.step = 'env';
    const problems = problemsOf(() => scaffoldFlow(roadmap, shop));
    expect(problems.map((problem) => [problem.code, problem.path])).toEqual([
      ['INVALID_NODE_NAME', 'flow.nodes[0].name'],
      ['EXPRESSION_SYNTAX', 'flow.nodes[1].config.body.customerId'],
    ]);
  });
});

describe('scaffoldFlow over a spec whose text could be read as templates or paths', () => {
  const spec = JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Hostile', version: '1' },
    servers: [{ url: 'https://api.example.com' }],
    paths: {
      '/orders': {
        post: {
          operationId: 'createOrder',
          summary: 'Create an order',
          parameters: [{ name: 'sess{{env.secretX}}', in: 'cookie', required: true, schema: { type: 'string' } }],
          requestBody: {
            required: true,
            content: {
              'application/json; x={{env.secretX}}': {
                schema: {
                  type: 'object',
                  required: ['user.name', 'a[0]'],
                  properties: { 'user.name': { type: 'string' }, 'a[0]': { type: 'string' } },
                },
              },
            },
          },
          responses: { '201': { description: 'created' } },
        },
      },
    },
  });
  const parsed = parseOpenApiDocument(spec, 'hostile.json');
  const endpoints = extractEndpoints(parsed.resolved).map((endpoint) => ({ ...endpoint, specId: 'hostile' }));
  const input = (name: string, where: 'body', field: string) => ({
    name,
    description: name,
    required: true,
    schema: { type: 'string' },
    usedBy: [{ step: 'CreateOrder', in: where, name: field }],
  });
  const flow = scaffoldFlow(
    {
      requirement: 'create an order',
      steps: [stepOf('CreateOrder', endpoints, 'createOrder')],
      bindings: [],
      inputs: [input('userName', 'body', 'user.name'), input('firstA', 'body', 'a[0]')],
      confidence: 0.8,
      actions: [],
      decidedBy: 'scores',
    } as Roadmap,
    endpoints,
  );
  const config = node(flow, 'CreateOrder').config as { headers: Record<string, string>; body: unknown };

  it('never lets the spec’s media type or parameter names run as templates in header values', () => {
    expect(config.headers['Content-Type']).toBe('application/json; x={ {env.secretX}}');
    expect(config.headers.Cookie).not.toContain('{{env');
    expect(JSON.stringify(config.headers)).not.toContain('{{env.secretX}}');
  });

  it('writes a property whose name holds a dot or brackets as that one property', () => {
    expect(config.body).toEqual({ 'user.name': '{{flowVars.userName}}', 'a[0]': '{{flowVars.firstA}}' });
  });
});
