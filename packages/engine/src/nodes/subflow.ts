import { subflowConfigSchema, type SubflowConfig } from '../model/configs/subflow-config.js';
import { toErrorInfo } from '../errors.js';
import type { NodeResult, NodeTypeDefinition } from './types.js';

/** How long one attempt to see the child's end waits before the wait is stored again. */
const ATTACH_MS = 5_000;

/**
 * Runs another flow as a child execution and waits for it. The child's id is stored (as a wait)
 * before anything waits on it, so a parent resumed after a crash attaches to the same child
 * instead of starting a second one.
 */
export const subflowNode: NodeTypeDefinition<SubflowConfig> = {
  type: 'subflow',
  description:
    'Run another flow of the workspace as a child execution with input parameters (read there as flowVars); its declared outputs are read here as {{ResponseBinding.<Subflow>.body.<output>}}. onFailure: halt (default), fallback (route to the error handle), continue.',
  configSchema: subflowConfigSchema,
  outputHandles: (config) => (config.onFailure === 'fallback' ? ['out', 'error'] : ['out']),
  async execute(context): Promise<NodeResult> {
    const { config } = context;
    const flowId = String(context.resolve(config.flowId));
    if (!context.resume) {
      const inputs = context.resolve(config.inputs) as Record<string, unknown>;
      let childExecutionId: string;
      try {
        childExecutionId = await context.subflows.start({
          flowId,
          inputs,
          ...(config.version === undefined ? {} : { version: config.version }),
        });
      } catch (error) {
        return failure(config, toErrorInfo(error), { flowId, inputs });
      }
      return {
        kind: 'wait',
        until: context.clock.now(),
        state: { childExecutionId },
        trace: { request: { flowId, inputs }, response: { childExecutionId, status: 'Running' } },
      };
    }
    const { childExecutionId } = context.resume.state as { childExecutionId: string };
    const child = await context.subflows.waitFor(childExecutionId, ATTACH_MS);
    const response = { childExecutionId, status: child.status, outputs: child.outputs };
    if (!child.finished)
      return { kind: 'wait', until: context.clock.now(), state: { childExecutionId }, trace: { response } };
    if (child.status === 'Completed') {
      return { kind: 'completed', output: { body: child.outputs ?? {} }, handles: ['out'], trace: { response } };
    }
    const cause = child.error ?? {
      code: child.status.toUpperCase(),
      message: `the child execution ended ${child.status}`,
    };
    return failure(
      config,
      {
        code: 'SUBFLOW_FAILED',
        message: `subflow ${flowId} (execution ${childExecutionId}) ended ${child.status}: ${cause.code}: ${cause.message}`,
      },
      response,
    );
  },
};

function failure(config: SubflowConfig, error: { code: string; message: string }, response: unknown): NodeResult {
  if (config.onFailure === 'continue') {
    return { kind: 'completed', output: { body: { error } }, handles: ['out'], trace: { response } };
  }
  return { kind: 'failed', error, output: { body: { error } }, trace: { response } };
}
