import { delayConfigSchema, type DelayConfig } from '../model/configs/delay-config.js';
import { parseDuration } from '../model/duration.js';
import { SvcError } from '../errors.js';
import type { NodeTypeDefinition } from './types.js';

/** Maximum delay a node may ask for; longer waits belong to schedules. */
const MAX_DELAY_MS = 7 * 24 * 3_600_000;

/**
 * Pauses its branch. The wait is returned to the runtime as a due time that is stored, so a
 * delay outlives the process that started it.
 */
export const delayNode: NodeTypeDefinition<DelayConfig> = {
  type: 'delay',
  description: 'Wait for a duration ("500ms", "2s", "5m", "1h") before continuing; survives restarts.',
  configSchema: delayConfigSchema,
  outputHandles: () => ['out'],
  async execute(context) {
    if (context.resume) {
      const { until, delayMs } = context.resume.state as { until: number; delayMs: number };
      if (context.clock.now() < until) return { kind: 'wait', until, state: context.resume.state };
      return { kind: 'completed', output: { body: { delayedMs: delayMs } }, handles: ['out'] };
    }
    const raw = context.resolve(context.config.duration);
    const delayMs = parseDuration(raw);
    if (delayMs === undefined || delayMs > MAX_DELAY_MS) {
      throw new SvcError(
        'INVALID_DURATION',
        `delay duration ${JSON.stringify(raw)} is not a duration between 0 and 7 days`,
      );
    }
    if (delayMs === 0) return { kind: 'completed', output: { body: { delayedMs: 0 } }, handles: ['out'] };
    const until = context.clock.now() + delayMs;
    return { kind: 'wait', until, state: { until, delayMs } };
  },
};
