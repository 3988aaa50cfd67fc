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
  'admin',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
