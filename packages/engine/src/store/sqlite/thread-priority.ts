import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Background work of the store (folding the execution log, checkpointing) runs on threads of its
 * own at a lower priority, so that on a busy machine it gives way to the event loop and to the
 * processes the event loop talks to, and takes the CPU time they leave. Not so low that it
 * starves when the machine is busy with other work: a read waits for the fold before it.
 */
export const BACKGROUND_NICENESS = 10;

/**
 * Lowers the priority of the calling thread (not the process) to `niceness`. Linux only: there a
 * thread has an id of its own that `setpriority` takes. Elsewhere, or when refused, nothing
 * changes; the thread only runs at the process's priority.
 */
export function lowerThisThreadPriority(niceness = BACKGROUND_NICENESS): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(threadId) || threadId <= 0) return false;
    setPriority(threadId, niceness);
    return true;
  } catch {
    return false;
  }
}
