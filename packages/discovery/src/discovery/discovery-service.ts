import { SvcError, systemClock, type Clock, type FlowService, type StoredFlow } from '@svc/engine';
import type { CatalogEntry, CatalogService } from '../catalog/catalog-service.js';
import { buildPlannerIndex, type PlannerIndex } from '../planner/planner-index.js';
import { planRoadmap } from '../planner/plan-roadmap.js';
import type { Roadmap } from '../planner/roadmap.js';
import { scaffoldFlow } from '../scaffold/scaffold-flow.js';

export interface DiscoveryServiceOptions {
  catalog: CatalogService;
  /** The engine's flow service (`engine.flows`): scaffolded flows are saved through it, so they validate. */
  flows: FlowService;
  clock?: Clock;
  /**
   * How long a tenant's planner index is trusted without asking whether the catalog changed
   * (default 0: every call asks, which is one read of the spec list).
   */
  revisionCheckMs?: number;
  /** Tenants whose index is kept at once (default 32); the least recently used goes first. */
  maxCachedTenants?: number;
}

export interface PlanRequest {
  requirement: string;
  /** Plan with this spec's endpoints only. */
  specId?: string;
  /** A model's choice among the ranked candidates: endpoint id by action index. */
  choices?: Record<string, string>;
}

export interface ScaffoldRequest {
  /** Exactly one of `roadmap` and `requirement`. */
  roadmap?: Roadmap;
  requirement?: string;
  /** With `requirement`: plan with this spec's endpoints only. */
  specId?: string;
  name?: string;
  folderId?: string | null;
}

export interface ScaffoldResult {
  flow: StoredFlow;
  /** The roadmap the flow was built from (the one given, or the one planned). */
  roadmap: Roadmap;
}

export interface DiscoveryService {
  /**
   * Plans a requirement against the tenant's catalog. `CATALOG_EMPTY` when the catalog (or the
   * spec `specId`) has no endpoint, `SPEC_NOT_FOUND` for an unknown `specId`.
   */
  plan(tenantId: string, request: PlanRequest): Promise<Roadmap>;
  /**
   * Turns a roadmap (or a requirement, planned first) into a flow and saves it. A step naming an
   * endpoint the catalog does not have is `ENDPOINT_NOT_FOUND` with every such step's path; a
   * roadmap that cannot become a valid flow is `INVALID_ROADMAP` with every problem.
   */
  scaffold(tenantId: string, request: ScaffoldRequest): Promise<ScaffoldResult>;
}

/** What is kept per tenant (and spec filter) until the catalog's revision changes. */
interface CatalogSnapshot {
  revision: string;
  checkedAt: number;
  endpoints: CatalogEntry[];
  /** Built on the first plan, not on a scaffold that only reads endpoints. */
  index?: PlannerIndex;
}

/** The store's largest page. */
const PAGE_SIZE = 200;

function catalogEmpty(specId: string | undefined): SvcError {
  const where = specId === undefined ? 'the API catalog has no endpoint' : `spec "${specId}" has no endpoint`;
  return new SvcError(
    'CATALOG_EMPTY',
    `${where} to plan with: import an OpenAPI document first (svc_import_openapi, svc catalog import, or POST /api/gateway/catalog/import)`,
  );
}

/**
 * Discovery over a tenant's catalog: requirement → roadmap (the planner), roadmap → saved flow
 * (the scaffolder). The planner index of each tenant is built once and kept while the catalog's
 * revision stays the same, so planning many requirements against one catalog pays for the
 * index once. The cache is only a cache: every call checks the revision in the store, so an
 * import by another process is seen on the next call.
 *
 * @example
 * const discovery = createDiscoveryService({ catalog, flows: engine.flows });
 * const roadmap = await discovery.plan('default', { requirement: 'create a playlist for me named "Focus"' });
 * const { flow } = await discovery.scaffold('default', { roadmap });
 * await engine.runFlow({ tenantId: 'default', flowId: flow.id, env: { baseUrl, oauth20Token } });
 */
