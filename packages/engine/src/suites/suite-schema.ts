import { z } from 'zod';
import { SUITE_KINDS, SUITE_MODES } from '../store/types.js';

/** How many flows a suite may hold. */
export const MAX_SUITE_FLOWS = 500;

/**
 * A suite as a client sends it (REST body, MCP tool input, a suite file). Unknown fields are
 * refused, so a misspelt `flowIds` is an error rather than an empty suite.
 */
export const suiteDefinitionSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).default(''),
    /** `sequential` runs one flow after another in order; `parallel` runs several at a time. */
    mode: z.enum(SUITE_MODES).default('sequential'),
    flowIds: z.array(z.string().min(1).max(128)).min(1).max(MAX_SUITE_FLOWS),
    kind: z.enum(SUITE_KINDS).default('regression'),
    /** Where a generated suite came from, e.g. `{ endpointId, engine, jobId }`. */
    source: z.record(z.string(), z.unknown()).nullable().default(null),
  })
  .strict();

export type SuiteDefinitionInput = z.input<typeof suiteDefinitionSchema>;

/** How many flows of a parallel suite run at once unless a run says otherwise. */
export const DEFAULT_SUITE_CONCURRENCY = 4;
export const MAX_SUITE_CONCURRENCY = 32;

/** The options of a suite run a client may send (its environment as an object of variables). */
export const runSuiteOptionsSchema = z
  .object({
    env: z.record(z.string(), z.unknown()).optional(),
    /** Stop starting flows after the first failure; the flows not run count as skipped. */
    failFast: z.boolean().optional(),
    /** Parallel suites only: flows running at once (default 4). */
    concurrency: z.number().int().min(1).max(MAX_SUITE_CONCURRENCY).optional(),
  })
  .strict();
