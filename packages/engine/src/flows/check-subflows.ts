import type { FlowDocument } from '../model/flow-schema.js';
import type { ValidationProblem } from '../model/validate-flow.js';
import type { FlowRepository } from '../store/types.js';

interface SubflowReference {
  index: number;
  flowId: string;
  inputs: Record<string, unknown>;
}

/** Subflow nodes whose child is named literally (a `{{…}}` flow id is only known at run time). */
function references(flow: Pick<FlowDocument, 'nodes'>): SubflowReference[] {
  return flow.nodes.flatMap((node, index) => {
    const { flowId, inputs } = node.config as { flowId?: unknown; inputs?: unknown };
    if (node.type !== 'subflow' || typeof flowId !== 'string' || flowId.includes('{{')) return [];
    return [
      {
        index,
        flowId,
        inputs: typeof inputs === 'object' && inputs !== null ? (inputs as Record<string, unknown>) : {},
      },
    ];
  });
}

/**
 * What can be known of a flow's subflows when it is saved: each child exists in the tenant, is
 * given the inputs it declares (and no others), and no flow reaches itself through subflows.
 */
export async function checkSubflows(
  flows: FlowRepository,
  tenantId: string,
  flow: FlowDocument,
  selfId: string | undefined,
): Promise<ValidationProblem[]> {
  const problems: ValidationProblem[] = [];
  const children = new Map<string, Awaited<ReturnType<FlowRepository['get']>>>();
  const load = async (id: string) => {
    if (!children.has(id)) children.set(id, await flows.get(tenantId, id));
    return children.get(id);
  };
  /** The chain of flow ids from `start` to `target` through stored subflows, if any. */
  const pathTo = async (start: string, target: string, seen = new Set<string>()): Promise<string[] | undefined> => {
    if (start === target) return [start];
    if (seen.has(start)) return undefined;
    seen.add(start);
    const stored = await load(start);
    if (!stored) return undefined;
    for (const reference of references(stored)) {
      const rest = await pathTo(reference.flowId, target, seen);
      if (rest) return [start, ...rest];
    }
    return undefined;
  };

  for (const reference of references(flow)) {
    const path = `nodes[${reference.index}].config`;
    const child = await load(reference.flowId);
    if (!child) {
      problems.push({
        code: 'FLOW_NOT_FOUND',
        message: `subflow "${reference.flowId}" is not a flow of this workspace`,
        path: `${path}.flowId`,
      });
      continue;
    }
    if (selfId !== undefined) {
      const cycle = await pathTo(reference.flowId, selfId);
      if (cycle) {
        const names = await Promise.all(
          cycle.map(async (id) => (id === selfId ? flow.name : ((await load(id))?.name ?? id))),
        );
        problems.push({
          code: 'SUBFLOW_RECURSION',
          message: `the flow would run itself: ${[flow.name, ...names].join(' → ')}`,
          path: `${path}.flowId`,
        });
      }
    }
    const declared = child.inputs;
    for (const name of Object.keys(reference.inputs)) {
      if (!(name in declared)) {
        const known = Object.keys(declared);
        problems.push({
          code: 'UNKNOWN_INPUT',
          message: `flow "${child.name}" declares no input "${name}"${known.length > 0 ? `; its inputs: ${known.join(', ')}` : ''}`,
          path: `${path}.inputs.${name}`,
        });
      }
    }
    for (const [name, spec] of Object.entries(declared)) {
      if (spec.required && spec.default === undefined && !(name in reference.inputs)) {
        problems.push({
          code: 'MISSING_INPUT',
          message: `flow "${child.name}" needs input "${name}"`,
          path: `${path}.inputs`,
        });
      }
    }
  }
  return problems;
}
