/** Flow documents the gateway tests send; they run against `examples/demo-api/server.ts`. */

/** Health, then an order created and read back through an expression. */
export function orderFlow(name = 'order-check') {
  return {
    name,
    description: 'Create an order, then read it back.',
    nodes: [
      { id: 'n1', name: 'Health', type: 'endpoint', config: { url: '{{env.baseUrl}}/health' } },
      {
        id: 'n2',
        name: 'CreateOrder',
        type: 'endpoint',
        config: {
          method: 'POST',
          url: '{{env.baseUrl}}/orders',
          body: { total: 42 },
          assertions: [{ target: 'statusCode', operator: '==', value: 201 }],
        },
      },
      {
        id: 'n3',
        name: 'ReadOrder',
        type: 'endpoint',
        config: { url: '{{env.baseUrl}}/orders/{{CreateOrder.response.body.id}}' },
      },
    ],
    connections: [
      { id: 'w1', source: 'n1', target: 'n2' },
      { id: 'w2', source: 'n2', target: 'n3' },
    ],
  };
}

/** Health, then a pause long enough to outlast a short run wait. */
export function slowFlow(name = 'slow-check', duration = '1500ms') {
  return {
    name,
    nodes: [
      { id: 'a', name: 'Health', type: 'endpoint', config: { url: '{{env.baseUrl}}/health' } },
      { id: 'b', name: 'Pause', type: 'delay', config: { duration } },
    ],
    connections: [{ id: 'w1', source: 'a', target: 'b' }],
  };
}
