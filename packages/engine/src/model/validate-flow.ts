import type { z } from 'zod';
import { SvcError } from '../errors.js';
import {
  checkJavaScript,
  javascriptNodeReferences,
  parseTemplate,
  templateNodeReferences,
} from '../expressions/index.js';
import { RESERVED_ROOTS, type PathExpression } from '../expressions/types.js';
import type { NodeRegistry } from '../nodes/registry.js';
import { flowDocumentSchema, NODE_NAME_PATTERN, type FlowDocument } from './flow-schema.js';
import { ancestorsOf, buildGraph, findCycle, innermostLoops, loopBodies, topologicalOrder } from './graph.js';
import { formatJsonPath, walkStrings, type JsonPath } from './walk-strings.js';
import { checkJsonShape, describeJsonShapeProblem, MAX_JSON_DEPTH } from './json-depth.js';
import type { WebhookConfig } from './configs/webhook-config.js';
import { checkPayloadSchema } from '../webhooks/payload-schema.js';
import { fromPointer } from '../webhooks/schema-walk.js';
import { PRE_SCRIPT_GLOBALS } from '../webhooks/verify-webhook.js';

/** The node type whose payload schema and Pre-script are checked here beyond its config schema. */
const WEBHOOK_TYPE = 'component-webhook';

export interface ValidationProblem {
  /** e.g. `UNKNOWN_NODE_TYPE`, `CYCLE`, `NOT_UPSTREAM`. */
  code: string;
  message: string;
  /** Where in the document, e.g. `nodes[2].config.url`. */
  path: string;
}

export type ValidationResult =
  { ok: true; flow: FlowDocument; problems: [] } | { ok: false; problems: ValidationProblem[] };

function zodProblems(error: z.ZodError, prefix: JsonPath, code: string): ValidationProblem[] {
  return error.issues.map((issue) => ({
    code,
    message: issue.message,
    path: formatJsonPath([...prefix, ...issue.path]),
  }));
}

/**
 * Checks a flow document completely and answers every problem at once, each with a code and a
 * path. A flow that validates can run: node types exist, configs parse, wires join existing
 * nodes through handles their types have, the graph is acyclic, and every expression parses and
 * reads only nodes upstream of its user.
 * @example
 * const result = validateFlow(document, createNodeRegistry());
 * if (!result.ok) console.log(result.problems); // [{ code: 'CYCLE', path: 'connections', … }]
 */
