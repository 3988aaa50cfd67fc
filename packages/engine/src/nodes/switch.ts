import { switchConfigSchema, type SwitchConfig } from '../model/configs/switch-config.js';
import { switchScripts } from '../model/node-scripts.js';
import { compare } from '../model/operators.js';
import type { NodeContext, NodeResult, NodeTypeDefinition } from './types.js';

function caseMatches(context: NodeContext<SwitchConfig>, index: number): Promise<boolean> | boolean {
  const entry = context.config.cases[index]!;
  if (entry.expression !== undefined) {
    return context.sandbox.evaluateBoolean(entry.expression, context.expressionGlobals());
  }
  return compare(context.resolve(entry.source), entry.operator!, context.resolve(entry.value));
}

/** Routes to the first case that matches, in order; `default` when none does. */
export const switchNode: NodeTypeDefinition<SwitchConfig> = {
  type: 'switch',
  description:
    'Branch on ordered cases (first match wins) or JavaScript boolean expressions; handles case-0…case-N and default.',
  configSchema: switchConfigSchema,
  outputHandles: (config) => [
    ...config.cases.map((_, index) => `case-${index}`),
    ...(config.default ? ['default'] : []),
  ],
  scripts: switchScripts,
  async execute(context): Promise<NodeResult> {
    const { cases } = context.config;
    for (let index = 0; index < cases.length; index += 1) {
      if (await caseMatches(context, index)) {
        const label = cases[index]!.label ?? `case-${index}`;
        return {
          kind: 'completed',
          output: { body: { matched: label, handle: `case-${index}`, caseIndex: index } },
          handles: [`case-${index}`],
          trace: { branch: label },
        };
      }
    }
    const handles = context.config.default ? ['default'] : [];
    return {
      kind: 'completed',
      output: {
        body: { matched: context.config.default ? 'default' : null, handle: handles[0] ?? null, caseIndex: null },
      },
      handles,
      trace: { branch: context.config.default ? 'default' : 'none' },
    };
  },
};
