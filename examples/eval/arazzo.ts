import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'yaml';
import {
  buildPlannerIndex,
  extractEndpoints,
  parseOpenApiDocument,
  planRoadmap,
  type CatalogEntry,
} from '@svc/discovery';

/**
 * Arazzo examples as gold for bindings: each workflow step states which earlier step's output
 * feeds which of its parameters (`$steps.find-pet.outputs.my_pet_id` → `pet_id`). The planner is
 * given the workflow's operations in order and infers the bindings itself; recall is the share
 * of gold bindings it finds (same producer step, consumer step and parameter).
 */
export interface ArazzoReport {
  workflows: number;
  goldBindings: number;
  found: number;
  proposed: number;
  correct: number;
  recall: number;
  precision: number;
  skipped: string[];
  misses: string[];
}

type Json = Record<string, unknown>;

interface GoldBinding {
  from: number;
  to: number;
  name: string;
}

export function evaluateArazzo(folder: string): ArazzoReport {
  const report: ArazzoReport = {
    workflows: 0,
    goldBindings: 0,
    found: 0,
    proposed: 0,
    correct: 0,
    recall: 0,
    precision: 0,
    skipped: [],
    misses: [],
  };
  for (const file of readdirSync(folder)
    .filter((name) => /arazzo\.ya?ml$/.test(name))
    .sort()) {
    const document = parse(readFileSync(join(folder, file), 'utf8')) as Json;
    const sources = (document.sourceDescriptions as Json[] | undefined) ?? [];
    const endpoints: CatalogEntry[] = [];
    for (const source of sources) {
      const local = join(folder, basename(String(source.url)));
      if (!existsSync(local)) {
        report.skipped.push(`${file}: source ${String(source.name)} (${String(source.url)}) is not in the data folder`);
        continue;
      }
      const parsed = parseOpenApiDocument(readFileSync(local, 'utf8'), basename(local));
      endpoints.push(
        ...extractEndpoints(parsed.resolved).map((endpoint) => ({ ...endpoint, specId: String(source.name) })),
      );
    }
    if (endpoints.length === 0) continue;
    const index = buildPlannerIndex(endpoints);
    for (const workflow of (document.workflows as Json[] | undefined) ?? []) {
      const steps = ((workflow.steps as Json[] | undefined) ?? []).map((step) => ({
        id: String(step.stepId),
        endpointId: operationOf(step, endpoints),
        step,
      }));
      const operations = steps.filter((step) => step.endpointId !== undefined);
      if (operations.length < 2) continue;
      report.workflows += 1;
      const positionOf = new Map(operations.map((step, position) => [step.id, position]));
      const gold: GoldBinding[] = [];
      operations.forEach((step, to) => {
        for (const [name, value] of consumerValues(step.step)) {
          for (const match of value.matchAll(/\$steps\.([\w-]+)\.outputs\./g)) {
            const from = positionOf.get(match[1] ?? '');
            if (from !== undefined && from !== to) gold.push({ from, to, name });
          }
        }
      });
      const roadmap = planRoadmap(String(workflow.summary ?? workflow.workflowId), index, {
        endpoints: operations.map((step) => step.endpointId!),
        addProducers: false,
      });
      const positionOfName = new Map(roadmap.steps.map((step) => [step.name, step.action ?? -1]));
      const proposed = roadmap.bindings.map((binding) => ({
        from: positionOfName.get(binding.from.step) ?? -1,
        to: positionOfName.get(binding.to.step) ?? -1,
        name: binding.to.name,
      }));
      report.goldBindings += gold.length;
      report.proposed += proposed.length;
      for (const binding of gold) {
        const hit = proposed.some((candidate) => sameBinding(candidate, binding));
        if (hit) report.found += 1;
        else
          report.misses.push(
            `${file} ${String(workflow.workflowId)}: ${operations[binding.from]?.id} → ${operations[binding.to]?.id}.${binding.name}`,
          );
      }
      report.correct += proposed.filter((candidate) => gold.some((binding) => sameBinding(candidate, binding))).length;
    }
  }
  report.recall = report.found / Math.max(report.goldBindings, 1);
  report.precision = report.correct / Math.max(report.proposed, 1);
  return report;
}

function sameBinding(a: GoldBinding, b: GoldBinding): boolean {
  const last = (name: string): string =>
    (name.split('.').at(-1) ?? name)
      .replace(/\[\d+\]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '');
  return a.from === b.from && a.to === b.to && last(a.name) === last(b.name);
}

/** `$sourceDescriptions.api.getPet`, `getPet`, or an operationPath `…#/paths/~1pet~1findByStatus`. */
function operationOf(step: Json, endpoints: CatalogEntry[]): string | undefined {
  if (typeof step.operationId === 'string') {
    const id = step.operationId.replace(/^\$sourceDescriptions\.[\w-]+\./, '');
    // Matched without case: FAPI-PAR's workflow calls `PAR` where its description says `Par`.
    const wanted = id.toLowerCase();
    return endpoints.find((endpoint) => (endpoint.operationId ?? endpoint.id).toLowerCase() === wanted)?.id;
  }
  if (typeof step.operationPath === 'string') {
    const pointer = step.operationPath.slice(step.operationPath.indexOf('#') + 1);
    const [, , rawPath, method] = pointer.split('/');
    const path = (rawPath ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
    return endpoints.find(
      (endpoint) => endpoint.path === path && (method === undefined || endpoint.method === method.toUpperCase()),
    )?.id;
  }
  return undefined;
}

/** Each parameter value and request-body field of a step, as text, with the name it fills. */
function consumerValues(step: Json): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const parameter of (step.parameters as Json[] | undefined) ?? []) {
    if (typeof parameter.name === 'string') out.push([parameter.name, JSON.stringify(parameter.value ?? '')]);
  }
  const body = (step.requestBody as Json | undefined)?.payload;
  let payload: unknown = body;
  if (typeof body === 'string') {
    try {
      payload = JSON.parse(body);
    } catch {
      payload = body;
    }
  }
  if (payload !== null && typeof payload === 'object') {
    for (const [name, value] of Object.entries(payload as Json)) out.push([name, JSON.stringify(value)]);
  } else if (typeof payload === 'string') {
    out.push(['body', payload]);
  }
  return out;
}
