import { EXECUTION_STATUSES, MAX_SUITE_CONCURRENCY, SUITE_KINDS } from '@svc/engine';
import { z } from 'zod';

/**
 * Wire schemas of the gateway's own parameters. Flow documents are not repeated here: the engine
 * validates them with its `flowDocumentSchema` and answers every problem with its path.
 */

/** The store pages at most 200 at a time; a limit outside 1..200 is an error rather than clamped. */
const limit = z.coerce.number().int().min(1).max(200).optional();

export const listFlowsQuerySchema = z.object({
  search: z.string().max(200).optional(),
  folderId: z.string().min(1).max(128).optional(),
  limit,
  cursor: z.string().min(1).max(512).optional(),
});

export const listExecutionsQuerySchema = z.object({
  limit,
  cursor: z.string().min(1).max(512).optional(),
});

/** `GET /api/gateway/executions`: the tenant's executions, newest first, optionally of one flow or status. */
export const listAllExecutionsQuerySchema = listExecutionsQuerySchema.extend({
  flowId: z.string().min(1).max(128).optional(),
  status: z.enum(EXECUTION_STATUSES).optional(),
});

export const runQuerySchema = z.object({
  waitMs: z.coerce.number().int().min(0).optional(),
});

export const runFlowBodySchema = z
  .object({
    /** An object is the run's environment; a string names a stored environment. */
    env: z.union([z.record(z.string(), z.unknown()), z.string().min(1)]).optional(),
    /** A stored environment whose values the object `env` overrides key by key. */
    environment: z.string().min(1).optional(),
    inputs: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export const listSuitesQuerySchema = z.object({
  search: z.string().max(200).optional(),
  kind: z.enum(SUITE_KINDS).optional(),
  limit,
  cursor: z.string().min(1).max(512).optional(),
});

export const runSuiteBodySchema = z
  .object({
    /** An object is the environment of every flow of the run; a string names a stored environment. */
    env: z.union([z.record(z.string(), z.unknown()), z.string().min(1)]).optional(),
    /** A stored environment whose values the object `env` overrides key by key. */
    environment: z.string().min(1).optional(),
    /** Stop starting flows after the first failure; the rest count as skipped. */
    failFast: z.boolean().optional(),
    /** Parallel suites: flows running at once (default 4). */
    concurrency: z.number().int().min(1).max(MAX_SUITE_CONCURRENCY).optional(),
  })
  .strict();

export const listSchedulesQuerySchema = z.object({
  /** `true` lists paused schedules too; by default only the active (enabled) ones. */
  all: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
  limit,
  cursor: z.string().min(1).max(512).optional(),
});

export const saveFlowQuerySchema = z.object({
  allowDuplicateName: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
});

/**
 * `POST …/flows?upsert=true`, `POST …/suites?upsert=true`: save by name (flows and suites as code).
 * The one of that name is replaced, and left as it is when nothing changed.
 */
export const upsertQuerySchema = z.object({
  upsert: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
});

export const expectedVersionSchema = z.number().int().positive();

export type RunFlowBody = z.infer<typeof runFlowBodySchema>;
