import { deleteFlow as deleteStoredFlow } from '@svc/engine';
import { table } from '@svc/engine/text-table';
import { InvalidArgumentError, type Command } from 'commander';
import { stringify } from 'yaml';
import { withLocalStore } from './admin-store.js';
import { withReader } from './cli-reader.js';
import { findFlow } from './find-flow.js';
import { LOCAL_TENANT } from './local-engine.js';
import { addApiUrlOption } from './remote/api-url-option.js';
import { reportFailure } from './report-failure.js';

async function listFlows(options: { search?: string; json: boolean; apiUrl?: string }): Promise<number> {
  return withReader(options.apiUrl, async (reader) => {
    const items = await reader.listFlows(options.search);
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ items })}\n`);
    } else if (items.length === 0) {
      process.stdout.write(
        options.search
          ? `no flow matches "${options.search}"\n`
          : 'no flows saved yet (svc run flow <file> saves one)\n',
      );
    } else {
      const rows = [['id', 'name', 'version', 'nodes', 'updated']];
      for (const flow of items)
        rows.push([flow.id, flow.name, String(flow.version), String(flow.nodeCount), flow.updatedAt]);
      process.stdout.write(`${table(rows)}\n`);
    }
    return 0;
  });
}

async function getFlow(reference: string, options: { json: boolean; apiUrl?: string }): Promise<number> {
  return withReader(options.apiUrl, async (reader) => {
    const flow = await reader.findFlow(reference);
    // YAML by default: the document as `svc run flow <file.yaml>` reads it back.
    process.stdout.write(options.json ? `${JSON.stringify(flow)}\n` : stringify(flow));
    return 0;
  });
}

async function deleteFlow(reference: string, options: { json: boolean }): Promise<number> {
  return withLocalStore(async (store) => {
    try {
      const flow = await findFlow(store, reference);
      // As the service deletes: the flow's trigger paths are released with it.
      await deleteStoredFlow(store, LOCAL_TENANT, flow.id);
      process.stdout.write(
        options.json
          ? `${JSON.stringify({ id: flow.id, deleted: true })}\n`
          : `deleted flow "${flow.name}" (${flow.id}); its executions stay readable\n`,
      );
      return 0;
    } catch (error) {
      return reportFailure(error);
    }
  });
}

function searchText(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('give the text to search for');
  return value;
}

/**
 * `svc flows list|get|delete` on the embedded store (tenant `default`); `list` and `get` also on a
 * running `svc serve` (`--api-url`, `SVC_API_URL`). `--json` prints exactly one JSON object. Exit
 * codes: 0 done; 1 `FLOW_NOT_FOUND`, or the service cannot be reached; 2 bad arguments.
 */
export function registerFlowsCommands(program: Command): void {
  const flows = program
    .command('flows')
    .description('flows saved in the embedded store (tenant "default"): list, get, delete');
  addApiUrlOption(
    flows
      .command('list')
      .description('list the saved flows: id, name, version, node count, last update')
      .option('--search <text>', 'only flows whose name or description contains it', searchText)
      .option('--json', 'print exactly one JSON object: { items }', false),
  ).action(async (options: { search?: string; json: boolean; apiUrl?: string }) => {
    process.exitCode = await listFlows(options);
  });
  addApiUrlOption(
    flows
      .command('get')
      .description('print a saved flow as YAML (a file svc run flow reads back)')
      .argument('<flow>', 'the flow id or name')
      .option('--json', 'print exactly one JSON object: the flow', false),
  ).action(async (reference: string, options: { json: boolean; apiUrl?: string }) => {
    process.exitCode = await getFlow(reference, options);
  });
  flows
    .command('delete')
    .description('delete a saved flow; its executions stay readable')
    .argument('<flow>', 'the flow id or name')
    .option('--json', 'print exactly one JSON object: { id, deleted }', false)
    .action(async (reference: string, options: { json: boolean }) => {
      process.exitCode = await deleteFlow(reference, options);
    });
}
