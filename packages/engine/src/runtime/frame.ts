import type { NodeOutput } from '../nodes/types.js';
import type { CompiledNode } from './compile-flow.js';

export type NodeStatus = 'pending' | 'running' | 'waiting' | 'done' | 'skipped';

export interface NodeState {
  status: NodeStatus;
  attempt: number;
  handles: string[];
  output?: NodeOutput;
  /** What expressions read as `<Node>`, built once when the node is done. */
  view?: Record<string, unknown>;
  wakeAt?: number;
  /** Set while waiting on a `wait` result: the state to resume with and the step row to replace. */
  resume?: { state: unknown; stepId: string; seq: number; startedAt: number };
}

export interface LoopIteration {
  /** The loop node this frame is an iteration of. */
  entry: CompiledNode;
  /** The loop type's alias (`forNode`, `repeatNode`). */
  alias: string;
  index: number;
  /** What `<Loop>.…` reads in this iteration: `item`, `index`, `iteration`, … */
  context: Record<string, unknown>;
}

/**
 * One level of a run: the top level of the flow, or one iteration of a loop's body. Each holds
 * the state of its own nodes; expressions look through a frame to its parents, so a body reads
 * the nodes before its loop, and the nodes after a loop read what its gatherers collected.
 */
export class Frame {
  readonly states = new Map<string, NodeState>();
  /** Outputs published into this frame by loops that ended in it (gatherers such as Collect), by node name. */
  readonly exports = new Map<string, NodeOutput>();
  /** Settles when every node of the frame is done or skipped (or the run gives up on it). */
  readonly finished: Promise<void>;
  private resolveFinished!: () => void;
  private closed = false;

  constructor(
    /** `''` at the top level; `Orders[2]`, `Orders[2]/Retries[0]` in loop bodies. */
    readonly scope: string,
    /** The frame's nodes in topological order. */
    readonly nodes: readonly CompiledNode[],
    readonly parent: Frame | undefined,
    readonly loop: LoopIteration | undefined,
  ) {
    for (const entry of nodes) this.states.set(entry.node.id, { status: 'pending', attempt: 1, handles: [] });
    this.finished = new Promise((resolve) => {
      this.resolveFinished = resolve;
    });
  }

  isSettled(): boolean {
    for (const state of this.states.values()) if (state.status !== 'done' && state.status !== 'skipped') return false;
    return true;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.resolveFinished();
  }
}

export function childScope(parent: Frame, loopName: string, index: number): string {
  return `${parent.scope === '' ? '' : `${parent.scope}/`}${loopName}[${index}]`;
}

export function nodeView(output: NodeOutput): Record<string, unknown> {
  return { statusCode: output.statusCode, headers: output.headers, body: output.body, response: output };
}

/** A node is done: its output and the handles it chose are what the nodes after it read. */
export function markDone(state: NodeState, output: NodeOutput, handles: string[]): void {
  state.status = 'done';
  state.handles = handles;
  state.output = output;
  state.wakeAt = undefined;
  state.resume = undefined;
  state.view = nodeView(output);
}
