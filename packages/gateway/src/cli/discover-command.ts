import {
  createCatalogService,
  createDiscoveryService,
  describeRunNeeds,
  planRoadmapBodySchema,
  renderRoadmap,
  type Roadmap,
} from '@svc/discovery';
import { isSvcError } from '@svc/engine';
import type { Command } from 'commander';
import { LOCAL_TENANT, openLocalEngine } from './local-engine.js';

export interface DiscoverOptions {
  scaffold: boolean;
  json: boolean;
  name?: string;
  spec?: string;
}

/** Codes that mean the request itself was wrong (exit 2); any other failure is exit 1. */
const BAD_INPUT = new Set(['VALIDATION_ERROR']);

/**
 * `svc discover "<requirement>"` on the embedded store (tenant `default`): plans the requirement
 * against the catalog and prints the roadmap; with `--scaffold` also saves it as a flow.
 * Exit codes: 0 a plan with steps (and, with `--scaffold`, the flow saved); 1 nothing to plan
 * with (`CATALOG_EMPTY`, `SPEC_NOT_FOUND`), no endpoint matched, or the roadmap cannot become a
 * flow; 2 a bad requirement (empty, over 2000 characters) or bad arguments.
 * `--json` prints exactly one JSON object, the roadmap, with `flowId` added under `--scaffold`.
 */
export async function discoverCommand(requirement: string, options: DiscoverOptions): Promise<number> {
  const parsed = planRoadmapBodySchema.safeParse({
    requirement,
    ...(options.spec !== undefined ? { specId: options.spec } : {}),
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'requirement'}: ${issue.message}`);
    process.stderr.write(`svc: VALIDATION_ERROR: ${problems.join('; ')}\n`);
    return 2;
  }
  const { engine, store, close } = await openLocalEngine();
  try {
    const discovery = createDiscoveryService({
      catalog: createCatalogService({ repository: store.catalog }),
      flows: engine.flows,
    });
    const roadmap = await discovery.plan(LOCAL_TENANT, parsed.data);
    if (roadmap.steps.length === 0) {
      if (options.json) process.stdout.write(`${JSON.stringify(roadmap)}\n`);
      else process.stdout.write(`${renderRoadmap(roadmap)}\n`);
      process.stderr.write('svc: no endpoint of the catalog matches the requirement well enough\n');
      return 1;
    }
    if (!options.scaffold) {
      process.stdout.write(options.json ? `${JSON.stringify(roadmap)}\n` : `${renderRoadmap(roadmap)}\n`);
      return 0;
    }
    const { flow } = await discovery.scaffold(LOCAL_TENANT, {
      roadmap,
      ...(options.name !== undefined ? { name: options.name } : {}),
    });
    if (options.json) {
      process.stdout.write(
        `${JSON.stringify({ ...roadmap, flowId: flow.id } satisfies Roadmap & { flowId: string })}\n`,
      );
      return 0;
    }
    const needs = describeRunNeeds(flow);
    const lines = [renderRoadmap(roadmap), '', `Saved flow "${flow.name}" (id ${flow.id}, version ${flow.version}).`];
    if (needs.env.length > 0) {
      lines.push('A run reads from its environment:');
      for (const variable of needs.env)
        lines.push(
          `  ${variable.name}${variable.required ? ' (required)' : ` (default ${JSON.stringify(variable.default)})`}`,
        );
    }
    const missing = needs.inputs.filter((input) => input.required);
    if (missing.length > 0) lines.push(`Inputs a run must give: ${missing.map((input) => input.name).join(', ')}`);
    const envArgs = needs.env
      .map((variable) => ` --env ${variable.name}=${variable.default === undefined ? '…' : String(variable.default)}`)
      .join('');
    lines.push(`Run it with: svc run flow ${flow.id}${envArgs}`);
    lines.push(`(or svc_run_flow in svc-mcp, or POST /api/gateway/flows/${flow.id}/run with { "env": { … } })`);
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } catch (error) {
    if (!isSvcError(error)) throw error;
    process.stderr.write(`svc: ${error.code}: ${error.message}\n`);
    const problems =
      (error.details as { problems?: Array<{ path: string; message: string }> } | undefined)?.problems ?? [];
    for (const problem of problems) process.stderr.write(`  ${problem.path}: ${problem.message}\n`);
    return BAD_INPUT.has(error.code) ? 2 : 1;
  } finally {
    await close();
  }
}

export function registerDiscoverCommand(program: Command): void {
  program
    .command('discover')
    .description(
      'plan a plain-language requirement against the catalog of the embedded store (tenant "default"), and optionally save it as a flow',
    )
    .argument(
      '<requirement>',
      'what the flow should do, e.g. \'create a playlist for me named "Focus"\' (quote values to pass them as they are)',
    )
    .option('--scaffold', 'also save the roadmap as a flow', false)
    .option('--name <flow name>', 'the name of the scaffolded flow (default: read from the requirement)')
    .option('--spec <specId>', 'plan with the endpoints of this spec only')
    .option('--json', 'print exactly one JSON object: the roadmap (with flowId under --scaffold)', false)
    .action(async (requirement: string, options: DiscoverOptions) => {
      if (options.name !== undefined && !options.scaffold) {
        process.stderr.write('svc: --name names the scaffolded flow; give --scaffold too\n');
        process.exitCode = 2;
        return;
      }
      process.exitCode = await discoverCommand(requirement, options);
    });
}
