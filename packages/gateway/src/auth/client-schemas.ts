import { z } from 'zod';
import { SCOPES } from './scopes.js';

/**
 * The bodies of `/api/backoffice/…` that create tenants and clients. Kept apart from the routes so
 * that the web app validates its forms with them (`@svc/gateway/client-schemas`) without Hono.
 */
export const createTenantBodySchema = z
  .object({
    name: z.string().min(1).max(200),
    id: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/)
      .optional(),
  })
  .strict();

export const createClientBodySchema = z
  .object({
    name: z.string().min(1).max(200),
    /** Default: the caller's tenant; another tenant needs the `operator` scope. */
    tenantId: z.string().min(1).optional(),
    /** Default: `flows:read executions:run`. Only scopes the caller holds may be granted. */
    scopes: z.array(z.enum(SCOPES)).min(1).optional(),
    trial: z.boolean().optional(),
  })
  .strict();

export { SCOPES, type Scope } from './scopes.js';
