import type { CatalogEntry } from '../catalog/catalog-service.js';
import { camelIdentifier, envTemplate } from './templates.js';

/** The env variable that holds the base URL when a roadmap calls one spec. */
export const BASE_URL_ENV = 'baseUrl';

export interface BaseUrlOptions {
  /** The env variable of the first spec's base URL; default `baseUrl`. */
  env?: string;
  /**
   * The default written after `??`: by default the spec's first absolute server URL; `null`
   * writes none (the run's environment must set the variable); a string is used for every step.
   */
  default?: string | null;
}

/**
 * The first server URL a flow can call as it is: absolute http(s), without server variables
 * (`https://{region}.example.com` needs a value the catalog does not keep), trailing `/` removed
 * since every path starts with one.
 */
export function firstAbsoluteServer(servers: readonly string[]): string | undefined {
  for (const server of servers) {
    const url = server.trim();
    if (/^https?:\/\/[^\s{}]+$/i.test(url)) return url.replace(/\/+$/, '');
  }
  return undefined;
}

/**
 * Which env variable each spec's base URL is read from. One spec: `baseUrl`. Several: the spec of
 * the first step keeps `baseUrl` and each other spec gets its own (`paymentsApiBaseUrl`), since
 * one variable cannot point at two servers.
 */
export function baseUrlVariables(specIds: readonly string[], options: BaseUrlOptions = {}): Map<string, string> {
  const first = options.env ?? BASE_URL_ENV;
  const names = new Map<string, string>();
  const used = new Set<string>();
  for (const specId of specIds) {
    if (names.has(specId)) continue;
    let name = names.size === 0 ? first : `${camelIdentifier(specId, 'spec')}BaseUrl`;
    for (let n = 2; used.has(name); n += 1) name = `${camelIdentifier(specId, 'spec')}BaseUrl${n}`;
    names.set(specId, name);
    used.add(name);
  }
  return names;
}

/** The template a node URL starts with: `{{env.baseUrl ?? "https://shop.example.com/api"}}` or `{{env.baseUrl}}`. */
export function baseUrlTemplate(
  endpoint: CatalogEntry,
  variable: string,
  options: BaseUrlOptions = {},
): { template: string; fallback?: string } {
  const fallback =
    options.default === null
      ? undefined
      : options.default !== undefined
        ? options.default.replace(/\/+$/, '')
        : firstAbsoluteServer(endpoint.servers);
  return fallback === undefined
    ? { template: envTemplate(variable) }
    : { template: envTemplate(variable, fallback), fallback };
}
