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
    example:
      '{"items":"{{ListOrders.response.body.items}}","concurrency":1}; in the body: {{forNode.item.id}}, {{forNode.index}}',
  },
  repeat: {
    handles: 'L (the body, once per cycle), D (after the last cycle)',
    example:
      '{"count":5,"breakWhen":"Poll.response.body.status === \'COMPLETED\'"}; in the body: {{repeatNode.iteration}}',
  },
  collect: {
    handles: 'out',
    example:
      '{"mode":"Append","source":"{{GetOrder.response.body}}"}; after the loop: {{ResponseBinding.<Collect>.body.items}}',
  },
  'component-webhook': {
    handles: 'out; in wait mode also error (timeout)',
    example:
      'trigger: {"mode":"trigger","path":"auto","environment":"prod","verification":{"method":"HMAC-SHA256","header":"X-Signature","secret":"{{env.webhookSecret}}"}}, read {{ResponseBinding.<Node>.body.x}}; ' +
      'wait: {"mode":"wait","timeoutMinutes":15,"payloadSchema":{"type":"object","required":["status"]}}, send {{<Node>.callbackUrl}} from a node before it, read {{ResponseBinding.<Node>.body.status}}',
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

/**
 * The reference an assistant reads before writing a flow by hand (`svc://reference/node-types`):
 * node types with handles and config examples, the expression forms, assertions and durations.
 */
export function nodeTypesReference(registry: NodeRegistry): string {
  return [
    '# svc node types',
    '',
    describeNodeTypes(registry),
    '',
    '## Expressions',
    'Any string in a config may hold {{…}} templates that read earlier steps and variables: {{CreateOrder.response.body.id}} (a field of an upstream ' +
      "node's response body), {{CreateOrder.statusCode}}, {{ResponseBinding.CreateOrder.body.id}}, {{ResponseBinding.CreateOrder.headers['location']}}, " +
      '{{flowVars.region}}, {{env.baseUrl}}. A node may only read nodes upstream of it (wired before it). A string that is exactly one {{…}} keeps the ' +
      "value's type. {{env.x ?? 'default'}} gives a fallback.",
    '',
    '## Wires',
    'A connection joins source (node id, handle) to target (node id): {"id":"w1","source":"n1","target":"n2"}; sourceHandle defaults to "out". ' +
      'A failing endpoint takes its "error" wire when one is wired, else the execution fails. Switch cases take case-0, case-1, …, then default.',
    '',
    '## Assertions (endpoint)',
    'Operators: == != > < >= <= contains not_contains starts_with ends_with is_empty is_not_empty. Targets: statusCode, latencyMs, body, body.<path>, headers.<name>. ' +
      'An endpoint without a statusCode assertion fails on a 4xx/5xx answer.',
    '',
    '## Polling (endpoint)',
    'An endpoint that starts an asynchronous job (202 with a job id or a Location) polls its status with "polling": ' +
      '{"interval":"2s","maxDuration":"5m","request":{"method":"GET","url":"{{env.baseUrl}}/jobs/{{self.response.body.jobId}}"},' +
      '"continueWhen":[{"target":"body.status","operator":"EQUALS","values":["PENDING","IN_PROGRESS"]}],' +
      '"stopWhen":[{"target":"body.status","operator":"EQUALS","values":["COMPLETED","SUCCESS"]}]}. ' +
      "In polling.request (and only there) {{self.response.body.x}}, {{self.response.headers['location']}} and {{self.statusCode}} read the node's own submit response; " +
      'a relative URL is read against the submit URL. The node completes with the last status response as its output, and its assertions judge that response. ' +
      'Rule operators: EQUALS (any of values), NOT_EQUALS (none of them), CONTAINS, EXISTS, and the assertion operators; targets as for assertions. ' +
      'A status neither table matches fails at once with POLLING_UNEXPECTED_STATE (a FAILED job); past maxDuration it fails with POLLING_TIMEOUT; ' +
      'with only stopWhen, other statuses keep polling; with only continueWhen, the first other status completes. The error handle routes these failures.',
    '',
    '## URLs and durations',
    'A URL is absolute (http:// or https://) or starts with a template that holds the base ({{env.baseUrl}}/orders); "/orders" is refused at save. ' +
      'Durations are milliseconds or "500ms", "2s", "5m", "1h".',
  ].join('\n');
}
