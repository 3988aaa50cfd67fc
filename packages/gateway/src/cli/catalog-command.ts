import { basename } from 'node:path';
import { createCatalogService, MAX_OPENAPI_DOCUMENT_CHARS } from '@svc/discovery';
import { SvcError } from '@svc/engine';
import { readBoundedFile, unreadableReason } from '@svc/engine/bounded-file';
import type { Command } from 'commander';
import { printJson, withLocalStore } from './admin-store.js';

/** The CLI works on the embedded store's default tenant, as `svc run flow` does. */
const LOCAL_TENANT = 'default';

/**
 * `svc catalog import <file>` and `svc catalog list [--search]` on the embedded store. Text by
 * default; `--json` prints exactly one JSON object.
 */
export function registerCatalogCommands(program: Command): void {
  const catalog = program
    .command('catalog')
    .description('the OpenAPI catalog of the embedded store (tenant "default")');
  catalog
    .command('import')
    .description('import (or replace) an OpenAPI 3.0/3.1 or Swagger 2.0 document, JSON or YAML')
    .argument('<file>', 'the document')
    .option('--name <name>', "the spec's name in the catalog (default: info.title)")
    .option('--json', 'print one JSON object: { spec, added, removed, changed }', false)
    .action(async (file: string, options: { name?: string; json: boolean }) => {
      let text: string;
      try {
        text = readBoundedFile(file, MAX_OPENAPI_DOCUMENT_CHARS);
      } catch (error) {
        throw new SvcError('FILE_NOT_READABLE', `cannot read "${file}": ${unreadableReason(error)}`);
      }
      await withLocalStore(async (store, clock) => {
        const service = createCatalogService({ repository: store.catalog, clock });
        let result;
        try {
          result = await service.importOpenApi(LOCAL_TENANT, text, {
            fileName: basename(file),
            ...(options.name ? { name: options.name } : {}),
          });
        } catch (error) {
          // The one-line message names the first problem only; someone fixing the file wants all of them.
          if (!(error instanceof SvcError) || error.code !== 'INVALID_OPENAPI') throw error;
          const problems = (error.details as { problems?: Array<{ path: string; message: string }> }).problems ?? [];
          process.stderr.write(
            `svc: ${error.code}: ${error.message}\n${problems.map((problem) => `  ${problem.path}: ${problem.message}\n`).join('')}`,
          );
          process.exitCode = 1;
          return;
        }
        if (options.json) return printJson(result);
        const lines = [
          `imported "${result.spec.title}" ${result.spec.version} as ${result.spec.id}: ${result.spec.endpointCount} endpoint(s)`,
        ];
        for (const [label, ids] of [
          ['added', result.added],
          ['removed', result.removed],
          ['changed', result.changed],
        ] as const) {
          if (ids.length > 0) lines.push(`${label}: ${ids.join(', ')}`);
        }
        process.stdout.write(`${lines.join('\n')}\n`);
      });
    });
  catalog
    .command('list')
    .description('list the endpoints of the catalog')
    .option('--search <text>', 'only endpoints whose id, "METHOD /path", summary or tags contain it')
    .option('--json', 'print one JSON object: { items, nextCursor }', false)
    .action(async (options: { search?: string; json: boolean }) => {
      await withLocalStore(async (store, clock) => {
        const service = createCatalogService({ repository: store.catalog, clock });
        const page = await service.listEndpoints(LOCAL_TENANT, {
          limit: 200,
          ...(options.search ? { search: options.search } : {}),
        });
        if (options.json) return printJson(page);
        if (page.items.length === 0) return void process.stdout.write('no endpoints\n');
        const lines = page.items.map(
          (item) =>
            `${item.method.padEnd(7)} ${item.path}  ${item.id}  (${item.specId})${item.summary ? `  ${item.summary}` : ''}`,
        );
        process.stdout.write(`${lines.join('\n')}\n`);
      });
    });
}
