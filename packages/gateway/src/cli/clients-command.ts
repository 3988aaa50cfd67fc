import { Command, InvalidArgumentError } from 'commander';
import { createClient, createTenant, revokeClient, rotateClientSecret } from '../auth/provision.js';
import { DEFAULT_SCOPES, isScope, SCOPES } from '../auth/scopes.js';
import { clientView } from '../routes/backoffice.js';
import { BOOTSTRAP_TENANT } from '../serve.js';
import { printJson, withLocalStore } from './admin-store.js';
import { SvcError } from '@svc/engine';

function scopeList(value: string): string[] {
  const scopes = value.split(/[\s,]+/).filter(Boolean);
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (scopes.length === 0 || unknown.length > 0) throw new InvalidArgumentError(`known scopes: ${SCOPES.join(', ')}`);
  return scopes;
}

const tenantView = (tenant: { id: string; name: string; createdAt: number }) => ({
  ...tenant,
  createdAt: new Date(tenant.createdAt).toISOString(),
});

/**
 * `svc tenants …` and `svc clients …`: the backoffice's "API Keys & Clients" on the embedded
 * store, for an operator on the machine that holds it. Each prints one JSON document; a new or
 * rotated secret appears in that output only.
 */
export function registerAdminCommands(program: Command): void {
  const tenants = program.command('tenants').description('tenants of the embedded store');
  tenants
    .command('list')
    .description('print every tenant')
    .action(async () => {
      await withLocalStore(async (store) => printJson({ items: (await store.tenants.list()).map(tenantView) }));
    });
  tenants
    .command('create')
    .description('create a tenant')
    .argument('<name>', 'display name')
    .option('--id <id>', 'tenant id (default: a new ten_… id)')
    .action(async (name: string, options: { id?: string }) => {
      await withLocalStore(async (store, clock) =>
        printJson(tenantView(await createTenant(store, clock, { name, ...(options.id ? { id: options.id } : {}) }))),
      );
    });

  const clients = program.command('clients').description('API clients (OAuth2 client credentials and API keys)');
  clients
    .command('list')
    .description('print the clients of a tenant (never their secrets)')
    .option('--tenant <id>', 'tenant id', BOOTSTRAP_TENANT)
    .action(async (options: { tenant: string }) => {
      await withLocalStore(async (store) =>
        printJson({ items: (await store.clients.list(options.tenant)).map(clientView) }),
      );
    });
  clients
    .command('create')
    .description('create a client and print its id and secret (shown this once)')
    .argument('<name>', 'display name')
    .option('--tenant <id>', 'tenant id', BOOTSTRAP_TENANT)
    .option(
      '--scopes <list>',
      `comma- or space-separated scopes (default: ${DEFAULT_SCOPES.join(',')}; admin and operator only when named)`,
      scopeList,
    )
    .option('--trial', 'a trial credential: it expires 14 days after creation', false)
    .action(async (name: string, options: { tenant: string; scopes?: string[]; trial: boolean }) => {
      await withLocalStore(async (store, clock) => {
        const made = await createClient(store, clock, {
          tenantId: options.tenant,
          name,
          trial: options.trial,
          ...(options.scopes ? { scopes: options.scopes } : {}),
        });
        printJson({ ...clientView(made.client), clientSecret: made.clientSecret });
      });
    });
  for (const action of ['rotate', 'revoke'] as const) {
    clients
      .command(action)
      .description(
        action === 'rotate'
          ? 'issue a new secret; the old one keeps working for 24 hours'
          : 'revoke at once: secrets and issued tokens stop working',
      )
      .argument('<clientId>')
      .action(async (clientId: string) => {
        await withLocalStore(async (store, clock) => {
          const client = await store.clients.findByClientId(clientId);
          if (client === undefined) throw new SvcError('CLIENT_NOT_FOUND', `client "${clientId}" not found`);
          if (action === 'revoke')
            return printJson(clientView(await revokeClient(store, clock, client.tenantId, clientId)));
          const rotated = await rotateClientSecret(store, clock, client.tenantId, clientId);
          printJson({ ...clientView(rotated.client), clientSecret: rotated.clientSecret });
        });
      });
  }
}
