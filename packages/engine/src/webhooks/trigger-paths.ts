import { randomBytes } from 'node:crypto';
import type { FlowDocument } from '../model/flow-schema.js';
import type { WebhookTriggerRecord } from '../store/types.js';

export const TRIGGER_PATH_PREFIX = '/webhooks/trigger/';

/** An `auto` path: 128 random bits, URL-safe; nobody finds a flow's entry by guessing. */
export function newTriggerPath(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * The trigger paths a saved document asks for: a chosen path as written; `auto` keeps the path
 * the node was given before (so a trigger URL outlives every new version), or gets a new one.
 */
export function wantedTriggerPaths(
  flow: FlowDocument,
  held: readonly WebhookTriggerRecord[],
): { nodeId: string; path: string }[] {
  const heldByNode = new Map(held.map((trigger) => [trigger.nodeId, trigger.path]));
  const wanted: { nodeId: string; path: string }[] = [];
  for (const node of flow.nodes) {
    if (node.type !== 'component-webhook') continue;
    const config = node.config as { mode?: string; path?: string };
    if (config.mode !== 'trigger') continue;
    const chosen = config.path ?? 'auto';
    wanted.push({ nodeId: node.id, path: chosen === 'auto' ? (heldByNode.get(node.id) ?? newTriggerPath()) : chosen });
  }
  return wanted;
}
