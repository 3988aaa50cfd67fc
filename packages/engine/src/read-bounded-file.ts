import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';

/**
 * A file's text, read only when it is a regular file no larger than `maxBytes`: a FIFO or a device
 * would block or never end (opened without blocking, so that a FIFO cannot hold the open either),
 * and a huge file would fill memory before anything said why. Throws an `Error` whose message
 * says why (`not a regular file`, its size), or the system's error (`ENOENT`…). Synchronous: the
 * files read so (a suite's flows, a spec) are small, and read in a few milliseconds.
 */
export function readBoundedFile(path: string, maxBytes: number): string {
  const descriptor = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(descriptor);
    if (!stat.isFile()) throw new Error('not a regular file');
    if (stat.size > maxBytes) throw new Error(`${stat.size} bytes, more than the ${maxBytes} a file may have`);
    return readFileSync(descriptor, 'utf8');
  } finally {
    closeSync(descriptor);
  }
}

/** Why a file could not be read, in a few words: `no such file`, `not a regular file`, its size, or the system's code. */
export function unreadableReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  return code ?? (error instanceof Error ? error.message : String(error));
}
