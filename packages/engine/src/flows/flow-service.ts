import { SvcError } from '../errors.js';
import { deleteFlow } from './delete-flow.js';
import type { FlowDocument } from '../model/flow-schema.js';
import { checkSubflows } from './check-subflows.js';
import { assertValidFlow, validateFlow, type ValidationResult } from '../model/validate-flow.js';
import type { NodeRegistry } from '../nodes/registry.js';
import type { FlowSummary, ListFlowsQuery, Page, Store, StoredFlow } from '../store/types.js';
import { wantedTriggerPaths } from '../webhooks/trigger-paths.js';

/**
 * Flows of a tenant: every save validates the whole document first, so a flow that is stored
 * is a flow that can run.
 */
export interface SaveFlowOptions {
  /**
   * Save even when another flow of the same folder has this name. Off by default: two flows of
   * one name are hard to tell apart for whoever picks one by name (`FLOW_NAME_TAKEN`, 409).
   */
  allowDuplicateName?: boolean;
}

export interface FlowService {
  validate(document: unknown): ValidationResult;
  create(tenantId: string, document: unknown, options?: SaveFlowOptions): Promise<StoredFlow>;
  update(
    tenantId: string,
    id: string,
    document: unknown,
    options?: { expectedVersion?: number } & SaveFlowOptions,
  ): Promise<StoredFlow>;
  /**
   * Flows as code: saves a document from a file as the flow with its `id`, else the flow with
   * its name, else a new flow. An unchanged document keeps its version.
   */
  upsert(tenantId: string, document: unknown): Promise<StoredFlow>;
  /**
   * Flows as code, several at once (a suite file's): every document is validated before any is
   * saved, so one that does not validate saves none. Its problems come in one `VALIDATION_ERROR`,
   * each with `document`, the index of the document it is in. Each is then saved as `upsert` saves
   * one, validated once.
   */
  upsertAll(tenantId: string, documents: readonly unknown[]): Promise<StoredFlow[]>;
  get(tenantId: string, id: string): Promise<StoredFlow>;
  /**
   * The flow with this id, else the one flow with exactly this name. A name two flows share is
   * `FLOW_NAME_AMBIGUOUS` (409) listing their ids; neither is `FLOW_NOT_FOUND`.
   */
  resolve(tenantId: string, idOrName: string): Promise<StoredFlow>;
  list(tenantId: string, query?: ListFlowsQuery): Promise<Page<FlowSummary>>;
  delete(tenantId: string, id: string): Promise<void>;
}

/** The parts of a document that make it what it is (not its id, version or timestamps). */
function contentOf(flow: FlowDocument): string {
  const {
    id: _id,
    version: _version,
    updatedAt: _updatedAt,
    ...content
  } = flow as FlowDocument & { createdAt?: string };
  delete (content as { createdAt?: string }).createdAt;
  return JSON.stringify(content);
}

/** Flows of the tenant named exactly `name` (in any folder), paging through a search for it. */
async function flowsNamed(store: Store, tenantId: string, name: string): Promise<FlowSummary[]> {
  const named: FlowSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.flows.list(tenantId, {
      search: name,
      limit: 200,
      ...(cursor === undefined ? {} : { cursor }),
    });
    named.push(...page.items.filter((flow) => flow.name === name));
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return named;
}

