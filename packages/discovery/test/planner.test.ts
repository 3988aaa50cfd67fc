import { createNodeRegistry, validateFlow } from '@svc/engine';
import { describe, expect, it } from 'vitest';
import {
  buildPlannerIndex,
  extractEndpoints,
  parseOpenApiDocument,
  planRoadmap,
  planRoadmapWithModel,
  scaffoldFlow,
} from '../src/index.js';
import { fixtureEndpoints } from './helpers/roadmaps.js';
import { route } from './helpers/plan-on-spec.js';

const shop = fixtureEndpoints('shop.openapi.yaml');
const spotify = fixtureEndpoints('spotify-subset.json');
const shopIndex = buildPlannerIndex(shop);
const spotifyIndex = buildPlannerIndex(spotify);

describe('planRoadmap', () => {
  it('adds the producer a consumer needs: the current user before creating their playlist', () => {
    const roadmap = planRoadmap('create a playlist named "Focus"', spotifyIndex);
    expect(roadmap.steps.map(route)).toEqual(['GET /me', 'POST /users/{user_id}/playlists']);
    expect(roadmap.steps.map((step) => step.role)).toEqual(['producer', 'requested']);
    expect(roadmap.bindings).toEqual([
      expect.objectContaining({
        expression: '{{ResponseBinding.GetCurrentUsersProfile.body.id}}',
        to: { step: 'CreatePlaylist', in: 'path', name: 'user_id' },
      }),
    ]);
    // The quoted name is the value the requirement gives for the body's required `name`.
    expect(roadmap.inputs).toEqual([expect.objectContaining({ name: 'name', example: 'Focus', required: true })]);
    expect(roadmap.actions[0]?.candidates[0]?.path).toBe('/users/{user_id}/playlists');
    expect(roadmap.decidedBy).toBe('scores');
  });

  it('takes the name a requirement gives without quotes, and the value of an optional field it sets', () => {
    expect(planRoadmap('create a playlist for me named Focus', spotifyIndex).inputs).toEqual([
      expect.objectContaining({ name: 'name', example: 'Focus' }),
    ]);
    const named = planRoadmap('Create a new playlist and name it Quiet', spotifyIndex);
    // `name it Quiet` names what the first clause creates; it is not an action of its own.
    expect(named.steps.map(route)).toEqual(['GET /me', 'POST /users/{user_id}/playlists']);
    expect(named.inputs).toEqual([expect.objectContaining({ name: 'name', example: 'Quiet' })]);
  });

  it('orders a chain by its bindings: a new customer, their order, its shipment', () => {
    const roadmap = planRoadmap('create an order for a new customer, then ship it', shopIndex);
    expect(roadmap.steps.map(route)).toEqual(['POST /customers', 'POST /orders', 'POST /orders/{orderId}/shipments']);
    const byTarget = Object.fromEntries(
      roadmap.bindings.map((binding) => [`${binding.to.step}.${binding.to.name}`, binding.expression]),
    );
    expect(byTarget).toEqual({
      'PlaceAnOrderForACustomer.customerId': '{{ResponseBinding.CreateACustomer.body.id}}',
      'ShipAnOrder.orderId': '{{ResponseBinding.PlaceAnOrderForACustomer.body.id}}',
    });
    expect(roadmap.confidence).toBeGreaterThan(0.5);
  });

  it('is deterministic', () => {
    const requirement = 'create an order for a new customer, then ship it';
    expect(JSON.stringify(planRoadmap(requirement, buildPlannerIndex(shop)))).toBe(
      JSON.stringify(planRoadmap(requirement, shopIndex)),
    );
  });

  it('scaffolds into a flow that validates', () => {
    const roadmap = planRoadmap('create an order for a new customer, then ship it', shopIndex);
    const flow = scaffoldFlow(roadmap, shop);
    expect(validateFlow(flow, createNodeRegistry()).ok).toBe(true);
    expect(flow.nodes.map((node) => node.name)).toEqual(roadmap.steps.map((step) => step.name));
  });

  it('proposes nothing for words the catalog does not know, and says so', () => {
    const roadmap = planRoadmap('bake a sourdough loaf', shopIndex);
    expect(roadmap.steps).toEqual([]);
    expect(roadmap.actions.every((action) => action.chosen === null)).toBe(true);
    expect(roadmap.confidence).toBe(0);
    // Still the best it has, each with why, for a person or a model to choose from.
    expect(roadmap.actions[0]?.candidates.length).toBe(Math.min(5, shop.length));
    expect(roadmap.notes?.[0]).toMatch(/^low confidence/);
  });

  it('binds given endpoints in the given order without adding producers', () => {
    const roadmap = planRoadmap('', shopIndex, { endpoints: ['createOrder', 'createShipment'], addProducers: false });
    expect(roadmap.steps.map(route)).toEqual(['POST /orders', 'POST /orders/{orderId}/shipments']);
    expect(roadmap.bindings.map((binding) => binding.to.name)).toEqual(['orderId']);
  });

  it('answers ENDPOINT_NOT_FOUND for an endpoint id the catalog does not have', () => {
    expect(() => planRoadmap('', shopIndex, { endpoints: ['nope'] })).toThrow(
      expect.objectContaining({ code: 'ENDPOINT_NOT_FOUND' }),
    );
  });
});

