/**
 * What reading a suite's flow files takes, and nothing else of the engine: the flow file reader
 * and the rules on the paths a suite file lists. `@svc/engine/flow-files` loads in a few
 * milliseconds, so a thread can read a suite's files while the command loads the engine.
 */
export { isSvcError } from './errors.js';
export { parseFlowText } from './model/parse-flow-text.js';
export { flowFilePathProblem, MAX_FLOW_FILE_BYTES, MAX_SUITE_FILE_BYTES } from './suites/flow-file-path.js';
