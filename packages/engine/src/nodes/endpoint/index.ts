export { endpointNode } from './endpoint-node.js';
export type { AssertionResult } from './assertions.js';
export type { BinaryBody } from './read-response.js';
export type { RequestTrace, ResponseTrace } from './trace.js';
