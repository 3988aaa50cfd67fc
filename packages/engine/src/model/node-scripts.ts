import type { z } from 'zod';
import { repeatConfigSchema, type RepeatConfig } from './configs/repeat-config.js';
import { switchConfigSchema, type SwitchConfig } from './configs/switch-config.js';
import { webhookConfigSchema, type WebhookConfig } from './configs/webhook-config.js';

/** A JavaScript source field of a node's config: its path inside the config, and the code. */
export interface ScriptLocation {
  path: (string | number)[];
  code: string;
}

/** Switch cases in expression mode. */
export const switchScripts = (config: SwitchConfig): ScriptLocation[] =>
  config.cases.flatMap((entry, index) =>
    entry.expression === undefined ? [] : [{ path: ['cases', index, 'expression'], code: entry.expression }],
  );

/** A Repeat's `breakWhen`, unless it is a `{{…}}` template. */
export const repeatScripts = (config: RepeatConfig): ScriptLocation[] =>
  config.breakWhen === undefined || config.breakWhen.includes('{{')
    ? []
    : [{ path: ['breakWhen'], code: config.breakWhen }];

/** A webhook's pre-script verification. */
export const webhookScripts = (config: WebhookConfig): ScriptLocation[] =>
  config.verification.method === 'Pre-script' && config.verification.script !== undefined
    ? [{ path: ['verification', 'script'], code: config.verification.script }]
    : [];

interface ScriptedType<C> {
  configSchema: z.ZodType<C>;
  scripts(config: C): ScriptLocation[];
}

const scripted = <C>(configSchema: z.ZodType<C>, scripts: (config: C) => ScriptLocation[]): ScriptedType<unknown> =>
  ({ configSchema, scripts }) as ScriptedType<unknown>;

/**
 * The built-in node types whose configs hold JavaScript, for readers without the node registry
 * (the web app): the node definitions use the same functions.
 */
const SCRIPTED_TYPES: ReadonlyMap<string, ScriptedType<unknown>> = new Map([
  ['switch', scripted(switchConfigSchema, switchScripts)],
  ['repeat', scripted(repeatConfigSchema, repeatScripts)],
  ['component-webhook', scripted(webhookConfigSchema, webhookScripts)],
]);

/** The JavaScript fields of a built-in node's config; none for a config that does not parse. */
export function builtInScriptsOf(node: { type: string; config: unknown }): ScriptLocation[] {
  const type = SCRIPTED_TYPES.get(node.type);
  const parsed = type?.configSchema.safeParse(node.config);
  return parsed?.success ? type!.scripts(parsed.data) : [];
}
