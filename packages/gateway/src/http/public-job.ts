import type { JobRecord } from '@svc/engine';

/** A job as clients read it (REST and `svc jobs get --json`): without the tenant and the lease that only this service uses. */
export function publicJob(job: JobRecord) {
  const { id, kind, status, input, progress, result, error, createdAt, startedAt, endedAt, updatedAt } = job;
  return { id, kind, status, input, progress, result, error, createdAt, startedAt, endedAt, updatedAt };
}

export type PublicJob = ReturnType<typeof publicJob>;