describe('planRoadmap bindings between given endpoints', () => {
  // A clinic's booking API: open slots, a patient registered, a consent token, an appointment.
  const spec = `
openapi: 3.0.3
info: { title: Clinic, version: '1' }
paths:
  /slots/open:
    post:
      operationId: findOpenSlots
      responses:
        '200':
          description: open slots
          content:
            application/json:
              schema: { type: object, properties: { slotIds: { type: array, items: { type: string } }, visitFee: { type: number } } }
  /patients:
    post:
      operationId: registerPatient
      responses:
        '201':
          description: registered
          content:
            application/json:
              schema: { type: object, properties: { links: { type: object, properties: { self: { type: string } } } } }
  /consent:
    get:
      operationId: requestConsent
      description: Sends the patient back with a signed token.
      responses: { '200': { description: ok } }
  /appointments:
    post:
      operationId: bookAppointment
      description: The token is the one the request consent endpoint hands out.
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [visitFee]
              properties:
                newPatient: { type: string }
                slots: { type: array, items: { type: string } }
                visitFee: { type: number }
                token: { type: string }
                limit: { type: integer }
      responses: { '202': { description: accepted } }
`;
  const endpoints = extractEndpoints(parseOpenApiDocument(spec).resolved).map((endpoint) => ({
    ...endpoint,
    specId: 'clinic',
  }));
  const roadmap = planRoadmap('', buildPlannerIndex(endpoints), {
    endpoints: ['findOpenSlots', 'registerPatient', 'requestConsent', 'bookAppointment'],
    addProducers: false,
  });
  const into = (name: string) => roadmap.bindings.find((binding) => binding.to.name === name);

  it('feeds a field from the same specific name, or from a list of its keys', () => {
    expect(into('visitFee')?.expression).toBe('{{ResponseBinding.FindOpenSlots.body.visitFee}}');
    expect(into('slots')?.expression).toBe('{{ResponseBinding.FindOpenSlots.body.slotIds}}');
  });

  it("feeds a field naming a created resource from that resource's self link", () => {
    expect(into('newPatient')?.expression).toBe('{{ResponseBinding.RegisterPatient.body.links.self}}');
  });

  it('binds a value the description says comes from an earlier endpoint, with a low confidence', () => {
    expect(into('token')).toMatchObject({ from: { step: 'RequestConsent' }, confidence: 0.4 });
  });

  it('does not bind paging and metadata names', () => {
    expect(into('limit')).toBeUndefined();
  });
});

describe('planRoadmapWithModel', () => {
  const requirement = 'create a playlist named "Focus"';

  it("re-plans with the model's choice among the ranked candidates", async () => {
    const base = planRoadmap(requirement, spotifyIndex);
    const runnerUp = base.actions[0]!.candidates[1]!;
    const prompts: string[] = [];
    const roadmap = await planRoadmapWithModel(requirement, spotifyIndex, async (prompt) => {
      prompts.push(prompt.messages[0]!.content);
      return '```json\n{"choices":[{"action":0,"candidate":1}]}\n```';
    });
    expect(prompts[0]).toContain('Action 0: "create a playlist named "Focus""');
    expect(roadmap.decidedBy).toBe('sampling');
    expect(roadmap.steps.find((step) => step.role === 'requested')?.endpointId).toBe(runnerUp.endpointId);
  });

  it('keeps the scores when the model answers nothing usable or cannot be asked, and says so', async () => {
    const garbled = await planRoadmapWithModel(requirement, spotifyIndex, async () => 'I would pick the second one.');
    expect(garbled.decidedBy).toBe('scores');
    expect(garbled.notes).toContain('the model answered no usable choices; the scores decided');
    expect(garbled.steps.map(route)).toEqual(planRoadmap(requirement, spotifyIndex).steps.map(route));
    const failing = await planRoadmapWithModel(requirement, spotifyIndex, async () => {
      throw new Error('sampling refused');
    });
    expect(failing.notes?.some((note) => note.includes('sampling refused'))).toBe(true);
  });
});