export function createFlowService(store: Store, registry: NodeRegistry): FlowService {
  const notFound = (id: string) => new SvcError('FLOW_NOT_FOUND', `flow "${id}" not found`);
  /** Refuses a name another flow of the same folder holds, unless asked to allow it. */
  const checkNameFree = async (
    tenantId: string,
    flow: FlowDocument,
    selfId: string | undefined,
    options: SaveFlowOptions | undefined,
  ) => {
    if (options?.allowDuplicateName === true) return;
    const taken = (await flowsNamed(store, tenantId, flow.name)).find(
      (other) => other.id !== selfId && other.folderId === flow.folderId,
    );
    if (taken === undefined) return;
    const folder = flow.folderId === null ? 'the top folder' : `folder "${flow.folderId}"`;
    throw new SvcError(
      'FLOW_NAME_TAKEN',
      `flow ${taken.id} in ${folder} is named "${flow.name}" already; choose another name, update that flow instead, or save with allowDuplicateName`,
      {
        details: {
          flowId: taken.id,
          problems: [
            { code: 'FLOW_NAME_TAKEN', path: 'name', message: `"${flow.name}" is the name of flow ${taken.id}` },
          ],
        },
      },
    );
  };
  const withSubflowsChecked = async (
    tenantId: string,
    flow: FlowDocument,
    selfId: string | undefined,
  ): Promise<FlowDocument> => {
    const problems = await checkSubflows(store.flows, tenantId, flow, selfId);
    if (problems.length === 0) return flow;
    throw new SvcError(
      'VALIDATION_ERROR',
      `the flow does not validate: ${problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ')}`,
      {
        details: { problems },
      },
    );
  };
  /** A chosen trigger path another flow holds is refused before anything is saved. */
  const checkTriggerPathsFree = async (tenantId: string, flow: FlowDocument, selfId: string | undefined) => {
    for (const { path } of wantedTriggerPaths(flow, [])) {
      const holder = await store.webhooks.findTrigger(path);
      if (holder !== undefined && (holder.tenantId !== tenantId || holder.flowId !== selfId)) {
        throw new SvcError('WEBHOOK_PATH_TAKEN', `the trigger path "${path}" belongs to another flow; choose another`, {
          details: { path },
        });
      }
    }
  };
  /**
   * Saves through `save`, then makes the flow's trigger paths those of the saved document. Two
   * saves racing for one chosen path: the later one's flow is saved, its path refused (409).
   */
  const savingTriggers = async (
    tenantId: string,
    flow: FlowDocument,
    selfId: string | undefined,
    save: () => Promise<StoredFlow>,
  ): Promise<StoredFlow> => {
    await checkTriggerPathsFree(tenantId, flow, selfId);
    const saved = await save();
    const held = await store.webhooks.listTriggers(tenantId, saved.id);
    const wanted = wantedTriggerPaths(saved, held);
    if (wanted.length > 0 || held.length > 0) await store.webhooks.replaceTriggers(tenantId, saved.id, wanted);
    return saved;
  };
  /** Saves a validated flow as `upsert` says: by id, else by name, else new; unchanged, it is not written. */
  const upsertValid = async (tenantId: string, flow: FlowDocument): Promise<StoredFlow> => {
    const existing = flow.id
      ? await store.flows.get(tenantId, flow.id)
      : await store.flows.findByName(tenantId, flow.name);
    if (!existing) {
      const checked = await withSubflowsChecked(tenantId, flow, flow.id);
      return savingTriggers(tenantId, checked, flow.id, () => store.flows.create(tenantId, checked));
    }
    const next = await withSubflowsChecked(tenantId, { ...flow, id: existing.id }, existing.id);
    if (contentOf(next) === contentOf(existing)) return existing;
    return savingTriggers(tenantId, next, existing.id, () => store.flows.update(tenantId, existing.id, next));
  };
  return {
    validate: (document) => validateFlow(document, registry),
    async create(tenantId, document, options) {
      const flow = assertValidFlow(document, registry);
      await checkNameFree(tenantId, flow, flow.id, options);
      const checked = await withSubflowsChecked(tenantId, flow, flow.id);
      return savingTriggers(tenantId, checked, flow.id, () => store.flows.create(tenantId, checked));
    },
    async update(tenantId, id, document, options) {
      const flow = assertValidFlow(document, registry);
      await checkNameFree(tenantId, flow, id, options);
      const checked = await withSubflowsChecked(tenantId, flow, id);
      return savingTriggers(tenantId, checked, id, () =>
        store.flows.update(
          tenantId,
          id,
          checked,
          options?.expectedVersion === undefined ? {} : { expectedVersion: options.expectedVersion },
        ),
      );
    },
    upsert: (tenantId, document) => upsertValid(tenantId, assertValidFlow(document, registry)),
    async upsertAll(tenantId, documents) {
      const results = documents.map((document) => validateFlow(document, registry));
      const problems = results.flatMap((result, index) =>
        result.ok ? [] : result.problems.map((problem) => ({ ...problem, document: index })),
      );
      // Two documents for one flow would each replace the other (and race to create it), and two
      // that choose one trigger path would see one saved and the other refused: neither is saved.
      const seen = new Map<string, number>();
      results.forEach((result, index) => {
        if (!result.ok) return;
        const key = result.flow.id ? `id ${result.flow.id}` : `name "${result.flow.name}"`;
        const first = seen.get(key);
        if (first === undefined) seen.set(key, index);
        else
          problems.push({
            code: 'DUPLICATE_FLOW',
            message: `document ${first} is the flow of ${key} too`,
            path: result.flow.id ? 'id' : 'name',
            document: index,
          });
        result.flow.nodes.forEach((node, nodeIndex) => {
          const { mode, path: chosen } = (node.config ?? {}) as { mode?: string; path?: string };
          if (node.type !== 'component-webhook' || mode !== 'trigger' || chosen === undefined || chosen === 'auto')
            return;
          const holder = seen.get(`path ${chosen}`);
          if (holder === undefined) seen.set(`path ${chosen}`, index);
          else
            problems.push({
              code: 'WEBHOOK_PATH_TAKEN',
              message: `document ${holder} chooses the trigger path "${chosen}" too`,
              path: `nodes[${nodeIndex}].config.path`,
              document: index,
            });
        });
      });
      if (problems.length > 0) {
        const shown = problems
          .slice(0, 5)
          .map((problem) => `[${problem.document}] ${problem.path}: ${problem.message}`);
        const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
        throw new SvcError('VALIDATION_ERROR', `flows do not validate: ${shown.join('; ')}${more}`, {
          details: { problems },
        });
      }
      // Documents of distinct names save independently, so their saves share the store's commits.
      return Promise.all(results.map((result) => upsertValid(tenantId, (result as { flow: FlowDocument }).flow)));
    },
    async get(tenantId, id) {
      const flow = await store.flows.get(tenantId, id);
      if (!flow) throw notFound(id);
      return flow;
    },
    async resolve(tenantId, idOrName) {
      const byId = await store.flows.get(tenantId, idOrName);
      if (byId) return byId;
      const named = await flowsNamed(store, tenantId, idOrName);
      if (named.length === 1)
        return (await store.flows.get(tenantId, named[0]!.id)) ?? Promise.reject(notFound(idOrName));
      if (named.length > 1) {
        throw new SvcError(
          'FLOW_NAME_AMBIGUOUS',
          `${named.length} flows are named "${idOrName}": ${named.map((flow) => `${flow.id}${flow.folderId ? ` (folder ${flow.folderId})` : ''}`).join(', ')}; give the id`,
          {
            details: { flowIds: named.map((flow) => flow.id) },
          },
        );
      }
      throw notFound(idOrName);
    },
    list: (tenantId, query) => store.flows.list(tenantId, query),
    async delete(tenantId, id) {
      if (!(await deleteFlow(store, tenantId, id))) throw notFound(id);
    },
  };
}
