import type { JobRecord } from '@svc/engine';
import { z } from 'zod';

/** What the tools' output schemas promise of a job; answers carry every field of `JobView`. */
export const jobOutputViewSchema = z.looseObject({
  jobId: z.string(),
  status: z.string(),
  result: z.unknown(),
  error: z.unknown(),
});

export const jobViewSchema = z.object({
  jobId: z.string(),
  kind: z.string(),
  status: z.string(),
  progress: z.string().nullable(),
  input: z.unknown(),
  result: z.unknown(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  createdAt: z.string(),
  endedAt: z.string().nullable(),
});
export type JobView = z.infer<typeof jobViewSchema>;

/** Milliseconds (the store) or an ISO string (already written out by a gateway). */
const iso = (at: number | string | null | undefined): string | null =>
  at === null || at === undefined ? null : typeof at === 'string' ? at : new Date(at).toISOString();

export function jobView(
  job: Pick<JobRecord, 'id' | 'kind' | 'status' | 'progress' | 'input' | 'result' | 'error' | 'createdAt' | 'endedAt'>,
): JobView {
  return {
    jobId: job.id,
    kind: job.kind,
    status: job.status,
    progress: job.progress,
    input: job.input,
    result: job.result,
    error: job.error === null ? null : { code: job.error.code, message: job.error.message },
    createdAt: iso(job.createdAt) ?? '',
    endedAt: iso(job.endedAt),
  };
}

export function renderJob(job: JobView): string {
  const lines = [`Job ${job.jobId} (${job.kind}): ${job.status}`];
  if (job.progress !== null && (job.status === 'Running' || job.status === 'Queued'))
    lines.push(`Progress: ${job.progress}`);
  const result = job.result as { suiteId?: string; flowIds?: string[]; cases?: Record<string, number> } | null;
  if (job.status === 'Completed' && result?.suiteId !== undefined) {
    const cases = Object.entries(result.cases ?? {})
      .map(([category, count]) => `${category} ${count}`)
      .join(', ');
    lines.push(
      `Suite ${result.suiteId}: ${result.flowIds?.length ?? 0} flow(s) (${cases}). Run it with svc_run_suite.`,
    );
  }
  if (job.error !== null) lines.push(`${job.error.code}: ${job.error.message}`);
  if (job.status === 'Running' || job.status === 'Queued') lines.push('Ask again with svc_get_job.');
  return lines.join('\n');
}
