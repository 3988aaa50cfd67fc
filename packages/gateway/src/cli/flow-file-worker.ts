/**
 * The thread that reads a suite file's flow files while `svc run suite` loads the engine (see
 * flow-file-prefetch.ts). It imports the flow file reader alone, not the engine.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readListedFlowFiles } from './flow-file-reads.js';

parentPort?.postMessage(readListedFlowFiles((workerData as { suiteFile: string }).suiteFile));
