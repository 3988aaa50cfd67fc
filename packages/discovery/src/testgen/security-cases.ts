import { requiresCredentials } from './credentials.js';
import { describeStatus, unauthorisedStatus } from './expected-status.js';
import { failureCase, type SchemaCaseContext } from './schema-context.js';
import type { GeneratedTestCase } from './test-case.js';

/**
 * When the operation requires credentials: the valid request without any, and with credentials
 * of the declared kind that no server accepts. Both expect 401 or 403.
 */
export function securityCases(context: SchemaCaseContext): GeneratedTestCase[] {
  if (!requiresCredentials(context.endpoint)) return [];
  const status = unauthorisedStatus();
  const schemes = Object.keys(context.endpoint.securitySchemes).join(', ');
  return [
    failureCase(
      'security',
      'no credentials',
      `A valid request sent without credentials (${schemes}); expects ${describeStatus(status)}.`,
      { ...structuredClone(context.full), omitAuth: true },
      status,
    ),
    failureCase(
      'security',
      'invalid credentials',
      `A valid request with credentials no server accepts (${schemes}); expects ${describeStatus(status)}.`,
      { ...structuredClone(context.full), badAuth: true },
      status,
    ),
  ];
}
