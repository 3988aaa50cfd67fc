import { SvcError } from '../errors.js';
import { forConfigSchema, type ForConfig } from '../model/configs/for-config.js';
import type { NodeTypeDefinition } from './types.js';

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const text = JSON.stringify(value);
  return `${typeof value} ${text !== undefined && text.length > 60 ? `${text.slice(0, 60)}…` : text}`;
}

/** Iterates an array; the body (what `L` reaches) runs once per item, then `D`. */
export const forNode: NodeTypeDefinition<ForConfig> = {
  type: 'for',
  description:
    'Loop over an array: the nodes wired from handle L run once per item ({{<For>.item}}, .index, .total, .isFirst, .isLast, or the alias forNode), then handle D runs. Optional concurrency.',
  configSchema: forConfigSchema,
  outputHandles: () => ['L', 'D'],
  loop: {
    alias: 'forNode',
    plan(context) {
      const items = context.resolve(context.config.items);
      if (!Array.isArray(items)) {
        const source = typeof context.config.items === 'string' ? context.config.items : 'items';
        throw new SvcError(
          'LOOP_NOT_AN_ARRAY',
          `${source} must yield an array to loop over, but it is ${describe(items)}`,
        );
      }
      const total = items.length;
      return {
        total,
        concurrency: context.config.concurrency,
        contextAt: (index) => ({ item: items[index], index, total, isFirst: index === 0, isLast: index === total - 1 }),
      };
    },
  },
};
