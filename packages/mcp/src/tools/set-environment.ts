import { parseEnvironmentInput, setEnvironmentSchema, type SetEnvironmentRequest } from '@svc/engine';
import { z } from 'zod';
import { environmentView, environmentViewSchema } from './list-environments.js';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolOutput } from './tool-error.js';

// The engine's schema checks the request in full (names, limits, a key given twice); this one
// describes the fields to the client and refuses unknown keys with a suggestion.
const inputSchema = strictInput(setEnvironmentSchema.shape);

const outputSchema = toolOutput({ environment: environmentViewSchema, created: z.boolean() });

export function registerSetEnvironment(context: ToolContext): void {
  context.server.registerTool(
    'svc_set_environment',
    {
      title: 'Set environment variables',
      description:
        'Create a stored environment or set some of its variables (others are kept; unset removes keys). Tokens and passwords go in secrets: never shown again, redacted from traces.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    guarded(context, 'svc_set_environment', async (args: SetEnvironmentRequest) => {
      // Checked in full here as well: over REST the request becomes a PUT, where *** would keep a value.
      const { environment, created } = await context.api.setEnvironment(
        parseEnvironmentInput(setEnvironmentSchema, args),
      );
      const view = environmentView(environment);
      const keys = Object.keys(view.variables).map((key) =>
        view.secretKeys.includes(key) ? `${key}=***` : `${key}=${JSON.stringify(view.variables[key])}`,
      );
      const text = `${created ? 'Created' : 'Updated'} environment ${view.name} (${view.id}): ${keys.join(', ') || 'no variables'}. Run with env "${view.name}".`;
      return okResult({ environment: view, created }, text);
    }),
  );
}
