/**
 * A roadmap: the plan the planner proposes for a plain-language requirement, as plain data.
 * Steps are in run order (every binding's producer comes before its consumer); the scaffolder
 * turns a roadmap into a flow with one `endpoint` node per step.
 */
/** Below this a plan is more often wrong than right: its candidates are shown and a note says so. */
export const LOW_CONFIDENCE = 0.8;

export interface Roadmap {
  requirement: string;
  steps: RoadmapStep[];
  bindings: RoadmapBinding[];
  /** Values no step produces: they become `flowVars` of the scaffolded flow. */
  inputs: RoadmapInput[];
  /**
   * 0–1, calibrated: about the share of plans like this one that are right (its weakest action's
   * score and lead over the runner-up, the steps inferred to feed others, values left unused).
   */
  confidence: number;
  /** The actions the requirement was read as, each with its ranked candidates (the runner-ups). */
  actions: RoadmapAction[];
  /** Whether a model chose among the candidates (`sampling`) or the scores alone did. */
  decidedBy: 'scores' | 'sampling';
  /** What a reader should know about how the plan was made, e.g. that a model could not be asked. */
  notes?: string[];
}

export interface RoadmapStep {
  /** The node name in a scaffolded flow, e.g. `GetCurrentUser`; unique within the roadmap. */
  name: string;
  endpointId: string;
  specId: string;
  /** As the spec writes them, e.g. `GET` and `/users/{user_id}/menus`. */
  method: string;
  path: string;
  summary: string;
  /** Why it is here, e.g. `matches "create menu": summary "Create a Menu", POST creates`. */
  reason: string;
  /** 0–1 match score of the endpoint for its action; producers added for a binding carry that binding's confidence. */
  score: number;
  /** `requested` when an action of the requirement chose it; `producer` when added to feed a later step. */
  role: 'requested' | 'producer';
  /** Index into `actions` for requested steps. */
  action?: number;
}

/** Where a value goes: a parameter of a step, or a field of its JSON body (dotted path). */
export interface RoadmapTarget {
  step: string;
  in: 'path' | 'query' | 'header' | 'body';
  /** Parameter name, or the body field's dotted path (`customer.id`). */
  name: string;
}

export interface RoadmapBinding {
  /** The template the scaffolded node uses, e.g. `{{ResponseBinding.GetCurrentUser.body.id}}`. */
  expression: string;
  from: { step: string; source: 'body' | 'headers'; path: string };
  to: RoadmapTarget;
  /** 0–1. */
  confidence: number;
  reason: string;
}

export interface RoadmapInput {
  /** The `flowVars` name, e.g. `menuName`. */
  name: string;
  description: string;
  required: boolean;
  /** The JSON schema of the value, where the spec gives one. */
  schema?: unknown;
  example?: unknown;
  usedBy: RoadmapTarget[];
}

export interface RoadmapCandidate {
  endpointId: string;
  method: string;
  path: string;
  summary: string;
  score: number;
  reasons: string[];
}

export interface RoadmapAction {
  /** The words of the requirement this action was read from, e.g. `create a menu`. */
  phrase: string;
  /** Ranked best first; the first is the one chosen unless `chosen` says otherwise. */
  candidates: RoadmapCandidate[];
  /** Index into `candidates` of the endpoint taken, or null when nothing matched well enough. */
  chosen: number | null;
  /**
   * Set when the action is the choice of a producer: the input its step feeds. Its candidates
   * are the endpoints that offer that value, best first.
   */
  feeds?: RoadmapTarget;
}
