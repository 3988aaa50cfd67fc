import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FlowFileRead } from './flow-file-reads.js';

/** Flow files read ahead, by absolute path. */
export type PrefetchedFlowFiles = ReadonlyMap<string, FlowFileRead>;

const NOTHING: PrefetchedFlowFiles = new Map();

/**
 * Starts reading and parsing the flow files a suite file lists on a thread of their own, for
 * `svc run suite` to start before it loads the engine: parsing a few hundred YAML files is then
 * done beside the loading instead of after it. Settles with what the thread read, or with nothing
 * when the thread cannot run (the modules were not built, say) or fails: the command reads what it
 * lacks itself, so the answer is the same either way, only later.
 */
export function prefetchFlowFiles(suiteFile: string): Promise<PrefetchedFlowFiles> {
  const entry = new URL('./flow-file-worker.js', import.meta.url);
  // Absent when the command line runs from its TypeScript sources (under tests).
  if (!existsSync(entry)) return Promise.resolve(NOTHING);
  return new Promise((settle) => {
    let worker: Worker;
    try {
      worker = new Worker(entry, { workerData: { suiteFile: resolve(suiteFile) } });
    } catch {
      settle(NOTHING);
      return;
    }
    worker.once('message', (reads: FlowFileRead[]) => settle(new Map(reads.map((read) => [read.absolute, read]))));
    worker.once('error', () => settle(NOTHING));
    worker.once('exit', () => settle(NOTHING));
  });
}
