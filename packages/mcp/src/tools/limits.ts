/**
 * Bounds on what one tool call takes in. They keep a runaway or hostile caller from making the
 * server parse, store and echo back megabytes, while leaving room for any flow a person draws.
 */

/** Nodes and wires in one flow: the engine's own bounds. */
export { MAX_FLOW_CONNECTIONS, MAX_FLOW_NODES } from '@svc/engine';
/** Characters of the flow document as JSON (1 MiB). */
export const MAX_FLOW_CHARS = 1_048_576;
/**
 * Array items and object members in one call's arguments, counted before schema validation, so
 * that a huge argument is refused before anything walks it. A flow at the bounds above stays
 * well under it.
 */
export const MAX_TOOL_INPUT_ELEMENTS = 200_000;
/** Characters of one request or response body a step shows in tool output. */
export const MAX_STEP_BODY_CHARS = 4_000;
