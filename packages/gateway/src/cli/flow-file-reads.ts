import { dirname, isAbsolute, relative, resolve } from 'node:path';
import {
  flowFilePathProblem,
  isSvcError,
  MAX_FLOW_FILE_BYTES,
  MAX_SUITE_FILE_BYTES,
  parseFlowText,
} from '@svc/engine/flow-files';
import { readBoundedFile, unreadableReason } from '@svc/engine/bounded-file';

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

/** A path as printed and reported: relative to the working directory when under it (CI logs link it). */
export function shownPath(absolute: string): string {
  const fromHere = relative(process.cwd(), absolute);
  return fromHere === '' || fromHere.startsWith('..') || isAbsolute(fromHere) ? absolute : fromHere;
}

/** Reads and parses one flow file; what goes wrong is returned, never thrown. */
export function readFlowFile(absolute: string): FlowFileRead {
  let text: string;
  try {
    text = readBoundedFile(absolute, MAX_FLOW_FILE_BYTES);
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
    listed = (parseFlowText(readBoundedFile(suiteFile, MAX_SUITE_FILE_BYTES), suiteFile) as { flows?: unknown } | null)
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
