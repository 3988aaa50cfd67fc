import type { WebhookConfig } from '../model/configs/webhook-config.js';
import type { NodeContext, NodeResult } from './types.js';

/** The request a webhook trigger stored on the execution it started. */
interface TriggerRequest {
  body: unknown;
  headers: Record<string, string>;
}

/**
 * Trigger mode: completes with the request that started the run (`{{ResponseBinding.<Node>.body.x}}`,
 * `{{ResponseBinding.<Node>.headers['x-id']}}`). Run by another door (REST, MCP, the command
 * line), the flow's inputs stand in for the body, so a trigger flow can be tried without a sender.
 */
export async function executeWebhookTrigger(context: NodeContext<WebhookConfig>): Promise<NodeResult> {
  const { trigger, inputs } = context.execution;
  const request =
    trigger.type === 'webhook' && typeof trigger.request === 'object' && trigger.request !== null
      ? (trigger.request as TriggerRequest)
      : { body: inputs, headers: {} };
  return {
    kind: 'completed',
    output: { body: request.body, headers: request.headers },
    handles: ['out'],
    trace: { request: { trigger: trigger.type }, response: { headers: request.headers, body: request.body } },
  };
}
