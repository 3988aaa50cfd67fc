import { webhookConfigSchema, type WebhookConfig } from '../model/configs/webhook-config.js';
import { webhookScripts } from '../model/node-scripts.js';
import type { NodeTypeDefinition } from './types.js';
import { executeWebhookTrigger } from './webhook-trigger.js';
import { executeWebhookWait } from './webhook-wait.js';

/**
 * `component-webhook`: `trigger` mode is the flow's public entry, its output the request that
 * started the run; `wait` mode pauses the branch until a verified callback arrives.
 */
export const webhookNode: NodeTypeDefinition<WebhookConfig> = {
  type: 'component-webhook',
  description:
    'Webhook. mode "trigger": the flow starts on POST /webhooks/trigger/{path}, output = that request (body, headers). ' +
    'mode "wait": pause until a verified POST /webhooks/callback/{token} (send {{<Node>.callbackUrl}} upstream) or timeoutMinutes (default 15) pass.',
  configSchema: webhookConfigSchema,
  outputHandles: (config) => (config.mode === 'wait' ? ['out', 'error'] : ['out']),
  scripts: webhookScripts,
  execute: (context) =>
    context.config.mode === 'trigger' ? executeWebhookTrigger(context) : executeWebhookWait(context),
};
