import {
  createNodeRegistry,
  FRAME_COLORS,
  SvcError,
  validateFlow,
  type FlowDocument,
  type FlowNode,
  type Connection,
} from '@svc/engine';
import type { CatalogEntry } from '../catalog/catalog-service.js';
import type { Roadmap, RoadmapInput, RoadmapStep, RoadmapTarget } from '../planner/roadmap.js';
import { authFor, type EnvVariable } from './auth.js';
import { baseUrlTemplate, baseUrlVariables, type BaseUrlOptions } from './base-url.js';
import { checkRoadmap, type ScaffoldProblem } from './check-roadmap.js';
import { declareInput, exampleOf } from './flow-inputs.js';
import { annotationBelow, frameAround, nodePosition, type FrameColor } from './layout.js';
import { flowNameFor, frameTitleFor } from './names.js';
import { missingParameters, stepRequest, type MissingParameter, type PlacedValue } from './step-request.js';
import { camelIdentifier, flowVarTemplate, responseBindingTemplate } from './templates.js';

export interface ScaffoldOptions {
  /** The flow's name; default: read from the requirement (`create-customer-place-order`). */
  name?: string;
  /** Where node URLs start; default `{{env.baseUrl ?? "<the spec's first absolute server URL>"}}`. */
  baseUrl?: BaseUrlOptions;
  /** The frame's colour; default `Purple`. */
  color?: FrameColor;
}

/** The catalog endpoints a roadmap's steps call: a list (matched by spec and id) or a record by endpoint id. */
export type ScaffoldEndpoints = readonly CatalogEntry[] | Readonly<Record<string, CatalogEntry>>;

function endpointFinder(endpoints: ScaffoldEndpoints): (step: RoadmapStep) => CatalogEntry | undefined {
  if (Array.isArray(endpoints)) {
    const list = endpoints as readonly CatalogEntry[];
    return (step) => {
      const sameId = list.filter((entry) => entry.id === step.endpointId);
      return sameId.find((entry) => entry.specId === step.specId) ?? (sameId.length === 1 ? sameId[0] : undefined);
    };
  }
  const record = endpoints as Readonly<Record<string, CatalogEntry>>;
  return (step) => (Object.hasOwn(record, step.endpointId) ? record[step.endpointId] : undefined);
}

function fail(problems: ScaffoldProblem[]): never {
  const shown = problems.slice(0, 5).map((problem) => `${problem.path}: ${problem.message}`);
  const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
  throw new SvcError('INVALID_ROADMAP', `the roadmap cannot be scaffolded: ${shown.join('; ')}${more}`, {
    details: { problems },
  });
}

/** A flow input the scaffold adds for a required parameter no binding or roadmap input fills. */
interface AddedInput extends RoadmapInput {
  cookie: boolean;
}

/**
 * Names an input for a parameter nothing fills. Steps that need a parameter of the same name
 * share one input (two calls about "the order" mean the same order).
 */
function addInputsForMissing(
  steps: readonly RoadmapStep[],
  missingByStep: ReadonlyArray<readonly MissingParameter[]>,
  endpointAt: (index: number) => CatalogEntry,
  takenNames: Set<string>,
): AddedInput[] {
  const byParameter = new Map<string, AddedInput>();
  const added: AddedInput[] = [];
  missingByStep.forEach((missing, index) => {
    const step = steps[index]!;
    const endpoint = endpointAt(index);
    for (const parameter of missing) {
      const target: RoadmapTarget = {
        step: step.name,
        in: parameter.in === 'cookie' ? 'header' : parameter.in,
        name: parameter.name,
      };
      const shareKey = `${parameter.in}\u0000${parameter.name}`;
      const existing = byParameter.get(shareKey);
      if (existing !== undefined) {
        existing.usedBy.push(target);
        continue;
      }
      const base = camelIdentifier(parameter.name, 'value');
      let name = base;
      if (takenNames.has(name))
        name = `${step.name.charAt(0).toLowerCase()}${step.name.slice(1)}${base.charAt(0).toUpperCase()}${base.slice(1)}`;
      for (let n = 2; takenNames.has(name); n += 1) name = `${base}${n}`;
      takenNames.add(name);
      const described = parameter.parameter?.description?.trim().replace(/[.\s]+$/, '') ?? '';
      const about = described !== '' ? `: ${described}` : '';
      const input: AddedInput = {
        name,
        description: `${parameter.in} parameter "${parameter.name}" of ${step.name} (${endpoint.method} ${endpoint.path})${about}; no step of the plan produces it`,
        required: true,
        ...(parameter.parameter?.schema !== undefined ? { schema: parameter.parameter.schema } : {}),
        usedBy: [target],
        cookie: parameter.in === 'cookie',
      };
      byParameter.set(shareKey, input);
      added.push(input);
    }
  });
  return added;
}

