import { createNodeRegistry, validateFlow } from '@svc/engine';
import { describe, expect, it } from 'vitest';
import { buildPlannerIndex, planRoadmap, scaffoldFlow } from '../src/index.js';
import { fixtureEndpoints } from './helpers/roadmaps.js';

const shop = fixtureEndpoints('shop.openapi.yaml');
const spotify = fixtureEndpoints('spotify-subset.json');
const shopIndex = buildPlannerIndex(shop);
const spotifyIndex = buildPlannerIndex(spotify);

const route = (step: { method: string; path: string }): string => `${step.method} ${step.path}`;

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

  it('orders a chain by its bindings: a new customer, their order, its shipment', () => {
    const roadmap = planRoadmap('create an order for a new customer, then ship it', shopIndex);
    expect(roadmap.steps.map(route)).toEqual(['POST /customers', 'POST /orders', 'POST /orders/{orderId}/shipments']);
    const byTarget = Object.fromEntries(roadmap.bindings.map((binding) => [`${binding.to.step}.${binding.to.name}`, binding.expression]));
    expect(byTarget).toEqual({
      'PlaceAnOrderForACustomer.customerId': '{{ResponseBinding.CreateACustomer.body.id}}',
      'ShipAnOrder.orderId': '{{ResponseBinding.PlaceAnOrderForACustomer.body.id}}',
    });
    expect(roadmap.confidence).toBeGreaterThan(0.5);
  });

  it('is deterministic', () => {
    const requirement = 'create an order for a new customer, then ship it';
    expect(JSON.stringify(planRoadmap(requirement, buildPlannerIndex(shop)))).toBe(JSON.stringify(planRoadmap(requirement, shopIndex)));
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
  });

  it('binds given endpoints in the given order without adding producers', () => {
    const roadmap = planRoadmap('', shopIndex, { endpoints: ['createOrder', 'createShipment'], addProducers: false });
    expect(roadmap.steps.map(route)).toEqual(['POST /orders', 'POST /orders/{orderId}/shipments']);
    expect(roadmap.bindings.map((binding) => binding.to.name)).toEqual(['orderId']);
  });

  it('answers ENDPOINT_NOT_FOUND for an endpoint id the catalog does not have', () => {
    expect(() => planRoadmap('', shopIndex, { endpoints: ['nope'] })).toThrow(expect.objectContaining({ code: 'ENDPOINT_NOT_FOUND' }));
  });
});
