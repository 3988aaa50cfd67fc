/** Every scope a client may hold; routes each require one (ARCHITECTURE.md "REST gateway"). */
export const SCOPES = [
  'flows:read',
  'flows:write',
  'executions:run',
  'suites:read',
  'suites:run',
  'schedules:read',
  'schedules:write',
  'catalog:read',
  'catalog:write',
  'environments:read',
  'environments:write',
  'admin',
  'operator',
] as const;

export type Scope = (typeof SCOPES)[number];

/** What each scope allows, as the OpenAPI document and the docs say it. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'flows:read': 'read flows and their executions',
  'flows:write': 'create, change and delete flows',
  'executions:run': 'run flows',
  'suites:read': 'read suites and their runs',
  'suites:run': 'create and run suites',
  'schedules:read': 'read schedules',
  'schedules:write': 'change schedules',
  'catalog:read': 'read the API catalog and test generation jobs',
  'catalog:write': 'import specs, generate tests, plan discovery',
  'environments:read': 'list and read stored environments (secret values are never shown)',
  'environments:write': 'create, change and delete stored environments and their secrets',
  admin: "every scope above, in the client's own tenant, and managing that tenant's clients",
  operator: 'everything, in every tenant: tenants, and the clients of any tenant (the bootstrap client)',
};

/**
 * What a new client gets when it asks for no scopes: read flows and run them, nothing that
 * changes the tenant's definitions or its clients. Least privilege, so a forgotten `scopes` never
 * hands out administration.
 */
export const DEFAULT_SCOPES: readonly Scope[] = ['flows:read', 'executions:run'];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * Whether scopes held grant `scope`. `admin` grants every scope of its own tenant (it manages that
 * tenant's clients); `operator`, held by the bootstrap client, grants everything, across tenants.
 * `admin` never grants `operator`.
 * @example
 * grants(new Set(['admin']), 'flows:write'); // true
 * grants(new Set(['admin']), 'operator'); // false
 */
export function grants(held: ReadonlySet<string>, scope: Scope): boolean {
  return held.has(scope) || held.has('operator') || (scope !== 'operator' && held.has('admin'));
}
