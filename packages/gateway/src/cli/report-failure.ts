import { isSvcError } from '@svc/engine';
import { printable } from './suite-report/printable.js';

/** A failure the command reports as `svc: CODE: message`: exit 2 for bad input, else 1. */
export function reportFailure(error: unknown): number {
  if (!isSvcError(error)) throw error;
  // A message may quote the input (a flow's name), which must not drive the terminal.
  process.stderr.write(`svc: ${error.code}: ${printable(error.message, 2_000)}\n`);
  return error.code === 'VALIDATION_ERROR' ? 2 : 1;
}
