import { SvcError } from '../errors.js';
import { repeatConfigSchema, type RepeatConfig } from '../model/configs/repeat-config.js';
import { repeatScripts } from '../model/node-scripts.js';
import type { NodeTypeDefinition } from './types.js';

/** Runs the body (what `L` reaches) a number of times, one cycle after another, then `D`. */
export const repeatNode: NodeTypeDefinition<RepeatConfig> = {
  type: 'repeat',
  description:
    'Repeat the nodes wired from handle L a number of times ({{<Repeat>.iteration}} from 1, .index from 0, .total, or the alias repeatNode), with an optional breakWhen expression checked after each cycle; then handle D runs.',
  configSchema: repeatConfigSchema,
  outputHandles: () => ['L', 'D'],
  scripts: repeatScripts,
  loop: {
    alias: 'repeatNode',
    iterationFields: ['breakWhen'],
    plan(context) {
      const raw = context.resolve(context.config.count);
      const count = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
      if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
        throw new SvcError(
          'INVALID_COUNT',
          `repeat count must be a whole number of 0 or more, but it is ${JSON.stringify(raw)}`,
        );
      }
      if (count > context.config.maxCount) {
        throw new SvcError(
          'INVALID_COUNT',
          `repeat count ${count} is above the limit of ${context.config.maxCount} (maxCount)`,
        );
      }
      return {
        total: count,
        concurrency: 1,
        contextAt: (index) => ({ iteration: index + 1, index, total: count }),
        ...(context.config.breakWhen === undefined ? {} : { breakWhen: context.config.breakWhen }),
      };
    },
  },
};
