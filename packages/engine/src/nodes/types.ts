import type { z } from 'zod';
import type { Clock } from '../clock.js';
import type { HttpClient } from '../http/types.js';
import type { FlowNode } from '../model/flow-schema.js';
import type { Redactor } from '../redaction.js';
import type { ErrorInfo, ExecutionRecord } from '../store/types.js';

/** What later nodes read as `<Node>.response` / `ResponseBinding.<Node>`. */
export interface NodeOutput {
  statusCode?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** What a step records beside its output, for the trace. */
export interface StepTrace {
  request?: unknown;
  response?: unknown;
  latencyMs?: number;
  /** Switch: label of the chosen branch. */
  branch?: string;
}

export type NodeResult =
  | {
      kind: 'completed';
      output: NodeOutput;
      /** Output handles activated, e.g. `['out']`, `['case-1']`; none means every wire out is skipped. */
      handles: string[];
      trace?: StepTrace;
      /** flowVars to set (the `variables` node). */
      setVariables?: Record<string, unknown>;
    }
  | {
      kind: 'failed';
      error: ErrorInfo;
      output?: NodeOutput;
      trace?: StepTrace;
      /** Run another attempt at this time instead of failing the node. */
      retryAt?: number;
    }
  | {
      kind: 'wait';
      /** Run the node again at this time, with `resume.state` set to `state`. */
      until: number;
      state?: unknown;
      trace?: StepTrace;
    };

/** Runs JavaScript boolean expressions in an isolated sandbox (Switch expression mode). */
export interface JsSandbox {
  /**
   * Evaluates `code` with `globals` (plain JSON data, copied in) and answers its boolean result.
   * Throws `SvcError` with `SANDBOX_TIMEOUT`, `SANDBOX_MEMORY`, `SANDBOX_ERROR` (a thrown or
   * syntax error) or `EXPRESSION_NOT_BOOLEAN`.
   */
  evaluateBoolean(code: string, globals: Record<string, unknown>): Promise<boolean>;
}

/** What a node sees of a child execution it started. */
export interface ChildExecution {
  executionId: string;
  status: string;
  finished: boolean;
  outputs: Record<string, unknown> | null;
  error: ErrorInfo | null;
}

/** Runs other flows of the tenant as child executions of this one. */
export interface SubflowRunner {
  /** Starts the child (same environment, linked as a child of this execution); answers its id. */
  start(request: { flowId: string; version?: number; inputs: Record<string, unknown> }): Promise<string>;
  /** The child as it is after at most `timeoutMs` of waiting for its end. */
  waitFor(executionId: string, timeoutMs: number): Promise<ChildExecution>;
}

/** A verified callback a webhook wait received. */
export interface ReceivedCallback {
  body: unknown;
  headers: Record<string, string>;
  receivedAt: number;
}

/** The callback of one wait: this node in this loop scope. */
export interface NodeCallback {
  /** Where the job calls back (`{{<Node>.callbackUrl}}`). */
  url: string;
  /** The verified callback, once one arrived (before the wait was reached, too). */
  received(): Promise<ReceivedCallback | undefined>;
}

export interface NodeContext<C> {
  execution: {
    id: string;
    tenantId: string;
    flowId: string;
    /** What started the run: `{ type: 'webhook', request: { body, headers } }` for a webhook trigger. */
    trigger: ExecutionRecord['trigger'];
    inputs: Record<string, unknown>;
  };
  node: FlowNode;
  /** The node's config, parsed by its schema (defaults applied), templates not yet resolved. */
  config: C;
  scope: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** Present when the node runs again after a `wait` result. */
  resume?: { state: unknown };
  /**
   * Resolves every `{{…}}` template in a value (deeply); throws `SvcError` on a missing path.
   * `roots` adds names only this node offers, e.g. `self` (its own submit response) in a polling request.
   */
  resolve(value: unknown, roots?: Readonly<Record<string, unknown>>): unknown;
  /** The data a sandboxed expression sees as globals: `ResponseBinding`, `flowVars`, node names… */
  expressionGlobals(): Record<string, unknown>;
  /** `executionId:nodeId:scope:attempt`, offered as the `Idempotency-Key` header. */
  idempotencyKey: string;
  /** Redacts secret values out of a string (URL, header value) before it is traced. */
  redact: Redactor;
  http: HttpClient;
  sandbox: JsSandbox;
  clock: Clock;
  limits: { maxResponseBodyBytes: number; maxTracedBodyBytes: number };
  signal: AbortSignal;
  subflows: SubflowRunner;
  /** This node's callback (webhook nodes in wait mode). */
  callback(): NodeCallback;
}

/** How a loop node iterates, decided when it starts. */
export interface LoopPlan {
  /** Number of iterations. */
  total: number;
  /** Iterations run at once (1: in order). */
  concurrency: number;
  /** What `<Loop>.…` and the loop's alias read in iteration `index` (`item`, `index`, `iteration`…). */
  contextAt(index: number): Record<string, unknown>;
  /**
   * Checked after each iteration, in that iteration's scope; when it holds, the loop ends. A
   * template must yield true; text without `{{` is a JavaScript boolean run in the sandbox.
   */
  breakWhen?: string;
}

export interface LoopBehaviour<C> {
  /** Name by which the innermost enclosing loop of this type is read: `forNode`, `repeatNode`. */
  alias: string;
  /** Config fields evaluated in each iteration's scope (they may read the loop's body), e.g. `breakWhen`. */
  iterationFields?: readonly string[];
  /** Plans the iterations; throws `SvcError` when the input cannot be iterated. */
  plan(context: NodeContext<C>): LoopPlan;
}

export interface NodeTypeDefinition<C = unknown> {
  type: string;
  /** One line an assistant or a person reads in tool descriptions and errors. */
  description: string;
  configSchema: z.ZodType<C>;
  /** Output handles of a node with this config (`out`, `error`, `case-0`…). */
  outputHandles(config: C): string[];
  /**
   * Config fields (paths inside config) whose templates may read `self`, the node's own response;
   * anywhere else `self` is refused at save time.
   */
  selfFields?: readonly (readonly string[])[];
  /** JavaScript source fields (path inside config, code), checked and analysed at save time. */
  scripts?(config: C): { path: (string | number)[]; code: string }[];
  /** Runs the node. Loop nodes have `loop` instead: the runtime runs their bodies. */
  execute?(context: NodeContext<C>): Promise<NodeResult>;
  /** A loop node: the nodes its `L` handle reaches run once per iteration. */
  loop?: LoopBehaviour<C>;
  /**
   * A node that gathers across the iterations of its loop: when the loop ends, this combines the
   * node's outputs (in iteration order) into the output read after the loop.
   */
  aggregate?(config: C, outputs: NodeOutput[]): NodeOutput;
}
