import { TEST_CATEGORIES, type TestGenerationResult } from '@svc/discovery';
import type { PublicJob } from '../http/index.js';

function isTestGenerationResult(value: unknown): value is TestGenerationResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as TestGenerationResult).suiteId === 'string' &&
    Array.isArray((value as TestGenerationResult).flowIds)
  );
}

/** `positive 2, negative 8, boundary 3, security 2` */
export function renderCaseCounts(cases: TestGenerationResult['cases']): string {
  return TEST_CATEGORIES.map((category) => `${category} ${cases[category] ?? 0}`).join(', ');
}

/** A job in a few lines: status, what it was started with, progress, and its result or error. */
export function renderJob(job: PublicJob): string {
  const lines = [`Job ${job.id} (${job.kind}): ${job.status}`];
  const input = job.input as { endpointId?: unknown; engine?: unknown } | null;
  if (input && typeof input.endpointId === 'string')
    lines.push(`  endpoint: ${input.endpointId}${typeof input.engine === 'string' ? `  engine: ${input.engine}` : ''}`);
  if (job.progress !== null) lines.push(`  progress: ${job.progress}`);
  if (isTestGenerationResult(job.result)) {
    const result = job.result;
    lines.push(`  suite: "${result.suiteName}" (id ${result.suiteId})`);
    lines.push(`  flows: ${result.flowIds.length} (${renderCaseCounts(result.cases)})`);
  } else if (job.result !== null) {
    lines.push(`  result: ${JSON.stringify(job.result)}`);
  }
  if (job.error !== null) lines.push(`  error: ${job.error.code}: ${job.error.message}`);
  return `${lines.join('\n')}\n`;
}
