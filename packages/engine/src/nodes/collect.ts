import { SvcError } from '../errors.js';
import { collectConfigSchema, type CollectConfig } from '../model/configs/collect-config.js';
import type { NodeTypeDefinition } from './types.js';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Gathers a value in each iteration of its loop. Inside the loop it reads as the value of the
 * current iteration; after the loop, `ResponseBinding.<Collect>.body.items` holds them all.
 */
export const collectNode: NodeTypeDefinition<CollectConfig> = {
  type: 'collect',
  description:
    'Inside a loop body: gather a value (source) each iteration; after the loop read {{ResponseBinding.<Collect>.body.items}}: an array in iteration order (mode Append) or one merged object (mode Merge, later wins).',
  configSchema: collectConfigSchema,
  outputHandles: () => ['out'],
  async execute(context) {
    const value = context.resolve(context.config.source);
    if (context.config.mode === 'Merge' && !isPlainObject(value)) {
      throw new SvcError(
        'COLLECT_NOT_AN_OBJECT',
        `Merge gathers objects, but the source yields ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`,
      );
    }
    return { kind: 'completed', output: { body: value }, handles: ['out'] };
  },
  aggregate(config, outputs) {
    const values = outputs.map((output) => output.body);
    if (config.mode === 'Merge') {
      return { body: { items: Object.assign({}, ...values.filter(isPlainObject)), count: values.length } };
    }
    return { body: { items: values, count: values.length } };
  },
};
