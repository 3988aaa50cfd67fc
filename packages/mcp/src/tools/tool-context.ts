import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import {
  checkJsonShape,
  describeJsonShapeProblem,
  isSvcError,
  MAX_JSON_DEPTH,
  SvcError,
  type Logger,
  type NodeRegistry,
} from '@svc/engine';
import type { SvcApi } from '../api/svc-api.js';
import { errorResult } from './tool-error.js';

export interface ToolContext {
  server: McpServer;
  api: SvcApi;
  /** Node types named in the descriptions of the flow tools. */
  nodeTypes: NodeRegistry;
  logger: Logger;
  /** Tool calls not yet answered, so that a shutdown can let them finish. */
  inFlight: Set<Promise<unknown>>;
}

/**
 * Runs a tool's work and turns any failure into an `isError` result with its code, so that a
 * miss or a broken gateway is an answer the assistant can act on and the server keeps serving.
 */
/** What the SDK hands a tool beside its arguments: the cancellation signal, `_meta.progressToken`, a way to notify. */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export function guarded<A>(
  context: ToolContext,
  tool: string,
  work: (args: A, extra: ToolExtra) => Promise<CallToolResult>,
): (args: A, extra: ToolExtra) => Promise<CallToolResult> {
  const answer = async (args: A, extra: ToolExtra): Promise<CallToolResult> => {
    try {
      // The arguments are walked by what follows: nesting past the limit stops here, with its path.
      const tooDeep = checkJsonShape(args, { maxDepth: MAX_JSON_DEPTH });
      if (tooDeep !== undefined) {
        const { path, message } = describeJsonShapeProblem(tooDeep, 'arguments');
        throw new SvcError('VALIDATION_ERROR', `${path}: ${message}`);
      }
      return await work(args, extra);
    } catch (error) {
      if (!isSvcError(error))
        context.logger.error('tool failed unexpectedly', {
          tool,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
      return errorResult(error);
    }
  };
  return (args, extra) => {
    const call = answer(args, extra);
    context.inFlight.add(call);
    void call.finally(() => context.inFlight.delete(call));
    return call;
  };
}