function inputTemplate(input: RoadmapInput, target: RoadmapTarget): string {
  // An optional input with no value to fall back on is left out of a query, header or body when
  // not given; a path cannot leave a segment out, so there it must be given.
  const optional = !input.required && exampleOf(input) === undefined && target.in !== 'path';
  return flowVarTemplate(input.name, { optional });
}

/**
 * Turns a roadmap into a flow document: one `endpoint` node per step, in run order, named as the
 * step; wired `out` → next; laid out left to right in one frame titled with the requirement.
 * Each node's URL is the base URL template and the endpoint path with its parameters bound
 * (`{{ResponseBinding.<Step>.body.<path>}}` from a binding, `{{flowVars.<name>}}` from an input);
 * bodies are skeletons of the request schema with the bound fields in place; credentials are
 * `{{env.…}}` placeholders named after the spec's security schemes; each node asserts the
 * endpoint's declared success status. Roadmap inputs become flow `variables` (their examples)
 * and `inputs`; a required parameter that nothing fills becomes an input too. The env variables
 * and inputs a run needs are listed in the description and in a note under the frame.
 *
 * Pure: it reads the roadmap and endpoints and returns a new document. The flow is checked with
 * the engine's `validateFlow`; a roadmap that cannot become a valid flow throws
 * `SvcError('INVALID_ROADMAP')` with every problem in `details.problems`.
 *
 * @example
 * const endpoints = await Promise.all(roadmap.steps.map((step) => catalog.getEndpoint(tenantId, step.endpointId)));
 * const flow = scaffoldFlow(roadmap, endpoints);
 * await engine.flows.create(tenantId, flow);
 */
