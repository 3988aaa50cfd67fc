import type { NodeRegistry } from '@svc/engine';

/** Output handles and a config example per built-in type; a type added to the registry shows its description alone. */
const GUIDE: Record<string, { handles?: string; example: string }> = {
  endpoint: {
    handles: 'out, error',
    example:
      '{"method":"POST","url":"{{env.baseUrl}}/orders","headers":{},"body":{"customerId":"{{CreateCustomer.response.body.id}}"},"timeout":"10s","retry":{"maxAttempts":3,"onStatuses":[429,503]},"assertions":[{"target":"statusCode","operator":"==","value":201}]}',
  },
  switch: {
    example:
      '{"cases":[{"label":"big","source":"{{CreateOrder.response.body.total}}","operator":">=","value":100}],"default":true}; ' +
      'expression mode: {"mode":"expression","cases":[{"label":"big","expression":"ResponseBinding.CreateOrder.body.total > 100"}]}',
  },
  variables: { handles: 'out', example: '{"set":{"orderId":"{{CreateOrder.response.body.id}}"}}' },
  delay: { handles: 'out', example: '{"duration":"2s"}' },
  for: {
    handles: 'L (the body, once per item), D (after the last item)',
    example: '{"items":"{{ListOrders.response.body.items}}","concurrency":1}; in the body: {{forNode.item.id}}, {{forNode.index}}',
  },
  repeat: {
    handles: 'L (the body, once per cycle), D (after the last cycle)',
    example: '{"count":5,"breakWhen":"Poll.response.body.status === \'COMPLETED\'"}; in the body: {{repeatNode.iteration}}',
  },
  collect: {
    handles: 'out',
    example: '{"mode":"Append","source":"{{GetOrder.response.body}}"}; after the loop: {{ResponseBinding.<Collect>.body.items}}',
  },
  subflow: {
    handles: 'out, and error with onFailure "fallback"',
    example: '{"flowId":"flw_…","inputs":{"customerId":"{{CreateCustomer.response.body.id}}"},"onFailure":"halt"}',
  },
};

/** The node types an assistant may use, one paragraph each, from the engine's registry. */
export function describeNodeTypes(registry: NodeRegistry): string {
  return [...registry.values()]
    .map((definition) => {
      const guide = GUIDE[definition.type];
      const head = `- ${definition.type}: ${definition.description}`;
      if (!guide) return head;
      return `${head}${guide.handles ? ` Handles: ${guide.handles}.` : ''} Config: ${guide.example}`;
    })
    .join('\n');
}

export function nodeTypeNames(registry: NodeRegistry): string {
  return [...registry.keys()].join(', ');
}
