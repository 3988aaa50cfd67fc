import { readFileSync } from 'node:fs';
import {
  extractEndpoints,
  parseOpenApiDocument,
  specIdFor,
  type CatalogEntry,
  type Roadmap,
  type RoadmapStep,
} from '../../src/index.js';

/** The catalog entries of a fixture spec, as the catalog answers them. */
export function fixtureEndpoints(file: string, name?: string): CatalogEntry[] {
  const text = readFileSync(new URL(`../fixtures/${file}`, import.meta.url), 'utf8');
  const parsed = parseOpenApiDocument(text, file);
  const specId = specIdFor(name ?? parsed.title);
  return extractEndpoints(parsed.resolved).map((endpoint) => ({ ...endpoint, specId }));
}

/** A roadmap step over a catalog entry, as a planner writes it. */
export function stepOf(
  name: string,
  endpoints: readonly CatalogEntry[],
  endpointId: string,
  role: RoadmapStep['role'] = 'requested',
): RoadmapStep {
  const endpoint = endpoints.find((entry) => entry.id === endpointId);
  if (endpoint === undefined) throw new Error(`no endpoint ${endpointId}`);
  return {
    name,
    endpointId,
    specId: endpoint.specId,
    method: endpoint.method,
    path: endpoint.path,
    summary: endpoint.summary,
    reason: `matches "${endpoint.summary.toLowerCase()}"`,
    score: 0.9,
    role,
  };
}

/**
 * ```
 * CreateCustomer ──out──▶ CreateOrder ──out──▶ ShipOrder ──out──▶ GetOrder
 *        body.id ─▶ body.customerId
 *                          body.id ─▶ path orderId ─────────────▶ path orderId
 * ```
 */
export function shopRoadmap(endpoints: readonly CatalogEntry[]): Roadmap {
  return {
    requirement: 'Create a customer, place an order for them, ship it from a warehouse and check the order status',
    steps: [
      stepOf('CreateCustomer', endpoints, 'createCustomer', 'producer'),
      stepOf('CreateOrder', endpoints, 'createOrder'),
      stepOf('ShipOrder', endpoints, 'createShipment'),
      stepOf('GetOrder', endpoints, 'getOrder'),
    ],
    bindings: [
      {
        expression: '{{ResponseBinding.CreateCustomer.body.id}}',
        from: { step: 'CreateCustomer', source: 'body', path: 'id' },
        to: { step: 'CreateOrder', in: 'body', name: 'customerId' },
        confidence: 0.9,
        reason: 'customerId is the id of a created customer',
      },
      {
        expression: '{{ResponseBinding.CreateOrder.body.id}}',
        from: { step: 'CreateOrder', source: 'body', path: 'id' },
        to: { step: 'ShipOrder', in: 'path', name: 'orderId' },
        confidence: 0.9,
        reason: 'orderId is the id of the order placed',
      },
      {
        expression: '{{ResponseBinding.CreateOrder.body.id}}',
        from: { step: 'CreateOrder', source: 'body', path: 'id' },
        to: { step: 'GetOrder', in: 'path', name: 'orderId' },
        confidence: 0.9,
        reason: 'orderId is the id of the order placed',
      },
    ],
    inputs: [
      {
        name: 'customerEmail',
        description: "The new customer's email address",
        required: true,
        schema: { type: 'string', format: 'email' },
        example: 'ada@example.com',
        usedBy: [{ step: 'CreateCustomer', in: 'body', name: 'email' }],
      },
      {
        name: 'sku',
        description: 'The product ordered',
        required: true,
        schema: { type: 'string' },
        usedBy: [{ step: 'CreateOrder', in: 'body', name: 'items[0].sku' }],
      },
      {
        name: 'warehouse',
        description: 'The warehouse that ships',
        required: true,
        schema: { type: 'string' },
        example: 'AMS-1',
        usedBy: [{ step: 'ShipOrder', in: 'query', name: 'warehouse' }],
      },
    ],
    confidence: 0.8,
    actions: [],
    decidedBy: 'scores',
  };
}
