import type { EnvironmentRecord } from '@svc/engine';
import { oneLine, table } from '@svc/engine/text-table';
import { z } from 'zod';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolOutput } from './tool-error.js';

const inputSchema = strictInput({});

export const environmentViewSchema = z.looseObject({ id: z.string(), name: z.string() });

const outputSchema = toolOutput({ environments: z.array(environmentViewSchema) });

/** What the tools show of an environment: secrets are `***` already; the tenant is implied. */
export function environmentView(environment: EnvironmentRecord) {
  const { id, name, description, variables, secretKeys, updatedAt } = environment;
  return { id, name, description, variables, secretKeys, updatedAt };
}

export function registerListEnvironments(context: ToolContext): void {
  context.server.registerTool(
    'svc_list_environments',
    {
      title: 'List environments',
      description: 'List stored environments (a name is an env for svc_run_flow / svc_run_suite); secrets show as ***.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(context, 'svc_list_environments', async () => {
      const environments = (await context.api.listEnvironments()).map(environmentView);
      let text: string;
      if (environments.length === 0) text = 'No stored environments yet; svc_set_environment makes one.';
      else {
        const rows = [['NAME', 'ID', 'VARIABLES']];
        for (const one of environments) {
          const keys = Object.keys(one.variables).map((key) =>
            one.secretKeys.includes(key) ? `${key} (secret)` : key,
          );
          rows.push([one.name, one.id, oneLine(keys.join(', ') || '-', 100)]);
        }
        text = `${environments.length} environment(s):\n${table(rows)}`;
      }
      return okResult({ environments }, text);
    }),
  );
}
