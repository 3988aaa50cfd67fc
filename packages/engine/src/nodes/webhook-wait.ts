import { SvcError } from '../errors.js';
import type { WebhookConfig } from '../model/configs/webhook-config.js';
import type { NodeContext, NodeResult } from './types.js';

/** Wait mode: pauses until a verified callback arrives or the timeout passes. */
export async function executeWebhookWait(context: NodeContext<WebhookConfig>): Promise<NodeResult> {
  throw new SvcError('VALIDATION_ERROR', `webhook wait ${context.node.name} is not runnable yet`);
}
