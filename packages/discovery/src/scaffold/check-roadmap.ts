import { endpointConfigSchema, NODE_NAME_PATTERN } from '@svc/engine';
import type { CatalogEntry } from '../catalog/catalog-service.js';
import type { Roadmap, RoadmapTarget } from '../planner/roadmap.js';

/** What keeps a roadmap from becoming a flow, with where in the roadmap (`bindings[1].from.step`). */
export interface ScaffoldProblem {
  code: string;
  message: string;
  path: string;
}

const TARGET_PLACES = new Set(['path', 'query', 'header', 'body']);

export function targetKey(target: RoadmapTarget): string {
  return `${target.step}\u0000${target.in}\u0000${target.name}`;
}

function describeTarget(target: RoadmapTarget): string {
  return `${target.in} ${target.in === 'body' ? 'field' : 'parameter'} "${target.name}" of ${target.step}`;
}

/**
 * Checks that a roadmap is consistent before a flow is built from it, and answers every problem:
 * each step has its endpoint and a method the engine sends; names are unique identifiers; every
 * binding reads a step that runs before the one it feeds; inputs and bindings name steps that
 * exist, path parameters the endpoint has, and no place is filled twice.
 */
export function checkRoadmap(
  roadmap: Roadmap,
  endpointOf: (index: number) => CatalogEntry | undefined,
): ScaffoldProblem[] {
  const problems: ScaffoldProblem[] = [];
  const report = (code: string, message: string, path: string) => problems.push({ code, message, path });

  if (roadmap.steps.length === 0)
    report('EMPTY_ROADMAP', 'the roadmap has no steps: nothing in the catalog matched the requirement', 'steps');

  const indexOf = new Map<string, number>();
  roadmap.steps.forEach((step, index) => {
    if (!NODE_NAME_PATTERN.test(step.name)) {
      report(
        'INVALID_STEP_NAME',
        `step name "${step.name}" must start with a letter or "_" and hold only letters, digits and "_" (it becomes a node name that expressions refer to)`,
        `steps[${index}].name`,
      );
    } else if (indexOf.has(step.name)) {
      report(
        'DUPLICATE_STEP_NAME',
        `step name "${step.name}" is used by steps[${indexOf.get(step.name)}] too`,
        `steps[${index}].name`,
      );
    } else {
      indexOf.set(step.name, index);
    }
    const endpoint = endpointOf(index);
    if (endpoint === undefined) {
      report(
        'UNKNOWN_ENDPOINT',
        `no catalog endpoint "${step.endpointId}" of spec "${step.specId}" was given for step "${step.name}"`,
        `steps[${index}].endpointId`,
      );
    } else if (!endpointConfigSchema.shape.method.safeParse(endpoint.method).success) {
      report(
        'UNSUPPORTED_METHOD',
        `step "${step.name}" calls ${endpoint.method} ${endpoint.path}; an endpoint node sends GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS`,
        `steps[${index}].method`,
      );
    }
  });

  const filled = new Map<string, string>();
  const checkTarget = (target: RoadmapTarget, path: string, by: string) => {
    const stepIndex = indexOf.get(target.step);
    if (stepIndex === undefined) {
      report('UNKNOWN_STEP', `"${target.step}" is not a step of the roadmap`, `${path}.step`);
      return undefined;
    }
    if (!TARGET_PLACES.has(target.in)) {
      report('INVALID_TARGET', `a value goes into a path, query, header or body, not "${target.in}"`, `${path}.in`);
      return undefined;
    }
    if (target.in !== 'body' && target.name === '')
      report('INVALID_TARGET', `a ${target.in} parameter needs a name`, `${path}.name`);
    const endpoint = endpointOf(stepIndex);
    if (target.in === 'path' && endpoint !== undefined && !endpoint.path.includes(`{${target.name}}`)) {
      report(
        'UNKNOWN_PATH_PARAMETER',
        `${endpoint.method} ${endpoint.path} has no path parameter "${target.name}"`,
        `${path}.name`,
      );
    }
    const key = targetKey(target);
    const earlier = filled.get(key);
    if (earlier !== undefined)
      report('TARGET_FILLED_TWICE', `the ${describeTarget(target)} is filled by ${earlier} and by ${by}`, path);
    else filled.set(key, by);
    return stepIndex;
  };

  roadmap.bindings.forEach((binding, index) => {
    const path = `bindings[${index}]`;
    const from = indexOf.get(binding.from.step);
    if (from === undefined)
      report('UNKNOWN_STEP', `"${binding.from.step}" is not a step of the roadmap`, `${path}.from.step`);
    if (binding.from.source !== 'body' && binding.from.source !== 'headers') {
      report(
        'INVALID_BINDING',
        `a binding reads a response's body or headers, not "${String(binding.from.source)}"`,
        `${path}.from.source`,
      );
    }
    const to = checkTarget(binding.to, `${path}.to`, path);
    if (from !== undefined && to !== undefined && from >= to) {
      report(
        'BINDING_ORDER',
        `"${binding.to.step}" reads "${binding.from.step}", which does not run before it (steps are in run order)`,
        path,
      );
    }
  });

  const inputNames = new Map<string, number>();
  roadmap.inputs.forEach((input, index) => {
    const path = `inputs[${index}]`;
    if (input.name.trim() === '')
      report('INVALID_INPUT_NAME', 'an input needs a name (it becomes a flow variable)', `${path}.name`);
    else if (inputNames.has(input.name))
      report(
        'DUPLICATE_INPUT',
        `input "${input.name}" is declared by inputs[${inputNames.get(input.name)}] too`,
        `${path}.name`,
      );
    else inputNames.set(input.name, index);
    input.usedBy.forEach((target, position) =>
      checkTarget(target, `${path}.usedBy[${position}]`, `input "${input.name}"`),
    );
  });
  return problems;
}
