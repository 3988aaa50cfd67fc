import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import {
  flowFilePathProblem,
  isSvcError,
  MAX_FLOW_FILE_BYTES,
  MAX_SUITE_FILE_BYTES,
  parseFlowText,
} from '@svc/engine/flow-files';

/** A flow file read and parsed, or why not: plain data, so that it crosses from a thread as it is. */
export interface FlowFileRead {
  absolute: string;
  /** The file's text; absent when it could not be read. */
  text?: string;
  document?: unknown;
  /** Why the file could not be read (`no such file`, `not a regular file`, too large). */
  unreadable?: string;
  /** Why the text is not a flow document: the reader's error code and message. */
  parseError?: { code: string; message: string };
}

/**
 * A file's text, read only when it is a regular file no larger than `maxBytes`: a FIFO or a device
 * would block or never end (opened without blocking, so that a FIFO cannot hold the open either),
 * and a huge file would fill memory before anything said why. Synchronous: a suite file's few
 * hundred small files are read in a few milliseconds so, a tenth of what a promise per step costs.
 */
export function readBounded(path: string, maxBytes: number): string {
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

export const unreadableReason = (error: unknown) =>
  (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;

/** A path as printed and reported: relative to the working directory when under it (CI logs link it). */
export function shownPath(absolute: string): string {
  const fromHere = relative(process.cwd(), absolute);
  return fromHere === '' || fromHere.startsWith('..') || isAbsolute(fromHere) ? absolute : fromHere;
}

/** Reads and parses one flow file; what goes wrong is returned, never thrown. */
export function readFlowFile(absolute: string): FlowFileRead {
  let text: string;
  try {
    text = readBounded(absolute, MAX_FLOW_FILE_BYTES);
  } catch (error) {
    return { absolute, unreadable: unreadableReason(error) };
  }
  try {
    return { absolute, text, document: parseFlowText(text, shownPath(absolute)) };
  } catch (error) {
    if (!isSvcError(error)) throw error;
    return { absolute, text, parseError: { code: error.code, message: error.message } };
  }
}

/**
 * Reads every flow file a suite file lists, for a thread to do ahead of the command: the paths are
 * taken from the suite file as it parses, and only those the suite file's rules allow are read. The
 * command validates the suite file itself and reads anything missing from this answer; a suite file
 * that does not parse answers nothing.
 */
export function readListedFlowFiles(suiteFile: string): FlowFileRead[] {
  let listed: unknown;
  try {
    listed = (parseFlowText(readBounded(suiteFile, MAX_SUITE_FILE_BYTES), suiteFile) as { flows?: unknown } | null)
      ?.flows;
  } catch {
    return [];
  }
  if (!Array.isArray(listed)) return [];
  const base = dirname(resolve(suiteFile));
  const absolutes = new Set<string>();
  for (const entry of listed) {
    if (typeof entry !== 'string' || flowFilePathProblem(entry) !== undefined) continue;
    absolutes.add(resolve(base, entry));
  }
  return [...absolutes].map(readFlowFile);
}
