import { webhookConfigSchema } from '../model/configs/webhook-config.js';
import type { StoredFlow, Store } from '../store/types.js';

/** How deep subflows are followed: as deep as they may nest when they run. */
const MAX_SUBFLOW_LEVELS = 8;

/** A flow or suite about to be saved by someone who may not start runs. */
export type SavedTarget = { type: 'flow' | 'suite'; id: string };

/**
 * Why saving a flow or a suite would decide what runs with a stored environment when nobody asks
 * for the run: a schedule that names a stored environment runs it (a suite's flows too), or a
 * webhook trigger that names one starts a flow that reaches it as a subflow. Whoever saves it then
 * decides where that environment's secrets go, which is starting runs with it. Answers the first
 * such reason, or undefined. A trigger on the saved flow itself is the saved document's to say.
 */
export async function unattendedRunWithStoredEnvironment(
  store: Store,
  tenantId: string,
  target: SavedTarget,
): Promise<string | undefined> {
  // Flows run unattended with a stored environment, each with why, said of a subject ("this flow").
  const roots = new Map<string, Reason>();
  for (let cursor: string | undefined, first = true; first || cursor !== undefined; first = false) {
    const page = await store.schedules.list(tenantId, {
      enabledOnly: false,
      limit: 200,
      ...(cursor ? { cursor } : {}),
    });
    cursor = page.nextCursor ?? undefined;
    for (const schedule of page.items) {
      if (schedule.environment === null) continue;
      const by = `the schedule "${schedule.name}"`;
      const withEnvironment = `with the stored environment "${schedule.environment}"`;
      if (schedule.target.type === 'flow') {
        if (!roots.has(schedule.target.id))
          roots.set(schedule.target.id, (subject) => `${by} runs ${subject} ${withEnvironment}`);
        continue;
      }
      if (target.type === 'suite' && schedule.target.id === target.id)
        return `${by} runs this suite ${withEnvironment}`;
      const suite = await store.suites.get(tenantId, schedule.target.id);
      for (const flowId of suite?.flowIds ?? []) {
        if (!roots.has(flowId))
          roots.set(flowId, (subject) => `${by} runs ${subject}, in the suite "${suite!.name}", ${withEnvironment}`);
      }
    }
  }
  if (target.type === 'suite') return undefined;
  for (const trigger of await store.webhooks.listTriggers(tenantId)) {
    // The saved flow's own trigger is its new document's to say.
    if (trigger.flowId === target.id || roots.has(trigger.flowId)) continue;
    const flow = await store.flows.get(tenantId, trigger.flowId);
    const node = flow?.nodes.find((candidate) => candidate.id === trigger.nodeId);
    const parsed = webhookConfigSchema.safeParse(node?.config);
    if (parsed.success && parsed.data.environment !== undefined) {
      const environment = parsed.data.environment;
      roots.set(
        trigger.flowId,
        (subject) => `a webhook trigger starts ${subject} with the stored environment "${environment}"`,
      );
    }
  }
  const direct = roots.get(target.id);
  if (direct !== undefined) return direct('this flow');
  return reachedAsSubflow(store, tenantId, roots, target.id);
}

/** Why a flow runs unattended, said of the flow as `subject`. */
type Reason = (subject: string) => string;

/** Why, when `flowId` is reached from a root through subflows (their current versions). */
async function reachedAsSubflow(
  store: Store,
  tenantId: string,
  roots: Map<string, Reason>,
  flowId: string,
): Promise<string | undefined> {
  // Each flow of the level, with why its root runs and the names on the way from it.
  let level = [...roots].map(([id, why]) => ({ id, why, path: [] as string[] }));
  const seen = new Set(roots.keys());
  for (let depth = 0; depth < MAX_SUBFLOW_LEVELS && level.length > 0; depth += 1) {
    const next: typeof level = [];
    for (const { id, why, path } of level) {
      const flow = await store.flows.get(tenantId, id);
      if (flow === undefined) continue;
      const route = [...path, `"${flow.name}"`];
      for (const child of subflowsOf(flow)) {
        if (child === flowId) {
          const root = route[0]!;
          const through = route.length > 1 ? ` (through ${route.slice(1).join(', ')})` : '';
          return `${why(`the flow ${root}`)}, which calls this flow as a subflow${through}`;
        }
        if (seen.has(child)) continue;
        seen.add(child);
        next.push({ id: child, why, path: route });
      }
    }
    level = next;
  }
  return undefined;
}

/** The flows a flow's subflow nodes name literally (a `{{…}}` id is only known at run time). */
function subflowsOf(flow: StoredFlow): string[] {
  return flow.nodes.flatMap((node) => {
    const flowId = (node.config as { flowId?: unknown } | undefined)?.flowId;
    return node.type === 'subflow' && typeof flowId === 'string' && !flowId.includes('{{') ? [flowId] : [];
  });
}
