import { SvcError } from '../errors.js';
import type { WebhookConfig } from '../model/configs/webhook-config.js';
import type { NodeContext, NodeResult } from './types.js';

/** Trigger mode: completes with the request that started the run as its output. */
export async function executeWebhookTrigger(context: NodeContext<WebhookConfig>): Promise<NodeResult> {
  throw new SvcError('VALIDATION_ERROR', `webhook trigger ${context.node.name} is not runnable yet`);
}
