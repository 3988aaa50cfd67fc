import { variablesConfigSchema, type VariablesConfig } from '../model/configs/variables-config.js';
import type { NodeTypeDefinition } from './types.js';

/** Sets flow variables; later nodes read them as `flowVars.<name>`. */
export const variablesNode: NodeTypeDefinition<VariablesConfig> = {
  type: 'variables',
  description: 'Set flow variables (flowVars.<name>) from literals or expressions.',
  configSchema: variablesConfigSchema,
  outputHandles: () => ['out'],
  async execute(context) {
    const values = context.resolve(context.config.set) as Record<string, unknown>;
    return { kind: 'completed', output: { body: values }, handles: ['out'], setVariables: values };
  },
};