export function validateFlow(input: unknown, registry: NodeRegistry): ValidationResult {
  const shape = checkJsonShape(input, { maxDepth: MAX_JSON_DEPTH });
  if (shape !== undefined) {
    // Nothing else is checked: a value that deep is no flow, and walking it is what must not happen.
    const { path, message } = describeJsonShapeProblem(shape, 'flow');
    return { ok: false, problems: [{ code: 'TOO_DEEP', message, path: path.replace(/^flow\.?/, '') }] };
  }
  const parsed = flowDocumentSchema.safeParse(input);
  if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error, [], 'INVALID_FIELD') };
  const flow = parsed.data;
  const problems: ValidationProblem[] = [];
  const report = (code: string, message: string, path: JsonPath) =>
    problems.push({ code, message, path: formatJsonPath(path) });

  const nodesById = new Map<string, number>();
  const nodesByName = new Map<string, number>();
  const handlesById = new Map<string, string[]>();
  const scriptsByNode = new Map<number, { path: JsonPath; code: string }[]>();

  flow.nodes.forEach((node, index) => {
    if (nodesById.has(node.id))
      report('DUPLICATE_NODE_ID', `node id "${node.id}" is used by nodes[${nodesById.get(node.id)}] too`, [
        'nodes',
        index,
        'id',
      ]);
    else nodesById.set(node.id, index);

    if (!NODE_NAME_PATTERN.test(node.name)) {
      report(
        'INVALID_NODE_NAME',
        `node name "${node.name}" must start with a letter or "_" and hold only letters, digits and "_" (expressions refer to it)`,
        ['nodes', index, 'name'],
      );
    } else if (RESERVED_ROOTS.has(node.name)) {
      report('INVALID_NODE_NAME', `node name "${node.name}" is reserved in expressions`, ['nodes', index, 'name']);
    } else if (nodesByName.has(node.name)) {
      report('DUPLICATE_NODE_NAME', `node name "${node.name}" is used by nodes[${nodesByName.get(node.name)}] too`, [
        'nodes',
        index,
        'name',
      ]);
    } else {
      nodesByName.set(node.name, index);
    }

    const definition = registry.get(node.type);
    if (!definition) {
      report('UNKNOWN_NODE_TYPE', `unknown node type "${node.type}"; known types: ${[...registry.keys()].join(', ')}`, [
        'nodes',
        index,
        'type',
      ]);
      return;
    }
    const config = definition.configSchema.safeParse(node.config);
    if (!config.success) {
      problems.push(...zodProblems(config.error, ['nodes', index, 'config'], 'INVALID_CONFIG'));
      return;
    }
    if (!handlesById.has(node.id)) handlesById.set(node.id, definition.outputHandles(config.data));
    scriptsByNode.set(index, definition.scripts?.(config.data) ?? []);
    if (node.type === WEBHOOK_TYPE) {
      const schema = (config.data as WebhookConfig).payloadSchema;
      for (const problem of schema === undefined ? [] : checkPayloadSchema(schema)) {
        const inside = (fromPointer(problem.path) ?? []).map((segment) =>
          /^\d+$/.test(segment) ? Number(segment) : segment,
        );
        report('INVALID_PAYLOAD_SCHEMA', problem.message, ['nodes', index, 'config', 'payloadSchema', ...inside]);
      }
    }
    const url = (config.data as { url?: unknown }).url;
    if (typeof url === 'string' && !isAbsoluteUrl(url)) {
      report(
        'RELATIVE_URL',
        `url "${url}" is not absolute: start it with http:// or https://, or with a template that holds the base, e.g. {{env.baseUrl}}${url.startsWith('/') ? '' : '/'}${url}`,
        ['nodes', index, 'config', 'url'],
      );
    }
  });

  const wireIds = new Map<string, number>();
  const wireKeys = new Set<string>();
  flow.connections.forEach((wire, index) => {
    if (wireIds.has(wire.id))
      report('DUPLICATE_WIRE_ID', `wire id "${wire.id}" is used by connections[${wireIds.get(wire.id)}] too`, [
        'connections',
        index,
        'id',
      ]);
    else wireIds.set(wire.id, index);
    for (const end of ['source', 'target'] as const) {
      if (!nodesById.has(wire[end]))
        report('WIRE_TO_MISSING_NODE', `wire ${end} "${wire[end]}" is not a node of this flow`, [
          'connections',
          index,
          end,
        ]);
    }
    const handles = handlesById.get(wire.source);
    if (handles && !handles.includes(wire.sourceHandle)) {
      const source = flow.nodes[nodesById.get(wire.source)!]!;
      report(
        'UNKNOWN_HANDLE',
        `node "${source.name}" (${source.type}) has no handle "${wire.sourceHandle}"; its handles: ${handles.join(', ') || 'none'}`,
        ['connections', index, 'sourceHandle'],
      );
    }
    if (wire.targetHandle !== undefined && wire.targetHandle !== 'in') {
      report('UNKNOWN_HANDLE', `nodes take wires on their "in" handle, not "${wire.targetHandle}"`, [
        'connections',
        index,
        'targetHandle',
      ]);
    }
    const key = `${wire.source}\u0000${wire.sourceHandle}\u0000${wire.target}`;
    if (wireKeys.has(key))
      report(
        'DUPLICATE_WIRE',
        `a wire from "${wire.source}" (${wire.sourceHandle}) to "${wire.target}" exists already`,
        ['connections', index],
      );
    wireKeys.add(key);
  });

  const graph = buildGraph(flow.nodes, flow.connections);
  const { cyclic } = topologicalOrder(graph);
  const acyclic = cyclic.length === 0;
  if (!acyclic) {
    const cycle = findCycle(graph, cyclic);
    const names = cycle.map((id) => flow.nodes[nodesById.get(id)!]!.name);
    report(
      'CYCLE',
      `the wires form a cycle: ${[...names, names[0]].join(' → ')}; flows are acyclic (use a For or Repeat node to loop)`,
      ['connections'],
    );
  }

  // Loops: a body is everything the loop's L handle reaches, so nothing in it can be wired to
  // what follows the loop; it must be entered only from L. A node reached both from the body
  // and from outside (the loop's D side, or any node before the loop) would run in two places.
  const loopIds = flow.nodes.filter((node) => registry.get(node.type)?.loop !== undefined).map((node) => node.id);
  const bodies = acyclic ? loopBodies(graph, loopIds) : new Map<string, Set<string>>();
  const levelOf = innermostLoops(
    flow.nodes.map((node) => node.id),
    bodies,
  );
  const nameOf = (id: string) => flow.nodes[nodesById.get(id)!]!.name;
  for (const [loopId, body] of bodies) {
    flow.connections.forEach((wire, index) => {
      if (body.has(wire.source) || !body.has(wire.target) || (wire.source === loopId && wire.sourceHandle === 'L'))
        return;
      const message =
        wire.source === loopId
          ? `"${nameOf(wire.target)}" is wired from the ${wire.sourceHandle} handle of loop "${nameOf(loopId)}" and is also reached from its body (L); a node after the loop must not be wired from inside the body`
          : `"${nameOf(wire.target)}" is in the body of loop "${nameOf(loopId)}" and is wired from "${nameOf(wire.source)}" outside it; a body is entered only from its loop's L handle`;
      report('LOOP_BODY_LEAK', message, ['connections', index]);
    });
  }
  flow.nodes.forEach((node, index) => {
    if (registry.get(node.type)?.aggregate !== undefined && (levelOf.get(node.id) ?? null) === null) {
      report(
        'GATHERER_OUTSIDE_LOOP',
        `"${node.name}" (${node.type}) gathers across the iterations of a loop, so it belongs in a loop body (wired from a For or Repeat node's L handle)`,
        ['nodes', index, 'type'],
      );
    }
  });

  // A webhook trigger is where a run starts: one per flow, with nothing wired into it.
  const triggers = flow.nodes.flatMap((node, index) =>
    node.type === 'component-webhook' && (node.config as { mode?: string }).mode === 'trigger' ? [index] : [],
  );
  for (const index of triggers.slice(1)) {
    report(
      'DUPLICATE_TRIGGER',
      `"${flow.nodes[index]!.name}" is a second webhook trigger; a flow has one trigger node (its public entry)`,
      ['nodes', index, 'config', 'mode'],
    );
  }
  for (const index of triggers) {
    const node = flow.nodes[index]!;
    const wired = flow.connections.findIndex((wire) => wire.target === node.id);
    if (wired !== -1) {
      report('TRIGGER_NOT_ENTRY', `webhook trigger "${node.name}" starts the run, so no wire may lead into it`, [
        'connections',
        wired,
      ]);
    }
  }

  const ancestorMemo = new Map<string, Set<string>>();
  /**
   * What a node may read: the nodes upstream of it, and the gatherers (Collect) of a loop that
   * is upstream of it, once that loop has ended (the node is not inside the loop).
   */
  const mayRead = (userId: string, targetId: string): boolean => {
    const ancestors = ancestorsOf(graph, userId, ancestorMemo);
    if (ancestors.has(targetId)) return true;
    const targetNode = flow.nodes[nodesById.get(targetId)!]!;
    const loopId = levelOf.get(targetId) ?? null;
    return (
      registry.get(targetNode.type)?.aggregate !== undefined &&
      loopId !== null &&
      ancestors.has(loopId) &&
      !bodies.get(loopId)!.has(userId)
    );
  };
  const checkReferences = (names: string[], nodeIndex: number | undefined, path: JsonPath) => {
    for (const name of names) {
      const referenced = nodesByName.get(name);
      if (referenced === undefined) {
        report('UNKNOWN_REFERENCE', `"${name}" is not a node of this flow`, path);
        continue;
      }
      if (nodeIndex === undefined) {
        // Read when the flow ends, at its top level: a node inside a loop body has no single
        // value there; only the loop's gatherers (Collect) do.
        const target = flow.nodes[referenced]!;
        const level = levelOf.get(target.id) ?? null;
        const gathered =
          level !== null && registry.get(target.type)?.aggregate !== undefined && (levelOf.get(level) ?? null) === null;
        if (level !== null && !gathered) {
          report(
            'NOT_UPSTREAM',
            `"${name}" runs inside the body of loop "${nameOf(level)}", so it has no single value when the flow ends; gather it with a Collect node and read that`,
            path,
          );
        }
        continue;
      }
      if (!acyclic) continue;
      const user = flow.nodes[nodeIndex]!;
      const target = flow.nodes[referenced]!;
      const iterationFields = registry.get(user.type)?.loop?.iterationFields ?? [];
      const readsIteration = path[0] === 'nodes' && path[2] === 'config' && iterationFields.includes(String(path[3]));
      if (readsIteration && bodies.get(user.id)?.has(target.id)) continue;
      if (target.id === user.id) {
        report('NOT_UPSTREAM', `node "${user.name}" cannot read its own output`, path);
      } else if (!mayRead(user.id, target.id)) {
        report(
          'NOT_UPSTREAM',
          `node "${user.name}" reads "${name}", which is not upstream of it (wire "${name}" before "${user.name}")`,
          path,
        );
      }
    }
  };

  /**
   * `{{<Wait>.callbackUrl}}` of a webhook node in wait mode exists from the start of a run, so the
   * nodes that tell a job where to call back can send it before the wait: any node at the wait's
   * loop level or inside it (the URL names the wait's iteration), and the flow's outputs.
   */
  const readsCallbackUrl = (expression: PathExpression, nodeIndex: number | undefined): boolean => {
    const first = expression.segments[0];
    if (first?.kind !== 'key' || first.key !== 'callbackUrl' || expression.segments.length !== 1) return false;
    const waitIndex = nodesByName.get(expression.root);
    const wait = waitIndex === undefined ? undefined : flow.nodes[waitIndex]!;
    if (wait?.type !== 'component-webhook' || (wait.config as { mode?: string }).mode === 'trigger') return false;
    const waitLevel = levelOf.get(wait.id) ?? null;
    if (nodeIndex === undefined) return waitLevel === null;
    for (let level = levelOf.get(flow.nodes[nodeIndex]!.id) ?? null; ; level = levelOf.get(level) ?? null) {
      if (level === waitLevel) return true;
      if (level === null) return false;
    }
  };
  const checkTemplates = (
    value: unknown,
    nodeIndex: number | undefined,
    prefix: JsonPath,
    skip: ReadonlySet<string>,
  ) => {
    walkStrings(value, (text, path) => {
      if (!text.includes('{{') || skip.has(formatJsonPath(path))) return;
      try {
        const skip = (expression: PathExpression) => readsCallbackUrl(expression, nodeIndex);
        checkReferences(templateNodeReferences(parseTemplate(text), skip), nodeIndex, [...prefix, ...path]);
      } catch (error) {
        report('EXPRESSION_SYNTAX', error instanceof Error ? error.message : String(error), [...prefix, ...path]);
      }
    });
  };

  flow.nodes.forEach((node, index) => {
    const scripts = scriptsByNode.get(index);
    if (scripts === undefined) return;
    const scriptPaths = new Set(scripts.map((script) => formatJsonPath(script.path)));
    checkTemplates(node.config, index, ['nodes', index, 'config'], scriptPaths);
    for (const script of scripts) {
      const path = ['nodes', index, 'config', ...script.path];
      const syntax = checkJavaScript(script.code);
      if (!syntax.ok) {
        report('EXPRESSION_SYNTAX', `JavaScript expression: ${syntax.message} at position ${syntax.position}`, path);
        continue;
      }
      if (node.type === WEBHOOK_TYPE) {
        // A Pre-script runs before the request is accepted, over the request alone: it is given
        // headers, body, rawBody and secret, and no node's output.
        const given: readonly string[] = PRE_SCRIPT_GLOBALS;
        const names = new Set([...nodesByName.keys()].filter((name) => !given.includes(name)));
        for (const name of javascriptNodeReferences(script.code, names)) {
          report(
            'UNKNOWN_REFERENCE',
            `a pre-script reads only ${PRE_SCRIPT_GLOBALS.join(', ')}; "${name}" is not given to it`,
            path,
          );
        }
        continue;
      }
      checkReferences(javascriptNodeReferences(script.code, new Set(nodesByName.keys())), index, path);
    }
  });
  // A flow's outputs are read when it ends, so they may name any node of the flow.
  checkTemplates(flow.outputs, undefined, ['outputs'], new Set());
  checkTemplates(flow.variables, undefined, ['variables'], new Set());

  const groupIds = new Set<string>();
  flow.flowData.canvasGroups.forEach((group, index) => {
    if (groupIds.has(group.id))
      report('DUPLICATE_FRAME_ID', `frame id "${group.id}" is used twice`, ['flowData', 'canvasGroups', index, 'id']);
    groupIds.add(group.id);
    group.nodeIds.forEach((nodeId, position) => {
      if (!nodesById.has(nodeId))
        report(
          'UNKNOWN_FRAME_NODE',
          `frame "${group.title || group.id}" holds "${nodeId}", which is not a node of this flow`,
          ['flowData', 'canvasGroups', index, 'nodeIds', position],
        );
    });
  });

  return problems.length === 0 ? { ok: true, flow, problems: [] } : { ok: false, problems };
}

/**
 * A request URL must say where it goes once templates are resolved: it starts with `http://` or
 * `https://`, or with a template (`{{env.baseUrl}}/orders`), which is trusted to hold the base.
 * `/orders` or `orders/1` would be resolved against nothing and fail at run time instead.
 */
function isAbsoluteUrl(url: string): boolean {
  const text = url.trimStart();
  return text.startsWith('{{') || /^https?:\/\//i.test(text);
}

/** The validated document, or `SvcError('VALIDATION_ERROR')` carrying every problem in `details.problems`. */
export function assertValidFlow(input: unknown, registry: NodeRegistry): FlowDocument {
  const result = validateFlow(input, registry);
  if (result.ok) return result.flow;
  const shown = result.problems.slice(0, 5).map((problem) => `${problem.path}: ${problem.message}`);
  const more = result.problems.length > 5 ? ` (and ${result.problems.length - 5} more)` : '';
  throw new SvcError('VALIDATION_ERROR', `the flow does not validate: ${shown.join('; ')}${more}`, {
    details: { problems: result.problems },
  });
}