export function createDiscoveryService(options: DiscoveryServiceOptions): DiscoveryService {
  const { catalog, flows } = options;
  const clock = options.clock ?? systemClock;
  const revisionCheckMs = options.revisionCheckMs ?? 0;
  const maxCached = Math.max(1, options.maxCachedTenants ?? 32);
  const snapshots = new Map<string, Promise<CatalogSnapshot>>();

  async function readEndpoints(tenantId: string, specId: string | undefined): Promise<CatalogEntry[]> {
    const endpoints: CatalogEntry[] = [];
    let cursor: string | undefined;
    do {
      const page = await catalog.listEndpoints(tenantId, {
        limit: PAGE_SIZE,
        ...(specId !== undefined ? { specId } : {}),
        ...(cursor !== undefined ? { cursor } : {}),
      });
      endpoints.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return endpoints;
  }

  async function snapshot(tenantId: string, specId: string | undefined): Promise<CatalogSnapshot> {
    const key = `${tenantId}\u0000${specId ?? ''}`;
    const cached = snapshots.get(key);
    if (cached !== undefined) {
      const kept = await cached.catch(() => undefined);
      if (kept !== undefined) {
        const now = clock.now();
        if (now - kept.checkedAt < revisionCheckMs || (await catalog.revision(tenantId)) === kept.revision) {
          kept.checkedAt = now;
          // Most recently used last, so the first key is the one to drop.
          snapshots.delete(key);
          snapshots.set(key, cached);
          return kept;
        }
      }
    }
    const loading = (async (): Promise<CatalogSnapshot> => {
      // The revision is read before the endpoints: an import in between makes the next call reload.
      const revision = await catalog.revision(tenantId);
      return { revision, checkedAt: clock.now(), endpoints: await readEndpoints(tenantId, specId) };
    })();
    snapshots.delete(key);
    snapshots.set(key, loading);
    while (snapshots.size > maxCached) snapshots.delete(snapshots.keys().next().value!);
    // A failed read is not kept.
    loading.catch(() => {
      if (snapshots.get(key) === loading) snapshots.delete(key);
    });
    return loading;
  }

  async function plan(tenantId: string, request: PlanRequest): Promise<Roadmap> {
    if (request.specId !== undefined) {
      const specs = await catalog.listSpecs(tenantId);
      if (!specs.some((spec) => spec.id === request.specId)) {
        const known = specs.map((spec) => spec.id).join(', ');
        throw new SvcError(
          'SPEC_NOT_FOUND',
          `spec "${request.specId}" is not in the catalog${known ? ` (its specs: ${known})` : ''}`,
        );
      }
    }
    const current = await snapshot(tenantId, request.specId);
    if (current.endpoints.length === 0) throw catalogEmpty(request.specId);
    current.index ??= buildPlannerIndex(current.endpoints);
    if (request.choices === undefined || Object.keys(request.choices).length === 0)
      return planRoadmap(request.requirement, current.index);
    const choices = new Map(
      Object.entries(request.choices).map(([action, endpointId]) => [Number(action), endpointId]),
    );
    return planRoadmap(request.requirement, current.index, { choices, decidedBy: 'sampling' });
  }

  return {
    plan,

    async scaffold(tenantId, request) {
      if ((request.roadmap === undefined) === (request.requirement === undefined)) {
        throw new SvcError('VALIDATION_ERROR', 'give exactly one of roadmap and requirement', {
          details: {
            problems: [
              { code: 'INVALID_REQUEST', path: 'roadmap', message: 'give exactly one of roadmap and requirement' },
            ],
          },
        });
      }
      const roadmap =
        request.roadmap ??
        (await plan(tenantId, {
          requirement: request.requirement!,
          ...(request.specId !== undefined ? { specId: request.specId } : {}),
        }));
      if (roadmap.steps.length === 0) {
        throw new SvcError(
          'INVALID_ROADMAP',
          `no endpoint of the catalog matches "${roadmap.requirement}" well enough to build a flow; name the operations more as the API does`,
          {
            details: { problems: [{ code: 'NO_STEPS', path: 'roadmap.steps', message: 'the roadmap has no step' }] },
          },
        );
      }
      const { endpoints } = await snapshot(tenantId, undefined);
      const missing = roadmap.steps.flatMap((step, index) =>
        endpoints.some((entry) => entry.id === step.endpointId && entry.specId === step.specId)
          ? []
          : [
              {
                code: 'ENDPOINT_NOT_FOUND',
                path: `roadmap.steps[${index}].endpointId`,
                message: `endpoint "${step.endpointId}" of spec "${step.specId}" is not in the catalog`,
              },
            ],
      );
      if (missing.length > 0) {
        const shown = missing.map((problem) => `${problem.path}: ${problem.message}`).join('; ');
        throw new SvcError('ENDPOINT_NOT_FOUND', `${shown}; svc_list_endpoints lists the catalog's endpoints`, {
          details: { problems: missing },
        });
      }
      const document = scaffoldFlow(roadmap, endpoints, request.name !== undefined ? { name: request.name } : {});
      const flow = await flows.create(
        tenantId,
        request.folderId !== undefined ? { ...document, folderId: request.folderId } : document,
      );
      return { flow, roadmap };
    },
  };
}
