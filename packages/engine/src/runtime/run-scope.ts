import type { ExpressionScope } from '../expressions/types.js';
import type { ExecutionRecord } from '../store/types.js';
import type { CompiledFlow, CompiledNode } from './compile-flow.js';
import { nodeView, type Frame } from './frame.js';

/** What a run offers the expressions of its frames beside the frames themselves. */
export interface ScopeSource {
  compiled: CompiledFlow;
  record: ExecutionRecord;
  /** The environment sandboxed JavaScript sees: secret values masked. */
  sandboxEnv: Record<string, unknown>;
  /** Read on every lookup: a Variables node replaces the run's variables as it goes. */
  flowVars(): Record<string, unknown>;
  /** The callback URL of a webhook wait in the scope of the frame that holds it. */
  callbackUrl(entry: CompiledNode, scope: string): string;
}

/**
 * What `{{ … }}` expressions in a frame read: its own nodes, the iteration's loop context, what
 * loops ended in it published, and then the same of its parent frames.
 */
export function buildFrameScope(frame: Frame, source: ScopeSource): ExpressionScope {
  const { compiled, record } = source;
  const find = (name: string, binding: boolean): unknown => {
    const entry = compiled.byName.get(name);
    for (let current: Frame | undefined = frame; current; current = current.parent) {
      if (current.loop && (current.loop.entry.node.name === name || current.loop.alias === name)) {
        return binding ? undefined : current.loop.context;
      }
      const state = entry ? current.states.get(entry.node.id) : undefined;
      if (state) return binding ? state.output : state.view;
      const published = current.exports.get(name);
      if (published) return binding ? published : nodeView(published);
    }
    return undefined;
  };
  return {
    lookup: (root) => {
      if (root === 'flowVars') return source.flowVars();
      if (root === 'env') return record.env;
      if (root === 'execution') return { id: record.id, flowId: record.flowId, flowName: record.flowName };
      const found = find(root, false);
      const entry = compiled.byName.get(root);
      if (entry?.awaitsCallback !== true) return found;
      // A wait's URL exists before the wait runs: nodes before it send it to whoever calls back.
      for (let current: Frame | undefined = frame; current; current = current.parent) {
        if (current.states.has(entry.node.id)) {
          return {
            ...(found as Record<string, unknown> | undefined),
            callbackUrl: source.callbackUrl(entry, current.scope),
          };
        }
      }
      return found;
    },
    responseBinding: (name) => find(name, true),
  };
}

/** Plain data a sandboxed expression sees: `ResponseBinding`, `flowVars`, `env`, node names, loop contexts. */
export function frameGlobals(frame: Frame, source: ScopeSource): Record<string, unknown> {
  const { record } = source;
  const bindings: Record<string, unknown> = {};
  const globals: Record<string, unknown> = {
    flowVars: source.flowVars(),
    env: source.sandboxEnv,
    execution: { id: record.id, flowId: record.flowId, flowName: record.flowName },
    ResponseBinding: bindings,
  };
  // Outer frames first, so that what is nearer the expression wins.
  const chain: Frame[] = [];
  for (let current: Frame | undefined = frame; current; current = current.parent) chain.unshift(current);
  for (const current of chain) {
    for (const [name, output] of current.exports) {
      bindings[name] = output;
      globals[name] = nodeView(output);
    }
    for (const entry of current.nodes) {
      const state = current.states.get(entry.node.id)!;
      if (state.status !== 'done') continue;
      bindings[entry.node.name] = state.output;
      globals[entry.node.name] = state.view;
    }
    if (current.loop) {
      globals[current.loop.entry.node.name] = current.loop.context;
      globals[current.loop.alias] = current.loop.context;
    }
  }
  return globals;
}
