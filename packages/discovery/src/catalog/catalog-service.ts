import {
  SvcError,
  systemClock,
  type CatalogEndpointRecord,
  type CatalogRepository,
  type CatalogSpecSummary,
  type Clock,
  type Page,
} from '@svc/engine';
import { extractEndpoints } from './extract-endpoints.js';
import { parseOpenApiDocument } from './parse-openapi.js';
import type { CatalogEndpoint } from './types.js';

export interface CatalogServiceOptions {
  /** The store's catalog repository (`store.catalog`). */
  repository: CatalogRepository;
  clock?: Clock;
}

export interface ImportOpenApiOptions {
  /** Shown in error messages, e.g. `petstore.yaml`. */
  fileName?: string;
  /** The spec's name in the catalog; default `info.title`. Importing the same name again replaces it. */
  name?: string;
}

export interface CatalogImportSummary {
  spec: CatalogSpecSummary;
  /** Endpoint ids, compared with the previous import of the same spec. */
  added: string[];
  removed: string[];
  changed: string[];
}

/** An endpoint of the catalog with the spec it belongs to. */
export type CatalogEntry = CatalogEndpoint & { specId: string };

export interface ListCatalogEndpointsQuery {
  search?: string;
  specId?: string;
  limit?: number;
  cursor?: string;
}

export interface CatalogService {
  importOpenApi(tenantId: string, text: string, options?: ImportOpenApiOptions): Promise<CatalogImportSummary>;
  listEndpoints(tenantId: string, query?: ListCatalogEndpointsQuery): Promise<Page<CatalogEntry>>;
  /** `ENDPOINT_NOT_FOUND` when the tenant's catalog has no such endpoint. */
  getEndpoint(tenantId: string, id: string): Promise<CatalogEntry>;
}

/** `Spotify Web API` → `spotify-web-api`: the spec id a name maps to, so the same name replaces. */
export function specIdFor(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return slug === '' ? 'spec' : slug;
}

/**
 * Imports OpenAPI documents into a tenant's catalog and reads its endpoints back. Parsing and
 * extraction happen before anything is written, so a broken document changes nothing.
 *
 * @example
 * const catalog = createCatalogService({ repository: store.catalog });
 * const { spec, added } = await catalog.importOpenApi('default', yamlText, { fileName: 'shop.yaml' });
 * const { items } = await catalog.listEndpoints('default', { search: 'order' });
 */
export function createCatalogService(options: CatalogServiceOptions): CatalogService {
  const { repository } = options;
  const clock = options.clock ?? systemClock;
  return {
    async importOpenApi(tenantId, text, importOptions = {}) {
      const parsed = parseOpenApiDocument(text, importOptions.fileName);
      const endpoints = extractEndpoints(parsed.resolved);
      const name = importOptions.name?.trim() || parsed.title;
      const result = await repository.importSpec(tenantId, {
        id: specIdFor(name),
        name,
        title: parsed.title,
        version: parsed.version,
        sourceVersion: parsed.sourceVersion,
        document: parsed.source,
        importedAt: clock.now(),
        endpoints: endpoints.map((endpoint) => ({
          endpointId: endpoint.id,
          method: endpoint.method,
          path: endpoint.path,
          summary: endpoint.summary,
          tags: endpoint.tags,
          endpoint: endpoint as unknown as Record<string, unknown>,
        })),
      });
      return { spec: result.spec, added: result.added, removed: result.removed, changed: result.changed };
    },

    async listEndpoints(tenantId, query = {}) {
      const page = await repository.listEndpoints(tenantId, query);
      return { items: page.items.map(toEntry), nextCursor: page.nextCursor };
    },

    async getEndpoint(tenantId, id) {
      const record = await repository.getEndpoint(tenantId, id);
      if (record === undefined) {
        throw new SvcError('ENDPOINT_NOT_FOUND', `endpoint "${id}" is not in the catalog; svc_list_endpoints lists the ids`, { status: 404 });
      }
      return toEntry(record);
    },
  };
}

function toEntry(record: CatalogEndpointRecord): CatalogEntry {
  return { ...(record.endpoint as unknown as CatalogEndpoint), specId: record.specId };
}
