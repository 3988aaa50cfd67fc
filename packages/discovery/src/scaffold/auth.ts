import type { CatalogEndpoint, JsonObject } from '../catalog/types.js';
import { camelIdentifier, envTemplate } from './templates.js';

/** An env variable a scaffolded flow reads, and what to put in it. */
export interface EnvVariable {
  name: string;
  description: string;
}

/** What one endpoint's security asks a request to carry, as templates over env variables. */
export interface AuthPlacement {
  headers: Record<string, string>;
  query: Record<string, string>;
  /** `name=value` pairs for the Cookie header. */
  cookies: string[];
  env: EnvVariable[];
  /** Requirements that could not be written as a header, query or cookie value (e.g. mutualTLS). */
  unsupported: string[];
}

// The engine redacts env values whose names say they are secret (token, key, credential…), so
// every name below keeps such a word.
const SECRET_WORD = /(secret|token|password|passwd|api[-_]?key|apikey|private|credential|auth)/i;

function tokenVariable(scheme: string): string {
  const base = camelIdentifier(scheme, 'auth');
  return /token$/i.test(base) ? base : `${base}Token`;
}

/** `api_key` → `apiKey`, `warehouseKey` → `warehouseApiKey`, `X-Partner` → `xPartnerApiKey`. */
function keyVariable(scheme: string): string {
  const base = camelIdentifier(scheme, 'api');
  if (SECRET_WORD.test(base)) return base;
  const stem = base.replace(/Key$/, '');
  return stem === '' ? 'apiKey' : `${stem}ApiKey`;
}

function credentialsVariable(scheme: string): string {
  const base = camelIdentifier(scheme, 'auth');
  return /credentials?$/i.test(base) ? base : `${base}Credentials`;
}

type Placement = { kind: 'header' | 'query' | 'cookie'; name: string; value: string; env: EnvVariable };

/** How one security scheme goes on a request, or undefined when it cannot be written as a value. */
function placementFor(schemeName: string, scheme: JsonObject): Placement | undefined {
  const type = typeof scheme.type === 'string' ? scheme.type : '';
  if (type === 'http') {
    const httpScheme = typeof scheme.scheme === 'string' ? scheme.scheme.toLowerCase() : 'bearer';
    if (httpScheme === 'bearer') {
      const name = tokenVariable(schemeName);
      return {
        kind: 'header',
        name: 'Authorization',
        value: `Bearer ${envTemplate(name)}`,
        env: {
          name,
          description: `bearer token for ${schemeName} (http bearer), sent as "Authorization: Bearer <token>"`,
        },
      };
    }
    if (httpScheme === 'basic') {
      const name = credentialsVariable(schemeName);
      return {
        kind: 'header',
        name: 'Authorization',
        value: `Basic ${envTemplate(name)}`,
        env: {
          name,
          description: `base64 of "user:password" for ${schemeName} (http basic), sent as "Authorization: Basic <credentials>"`,
        },
      };
    }
    const name = credentialsVariable(schemeName);
    const label = httpScheme.charAt(0).toUpperCase() + httpScheme.slice(1);
    return {
      kind: 'header',
      name: 'Authorization',
      value: `${label} ${envTemplate(name)}`,
      env: {
        name,
        description: `credentials for ${schemeName} (http ${httpScheme}), sent as "Authorization: ${label} <credentials>"`,
      },
    };
  }
  if (type === 'oauth2' || type === 'openIdConnect') {
    const name = tokenVariable(schemeName);
    return {
      kind: 'header',
      name: 'Authorization',
      value: `Bearer ${envTemplate(name)}`,
      env: { name, description: `access token for ${schemeName} (${type}), sent as "Authorization: Bearer <token>"` },
    };
  }
  if (type === 'apiKey' && typeof scheme.name === 'string' && scheme.name !== '') {
    const where =
      scheme.in === 'query'
        ? 'query'
        : scheme.in === 'cookie'
          ? 'cookie'
          : scheme.in === 'header'
            ? 'header'
            : undefined;
    if (where === undefined) return undefined;
    const name = keyVariable(schemeName);
    return {
      kind: where,
      name: scheme.name,
      value: envTemplate(name),
      env: { name, description: `API key for ${schemeName}, sent in the ${where} "${scheme.name}"` },
    };
  }
  return undefined;
}

/**
 * The credentials an endpoint's security requirements ask for, as `{{env.…}}` placeholders.
 * Requirements are alternatives: the first one whose schemes can all be written is taken. An
 * endpoint whose security is optional (`{}` among the alternatives) still gets the first
 * writable requirement, so a run sees what an authorised caller sees.
 */
export function authFor(endpoint: Pick<CatalogEndpoint, 'security' | 'securitySchemes'>): AuthPlacement {
  const result: AuthPlacement = { headers: {}, query: {}, cookies: [], env: [], unsupported: [] };
  const requirements = endpoint.security.filter((requirement) => Object.keys(requirement).length > 0);
  if (requirements.length === 0) return result;

  const resolve = (requirement: Record<string, string[]>) => {
    const placements: Placement[] = [];
    for (const name of Object.keys(requirement)) {
      const scheme = endpoint.securitySchemes[name];
      const placement = scheme === undefined ? undefined : placementFor(name, scheme);
      if (placement === undefined) return undefined;
      placements.push(placement);
    }
    return placements;
  };
  const chosen = requirements.map(resolve).find((placements) => placements !== undefined);
  if (chosen === undefined) {
    result.unsupported.push(...requirements.map((requirement) => Object.keys(requirement).join(' + ')));
    return result;
  }
  for (const placement of chosen) {
    if (placement.kind === 'header') result.headers[placement.name] = placement.value;
    else if (placement.kind === 'query') result.query[placement.name] = placement.value;
    else result.cookies.push(`${placement.name}=${placement.value}`);
    if (!result.env.some((variable) => variable.name === placement.env.name)) result.env.push(placement.env);
  }
  return result;
}