export function scaffoldFlow(
  roadmap: Roadmap,
  endpoints: ScaffoldEndpoints,
  options: ScaffoldOptions = {},
): FlowDocument {
  const find = endpointFinder(endpoints);
  const found = roadmap.steps.map((step) => find(step));
  const problems = checkRoadmap(roadmap, (index) => found[index]);
  const name = options.name === undefined ? flowNameFor(roadmap.requirement) : options.name.trim();
  if (name === '' || name.length > 200)
    problems.push({ code: 'INVALID_OPTION', message: 'a flow name has 1 to 200 characters', path: 'options.name' });
  if (options.color !== undefined && !FRAME_COLORS.includes(options.color)) {
    problems.push({
      code: 'INVALID_OPTION',
      message: `a frame colour is one of ${FRAME_COLORS.join(', ')}`,
      path: 'options.color',
    });
  }
  if (problems.length > 0) fail(problems);
  const endpointAt = (index: number) => found[index]!;
  const { steps } = roadmap;

  // What fills each place of each request.
  const values = steps.map((): PlacedValue[] => []);
  const stepIndex = new Map(steps.map((step, index) => [step.name, index]));
  const place = (target: RoadmapTarget, template: string) => {
    values[stepIndex.get(target.step)!]!.push({ in: target.in, name: target.name, template });
  };
  for (const binding of roadmap.bindings) {
    const template =
      binding.expression.trim() !== ''
        ? binding.expression.trim()
        : responseBindingTemplate(binding.from.step, binding.from.source, binding.from.path);
    place(binding.to, template);
  }
  for (const input of roadmap.inputs) for (const target of input.usedBy) place(target, inputTemplate(input, target));

  const takenNames = new Set(roadmap.inputs.map((input) => input.name));
  const added = addInputsForMissing(
    steps,
    steps.map((_, index) => missingParameters(endpointAt(index), values[index]!)),
    endpointAt,
    takenNames,
  );
  const cookies = steps.map((): Array<{ name: string; template: string }> => []);
  for (const input of added) {
    for (const target of input.usedBy) {
      if (input.cookie)
        cookies[stepIndex.get(target.step)!]!.push({ name: target.name, template: inputTemplate(input, target) });
      else place(target, inputTemplate(input, target));
    }
  }

  // Env variables: one base URL per spec, then the credentials each endpoint asks for.
  const baseVariables = baseUrlVariables(
    steps.map((step, index) => endpointAt(index).specId ?? step.specId),
    options.baseUrl,
  );
  const env = new Map<string, EnvVariable>();
  const notes: string[] = [];
  const nodes: FlowNode[] = steps.map((step, index) => {
    const endpoint = endpointAt(index);
    const variable = baseVariables.get(endpoint.specId)!;
    const base = baseUrlTemplate(endpoint, variable, options.baseUrl);
    if (!env.has(variable)) {
      const fallback = base.fallback === undefined ? 'no default: set it for every run' : `default ${base.fallback}`;
      env.set(variable, {
        name: variable,
        description: `base URL of the API of spec "${endpoint.specId}" (${fallback})`,
      });
    }
    const auth = authFor(endpoint);
    for (const variable of auth.env) if (!env.has(variable.name)) env.set(variable.name, variable);
    for (const requirement of auth.unsupported)
      notes.push(
        `${step.name}: the security "${requirement}" cannot be written as a header, query or cookie value; add credentials by hand`,
      );
    const request = stepRequest({
      endpoint,
      baseUrl: base.template,
      values: values[index]!,
      auth,
      cookies: cookies[index]!,
    });
    notes.push(...request.notes.map((note) => `${step.name}: ${note}`));
    const summary = endpoint.summary !== '' ? endpoint.summary : step.summary;
    return {
      id: `n${index + 1}`,
      name: step.name,
      type: 'endpoint',
      position: nodePosition(index),
      config: request.config,
      description: `${endpoint.method} ${endpoint.path}${summary !== '' ? `: ${summary}` : ''}`,
    };
  });

  const connections: Connection[] = nodes
    .slice(1)
    .map((node, index) => ({ id: `w${index + 1}`, source: nodes[index]!.id, sourceHandle: 'out', target: node.id }));

  const variables: Record<string, unknown> = {};
  const inputs: FlowDocument['inputs'] = {};
  for (const input of [...roadmap.inputs, ...added]) {
    // A path segment cannot be left out, so an input a path reads must be given.
    const { variable, declaration } = declareInput({
      ...input,
      required: input.required || input.usedBy.some((target) => target.in === 'path'),
    });
    if (variable !== undefined) variables[input.name] = variable.value;
    inputs[input.name] = declaration;
  }

  const frame = frameAround(
    nodes.map((node) => node.id),
    frameTitleFor(roadmap.requirement),
    options.color ?? 'Purple',
  );
  const envLines = [...env.values()].map((variable) => `env.${variable.name}: ${variable.description}`);
  const inputLines = Object.entries(inputs).map(([inputName, declaration]) => {
    const fill =
      declaration.default !== undefined
        ? `default ${JSON.stringify(declaration.default)}`
        : declaration.required
          ? 'required'
          : 'optional';
    return `flowVars.${inputName} (${declaration.type}, ${fill})${declaration.description ? `: ${declaration.description}` : ''}`;
  });
  const sections = [
    `Set in the run's environment:\n${envLines.map((line) => `- ${line}`).join('\n')}`,
    ...(inputLines.length > 0 ? [`Inputs:\n${inputLines.map((line) => `- ${line}`).join('\n')}`] : []),
    ...(notes.length > 0 ? [`To finish by hand:\n${notes.map((line) => `- ${line}`).join('\n')}`] : []),
  ];
  const description = [
    `Scaffolded from the requirement: ${JSON.stringify(roadmap.requirement.trim())}.`,
    `Steps: ${steps.map((step, index) => `${step.name} (${endpointAt(index).method} ${endpointAt(index).path})`).join(' → ')}.`,
    ...sections,
  ].join('\n\n');

  const flow: FlowDocument = {
    name,
    description,
    folderId: null,
    variables,
    inputs,
    outputs: {},
    nodes,
    connections,
    flowData: { canvasGroups: [frame], annotations: [annotationBelow(frame, sections.join('\n\n'))] },
  };

  const result = validateFlow(flow, createNodeRegistry());
  if (!result.ok) fail(result.problems.map((problem) => ({ ...problem, path: `flow.${problem.path}` })));
  return result.flow;
}
