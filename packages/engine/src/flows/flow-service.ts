import { SvcError } from '../errors.js';
import type { FlowDocument } from '../model/flow-schema.js';
import { checkSubflows } from './check-subflows.js';
import { assertValidFlow, validateFlow, type ValidationResult } from '../model/validate-flow.js';
import type { NodeRegistry } from '../nodes/registry.js';
import type { FlowSummary, ListFlowsQuery, Page, Store, StoredFlow } from '../store/types.js';

/**
 * Flows of a tenant: every save validates the whole document first, so a flow that is stored
 * is a flow that can run.
 */
export interface FlowService {
  validate(document: unknown): ValidationResult;
  create(tenantId: string, document: unknown): Promise<StoredFlow>;
  update(tenantId: string, id: string, document: unknown, options?: { expectedVersion?: number }): Promise<StoredFlow>;
  /**
   * Flows as code: saves a document from a file as the flow with its `id`, else the flow with
   * its name, else a new flow. An unchanged document keeps its version.
   */
  upsert(tenantId: string, document: unknown): Promise<StoredFlow>;
  get(tenantId: string, id: string): Promise<StoredFlow>;
  list(tenantId: string, query?: ListFlowsQuery): Promise<Page<FlowSummary>>;
  delete(tenantId: string, id: string): Promise<void>;
}

/** The parts of a document that make it what it is (not its id, version or timestamps). */
function contentOf(flow: FlowDocument): string {
  const { id: _id, version: _version, updatedAt: _updatedAt, ...content } = flow as FlowDocument & { createdAt?: string };
  delete (content as { createdAt?: string }).createdAt;
  return JSON.stringify(content);
}

export function createFlowService(store: Store, registry: NodeRegistry): FlowService {
  const notFound = (id: string) => new SvcError('FLOW_NOT_FOUND', `flow "${id}" not found`);
  const withSubflowsChecked = async (tenantId: string, flow: FlowDocument, selfId: string | undefined): Promise<FlowDocument> => {
    const problems = await checkSubflows(store.flows, tenantId, flow, selfId);
    if (problems.length === 0) return flow;
    throw new SvcError('VALIDATION_ERROR', `the flow does not validate: ${problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ')}`, {
      details: { problems },
    });
  };
  return {
    validate: (document) => validateFlow(document, registry),
    async create(tenantId, document) {
      const flow = assertValidFlow(document, registry);
      return store.flows.create(tenantId, await withSubflowsChecked(tenantId, flow, flow.id));
    },
    async update(tenantId, id, document, options) {
      const flow = assertValidFlow(document, registry);
      return store.flows.update(tenantId, id, await withSubflowsChecked(tenantId, flow, id), options);
    },
    async upsert(tenantId, document) {
      const flow = assertValidFlow(document, registry);
      const existing = flow.id ? await store.flows.get(tenantId, flow.id) : await store.flows.findByName(tenantId, flow.name);
      if (!existing) return store.flows.create(tenantId, await withSubflowsChecked(tenantId, flow, flow.id));
      const next = await withSubflowsChecked(tenantId, { ...flow, id: existing.id }, existing.id);
      if (contentOf(next) === contentOf(existing)) return existing;
      return store.flows.update(tenantId, existing.id, next);
    },
    async get(tenantId, id) {
      const flow = await store.flows.get(tenantId, id);
      if (!flow) throw notFound(id);
      return flow;
    },
    list: (tenantId, query) => store.flows.list(tenantId, query),
    async delete(tenantId, id) {
      if (!(await store.flows.delete(tenantId, id))) throw notFound(id);
    },
  };
}
