import type { Roadmap } from '@svc/discovery/wire-schemas';
import { describe, expect, it } from 'vitest';
import { lowConfidenceNotes } from './roadmap-notes.js';

const roadmap = (overrides: Partial<Roadmap> = {}): Roadmap => ({
  requirement: 'create an order for a new customer',
  steps: [
    {
      name: 'CreateCustomer',
      endpointId: 'createCustomer',
      specId: 'demo',
      method: 'POST',
      path: '/customers',
      summary: 'Create a customer',
      reason: 'produces customerId for POST /orders',
      score: 0.9,
      role: 'producer',
    },
    {
      name: 'CreateOrder',
      endpointId: 'createOrder',
      specId: 'demo',
      method: 'POST',
      path: '/orders',
      summary: 'Create an order',
      reason: 'matches "create an order"',
      score: 0.8,
      role: 'requested',
      action: 0,
    },
  ],
  bindings: [
    {
      expression: '{{ResponseBinding.CreateCustomer.body.id}}',
      from: { step: 'CreateCustomer', source: 'body', path: 'id' },
      to: { step: 'CreateOrder', in: 'body', name: 'customerId' },
      confidence: 0.9,
      reason: 'customerId names the customer',
    },
  ],
  inputs: [],
  confidence: 0.8,
  actions: [{ phrase: 'create an order', candidates: [], chosen: 0 }],
  decidedBy: 'scores',
  ...overrides,
});

describe('lowConfidenceNotes', () => {
  it('says nothing about a confident plan', () => {
    expect(lowConfidenceNotes(roadmap())).toEqual([]);
  });

  it('names weak steps, guessed bindings, unmatched actions and inputs without a value', () => {
    const base = roadmap();
    const notes = lowConfidenceNotes(
      roadmap({
        confidence: 0.3,
        notes: ['a model could not be asked'],
        steps: [{ ...base.steps[0]!, score: 0.2 }, base.steps[1]!],
        bindings: [{ ...base.bindings[0]!, confidence: 0.4, reason: 'read from a description' }],
        actions: [...base.actions, { phrase: 'ship it by drone', candidates: [], chosen: null }],
        inputs: [
          { name: 'customerEmail', description: 'email', required: true, usedBy: [] },
          { name: 'note', description: 'note', required: true, example: 'hi', usedBy: [] },
        ],
      }),
    );
    expect(notes.map((note) => note.about)).toEqual(['plan', 'plan', 'action', 'step', 'binding', 'input']);
    expect(notes[0]!.text).toBe('a model could not be asked');
    expect(notes[1]!.text).toContain('30%');
    expect(notes[2]!.text).toContain('ship it by drone');
    expect(notes[3]!.text).toContain('CreateCustomer (POST /customers) is a weak match (20%)');
    expect(notes[4]!.text).toContain('CreateOrder body customerId ← {{ResponseBinding.CreateCustomer.body.id}}');
    expect(notes[4]!.text).toContain('read from a description');
    expect(notes[5]!.text).toContain('flowVars.customerEmail');
  });
});
