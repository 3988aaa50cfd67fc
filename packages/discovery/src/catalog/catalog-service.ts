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
  /**
   * By id, or `spec:id`. `ENDPOINT_NOT_FOUND` when the tenant's catalog has no such endpoint;
   * `ENDPOINT_AMBIGUOUS` (409, with the `spec:id` candidates) for an id several specs hold.
   */
  getEndpoint(tenantId: string, id: string): Promise<CatalogEntry>;
  /** The tenant's specs, by id, without their documents. */
  listSpecs(tenantId: string): Promise<CatalogSpecSummary[]>;
  /**
   * A token that changes whenever the tenant's catalog changes: an import through this service,
   * or one by another process (each import stamps its spec's `importedAt`). Cheap: one read of
   * the spec list, so a reader can keep what it derived from the endpoints until it changes.
   */
  revision(tenantId: string): Promise<string>;
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
  // Imports through this service, per tenant: two imports in the same millisecond (or under a
  // manual clock) still change the revision.
  const localImports = new Map<string, number>();
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
      localImports.set(tenantId, (localImports.get(tenantId) ?? 0) + 1);
      return { spec: result.spec, added: result.added, removed: result.removed, changed: result.changed };
    },

    async listEndpoints(tenantId, query = {}) {
      const page = await repository.listEndpoints(tenantId, query);
      return { items: page.items.map(toEntry), nextCursor: page.nextCursor };
    },

    async getEndpoint(tenantId, id) {
      const record = await repository.getEndpoint(tenantId, id);
      if (record === undefined) {
        throw new SvcError(
          'ENDPOINT_NOT_FOUND',
          `endpoint "${id}" is not in the catalog; svc_list_endpoints lists the ids`,
        );
      }
      // An id two specs share (both have operationId "getUser") names neither: picking one would
      // silently test or call the wrong API. The `spec:operationId` form says which.
      if (!id.includes(':')) {
        const specs = await repository.listSpecs(tenantId);
        if (specs.length > 1) {
          const holders = (
            await Promise.all(specs.map((spec) => repository.getEndpoint(tenantId, `${spec.id}:${id}`)))
          ).filter((found) => found !== undefined);
          if (holders.length > 1) {
            const candidates = holders.map((holder) => `${holder.specId}:${id}`);
            throw new SvcError(
              'ENDPOINT_AMBIGUOUS',
              `endpoint id "${id}" is in ${holders.length} specs; give one of: ${candidates.join(', ')}`,
              {
                details: { candidates },
              },
            );
          }
        }
      }
      return toEntry(record);
    },

    listSpecs: (tenantId) => repository.listSpecs(tenantId),

    async revision(tenantId) {
      const specs = await repository.listSpecs(tenantId);
      const stamps = specs.map((spec) => `${spec.id}@${spec.importedAt}#${spec.endpointCount}`);
      return `${localImports.get(tenantId) ?? 0}|${stamps.join(',')}`;
    },
  };
}

function toEntry(record: CatalogEndpointRecord): CatalogEntry {
  return { ...(record.endpoint as unknown as CatalogEndpoint), specId: record.specId };
}
