import { isSvcError } from '@svc/engine';

/** A failure the command reports as `svc: CODE: message`: exit 2 for bad input, else 1. */
export function reportFailure(error: unknown): number {
  if (!isSvcError(error)) throw error;
  process.stderr.write(`svc: ${error.code}: ${error.message}\n`);
  return error.code === 'VALIDATION_ERROR' ? 2 : 1;
}
