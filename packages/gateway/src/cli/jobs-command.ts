import { isSvcError } from '@svc/engine';
import type { Command } from 'commander';
import { publicJob } from '../http/index.js';
import { LOCAL_TENANT, openLocalEngine } from './local-engine.js';
import { renderJob } from './render-job.js';

/**
 * `svc jobs get <jobId> [--json]` on the embedded store: a job's status, progress, result or
 * error. Exit codes: 0 the job is Completed or still going; 1 it Failed or is not found.
 */
export async function getJobCommand(jobId: string, options: { json: boolean }): Promise<number> {
  const { engine, close } = await openLocalEngine();
  try {
    let job;
    try {
      job = publicJob(await engine.jobs.get(LOCAL_TENANT, jobId));
    } catch (error) {
      if (!isSvcError(error)) throw error;
      process.stderr.write(`svc: ${error.code}: ${error.message}\n`);
      return error.code === 'VALIDATION_ERROR' ? 2 : 1;
    }
    process.stdout.write(options.json ? `${JSON.stringify(job)}\n` : renderJob(job));
    return job.status === 'Failed' ? 1 : 0;
  } finally {
    await close();
  }
}

export function registerJobsCommands(program: Command): void {
  const jobs = program
    .command('jobs')
    .description('background jobs of the embedded store (tenant "default"), such as test generations');
  jobs
    .command('get')
    .description("print a job's status, progress, and its result or error")
    .argument('<jobId>', 'the job id (svc testgen prints it)')
    .option('--json', 'print exactly one JSON object: the job', false)
    .action(async (jobId: string, options: { json: boolean }) => {
      process.exitCode = await getJobCommand(jobId, options);
    });
}
