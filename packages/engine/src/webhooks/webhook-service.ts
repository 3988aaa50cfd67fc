import { createHash } from 'node:crypto';
import { BoundedMap } from '../bounded-map.js';
import type { Clock } from '../clock.js';
import type { EnvironmentService, RunEnvironment } from '../environments/environment-service.js';
import { SvcError } from '../errors.js';
import type { TemplateResolver } from '../expressions/resolve-value.js';
import type { Logger } from '../logger.js';
import { assertJsonDepth, jsonTextNestsDeeper, MAX_JSON_DEPTH } from '../model/json-depth.js';
import { webhookConfigSchema, type WebhookConfig, type WebhookVerification } from '../model/configs/webhook-config.js';
import type { JsSandbox } from '../nodes/types.js';
import type { StartExecutionRequest } from '../runtime/executor.js';
import { TERMINAL_STATUSES, type ExecutionRecord, type Store, type StoredFlow } from '../store/types.js';
import { hashCallbackToken } from './callback-token.js';
import type { CallbackWaits } from './callback-waits.js';
import { createPayloadValidator } from './payload-schema.js';
import { uuidV7 } from '../runtime/uuid-v7.js';
import { TRIGGER_PATH_PREFIX } from './trigger-paths.js';
import { verifyWebhook, type InboundWebhook, type ReplayIdentity } from './verify-webhook.js';

/** An inbound webhook request as the gateway received it. */
export interface InboundRequest extends InboundWebhook {
  /** The `Content-Type` header, as sent. */
  contentType: string | undefined;
}

/** A flow's public entry: where to POST to start it. */
export interface FlowTrigger {
  nodeId: string;
  nodeName: string;
  path: string;
  url: string;
}

export interface WebhookService {
  /**
   * Starts the flow whose trigger node holds `path` with the request as that node's output.
   * Throws `WEBHOOK_NOT_FOUND` (no such path, or its flow deleted), `UNSUPPORTED_MEDIA_TYPE`,
   * `VALIDATION_ERROR` (JSON nested deeper than `MAX_JSON_DEPTH`), `WEBHOOK_UNVERIFIED`,
   * `MALFORMED_JSON` or `PAYLOAD_INVALID`; none of them starts anything. A verified request
   * taken before (its Standard Webhooks id, or its timestamped signature, within the tolerance)
   * starts nothing and answers the execution it started, `duplicate`; while that first request is
   * still being taken, `WEBHOOK_IN_PROGRESS`.
   */
  trigger(path: string, request: InboundRequest): Promise<{ executionId: string; duplicate?: true }>;
  /**
   * Stores a verified callback for the wait its token names and wakes the wait. Throws
   * `WEBHOOK_NOT_FOUND` (unknown token), `WEBHOOK_GONE` (the wait or its execution ended),
   * `WEBHOOK_TOKEN_USED`, `UNSUPPORTED_MEDIA_TYPE`, `VALIDATION_ERROR` (too deep),
   * `WEBHOOK_UNVERIFIED`, `MALFORMED_JSON` or `PAYLOAD_INVALID`; none of them changes the execution.
   */
  callback(token: string, request: InboundRequest): Promise<{ executionId: string }>;
  /**
   * The flow as every door reads it: with `webhookTriggers`, its public trigger URLs, when it has
   * a trigger node (saving ignores the field).
   */
  withTriggers(tenantId: string, flow: StoredFlow): Promise<StoredFlow & { webhookTriggers?: FlowTrigger[] }>;
}

export interface WebhookServiceOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  sandbox: JsSandbox;
  resolver: TemplateResolver;
  environments: EnvironmentService;
  callbacks: CallbackWaits;
  /** The service's public base URL (`SVC_PUBLIC_URL`). */
  publicUrl: () => string;
  start(request: StartExecutionRequest): Promise<ExecutionRecord>;
  /** Tells the executor a wait's callback is stored. */
  callbackArrived(target: { executionId: string; nodeId: string; scope: string }): Promise<void>;
}

/**
 * A receipt claimed this long ago whose execution does not exist was left by a process that
 * stopped in between: the request's retry takes it over (a start takes milliseconds).
 */
const ABANDONED_RECEIPT_MS = 60_000;

/** Request headers a run never keeps: credentials of the sender, whatever the flow verifies. */
const WITHHELD_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

function unknownToken(): SvcError {
  return new SvcError('WEBHOOK_NOT_FOUND', 'unknown callback token');
}

function unknownPath(path: string): SvcError {
  return new SvcError('WEBHOOK_NOT_FOUND', `no flow starts at /webhooks/trigger/${path}`);
}

function isJson(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/**
 * Inbound webhooks: triggers that start flows and callbacks that resume waits. Public doors (no
 * credentials of svc), so the node's verification method is the lock, checked over the exact bytes
 * received before anything is parsed or stored, and no answer tells a stranger more than the
 * status it needs.
 */
export function createWebhookService(options: WebhookServiceOptions): WebhookService {
  const { store, clock, callbacks } = options;
  const payloads = createPayloadValidator();

  /** The verification settings with their templates (`{{env.webhookSecret}}`) read from `env`. */
  const settingsFor = (verification: WebhookVerification, env: Record<string, unknown>): WebhookVerification => {
    const scope = { lookup: (root: string) => (root === 'env' ? env : undefined), responseBinding: () => undefined };
    return options.resolver.resolve(verification, scope) as WebhookVerification;
  };

  /**
   * The body's text, once its type is JSON and it nests no deeper than `MAX_JSON_DEPTH`: checked
   * before the environment is read or a signature computed, since no verified sender could get
   * such a body accepted (its run or callback would not store). Answers the text to parse.
   */
  const screen = (request: InboundRequest): string => {
    if (!isJson(request.contentType)) {
      throw new SvcError('UNSUPPORTED_MEDIA_TYPE', 'a webhook body is JSON: send Content-Type: application/json');
    }
    const text = Buffer.from(request.rawBody).toString('utf8');
    // A scan of the brackets first: a body within the limit, the usual one, is not parsed here.
    if (jsonTextNestsDeeper(text, MAX_JSON_DEPTH)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text) as unknown;
      } catch {
        return text; // Not JSON: MALFORMED_JSON once verified, as any other broken body.
      }
      assertJsonDepth(parsed, 'body');
    }
    return text;
  };

  /** Signature, JSON and schema, in that order: the body is parsed only once verified. */
  const accept = async (
    config: WebhookConfig,
    env: Record<string, unknown>,
    request: InboundRequest,
    text: string,
    where: Record<string, string>,
  ): Promise<{ body: unknown; headers: Record<string, string>; replay: ReplayIdentity | undefined }> => {
    let settings: WebhookVerification;
    try {
      settings = settingsFor(config.verification, env);
    } catch (error) {
      // The sender is not told how the receiver is set up; the operator is.
      options.logger.warn('webhook verification settings do not resolve', { ...where, error: String(error) });
      throw new SvcError('WEBHOOK_UNVERIFIED', 'the request could not be verified');
    }
    const outcome = await verifyWebhook(settings, request, { sandbox: options.sandbox, now: clock.now() });
    if (!outcome.verified) {
      // What only the operator may read (a Pre-script's error) goes to the log, never to the sender.
      if (outcome.detail !== undefined) {
        options.logger.warn('a webhook request failed verification', {
          ...where,
          method: settings.method,
          reason: outcome.reason,
          detail: outcome.detail,
        });
      }
      throw new SvcError('WEBHOOK_UNVERIFIED', `the request could not be verified: ${outcome.reason}`);
    }
    let body: unknown;
    try {
      body = text.length === 0 ? null : (JSON.parse(text) as unknown);
    } catch {
      throw new SvcError('MALFORMED_JSON', 'the body is not valid JSON');
    }
    if (config.payloadSchema !== undefined) {
      const problems = payloads.check(config.payloadSchema, body);
      if (problems.length > 0) {
        throw new SvcError(
          'PAYLOAD_INVALID',
          `the payload does not match the schema: ${problems
            .slice(0, 5)
            .map((problem) => `${problem.path}: ${problem.message}`)
            .join('; ')}`,
          { details: { problems } },
        );
      }
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      headers[name] = WITHHELD_HEADERS.has(name) ? '***' : value;
    }
    return { body, headers, replay: outcome.replay };
  };

  const webhookNode = (flow: StoredFlow, nodeId: string): WebhookConfig | undefined => {
    const node = flow.nodes.find((candidate) => candidate.id === nodeId);
    if (node?.type !== 'component-webhook') return undefined;
    const parsed = webhookConfigSchema.safeParse(node.config);
    if (parsed.success) return parsed.data;
    // Saved under a rule since tightened (a trigger path with a `..` segment): its door is closed
    // until the flow is saved again, corrected.
    options.logger.warn('a stored webhook node no longer validates; its flow must be saved again', {
      flowId: flow.id,
      version: flow.version,
      nodeId,
      problems: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    });
    return undefined;
  };

  /*
   * A webhook node's settings by flow version and node (triggers and waits alike). A saved version never changes, so an
   * entry never goes stale: what may change (the path's owner, the flow's current version, its
   * deletion) is read from the store on every request, and a new version is a new key.
   */
  const webhookConfigs = new BoundedMap<string, { config: WebhookConfig | undefined }>(500);
  const webhookConfigOf = async (
    tenantId: string,
    flowId: string,
    version: number,
    nodeId: string,
  ): Promise<WebhookConfig | undefined> => {
    const key = `${tenantId}\u0000${flowId}\u0000${version}\u0000${nodeId}`;
    const kept = webhookConfigs.get(key);
    if (kept !== undefined) return kept.config;
    const flow = await store.flows.getVersion(tenantId, flowId, version);
    // Not found is not kept: the version may be one another process is saving right now.
    if (flow === undefined) return undefined;
    const config = webhookNode(flow, nodeId);
    webhookConfigs.set(key, { config });
    return config;
  };

  /**
   * Starts the run of a request that has a replay identity unless the same request was taken
   * before: its receipt, claimed in the store first, is what every process checks. A run that does
   * not start gives its receipt back, so that the sender's retry is taken.
   */
  const startOnce = async (
    tenantId: string,
    path: string,
    replay: ReplayIdentity,
    start: (id: string) => Promise<ExecutionRecord>,
  ): Promise<{ executionId: string; duplicate?: true }> => {
    const now = clock.now();
    const receipt = {
      tenantId,
      path,
      key: createHash('sha256').update(replay.key).digest('hex'),
      executionId: uuidV7(),
      claimedAt: now,
      expiresAt: replay.expiresAt,
    };
    const held = await store.webhooks.claimReceipt(receipt, { abandonedBefore: now - ABANDONED_RECEIPT_MS });
    if (!held.claimed) {
      if ((await store.executions.get(tenantId, held.executionId)) === undefined) {
        throw new SvcError('WEBHOOK_IN_PROGRESS', 'the same request is being taken now; retry in a moment', {
          retryable: true,
        });
      }
      return { executionId: held.executionId, duplicate: true };
    }
    try {
      await start(receipt.executionId);
    } catch (error) {
      await store.webhooks.releaseReceipt(receipt).catch((releaseError: unknown) =>
        options.logger.error('a webhook receipt could not be released', {
          tenantId,
          path,
          error: String(releaseError),
        }),
      );
      throw error;
    }
    return { executionId: receipt.executionId };
  };

  return {
    async trigger(path, request) {
      const route = await store.webhooks.findTrigger(path);
      if (route === undefined) throw unknownPath(path);
      // Undefined for a deleted flow (its path is freed just after the flow is deleted).
      const version = await store.flows.currentVersion(route.tenantId, route.flowId);
      const config =
        version === undefined ? undefined : await webhookConfigOf(route.tenantId, route.flowId, version, route.nodeId);
      if (version === undefined || config?.mode !== 'trigger') throw unknownPath(path);
      const flow = { id: route.flowId, version };
      const text = screen(request);
      let environment: RunEnvironment = { env: {}, secretKeys: [], redirectedKeys: [] };
      if (config.environment !== undefined) {
        try {
          environment = await options.environments.resolveRun(route.tenantId, { env: config.environment });
        } catch (error) {
          options.logger.warn('a webhook trigger names an environment that cannot be read', {
            tenantId: route.tenantId,
            flowId: route.flowId,
            environment: config.environment,
            error: String(error),
          });
          throw new SvcError('WEBHOOK_UNVERIFIED', 'the request could not be verified');
        }
      }
      const { replay, ...accepted } = await accept(config, environment.env, request, text, {
        tenantId: route.tenantId,
        flowId: flow.id,
      });
      const start = (id?: string) =>
        options.start({
          ...(id === undefined ? {} : { id }),
          tenantId: route.tenantId,
          flowId: flow.id,
          version: flow.version,
          env: environment.env,
          secretKeys: environment.secretKeys,
          trigger: { type: 'webhook', path, nodeId: route.nodeId, request: accepted },
        });
      if (replay === undefined) return { executionId: (await start()).id };
      return startOnce(route.tenantId, path, replay, start);
    },

    async callback(token, request) {
      const target = callbacks.tokens.open(token);
      if (target === undefined) throw unknownToken();
      const execution = await store.executions.get(target.tenantId, target.executionId);
      if (execution === undefined) throw unknownToken();
      const config = await webhookConfigOf(target.tenantId, execution.flowId, execution.flowVersion, target.nodeId);
      if (config?.mode !== 'wait') throw unknownToken();
      const tokenHash = hashCallbackToken(token);
      if ((await store.webhooks.getDelivery(target.tenantId, tokenHash)) !== undefined) {
        throw new SvcError('WEBHOOK_TOKEN_USED', 'this callback token was used already');
      }
      if (TERMINAL_STATUSES.has(execution.status)) {
        throw new SvcError('WEBHOOK_GONE', `the execution ended (${execution.status}); it takes no more callbacks`);
      }
      const steps = await store.executions.listSteps(target.tenantId, target.executionId);
      const ended = steps.find(
        (step) => step.nodeId === target.nodeId && step.scope === target.scope && step.status !== 'Waiting',
      );
      if (ended !== undefined) {
        const why = ended.error?.code === 'WEBHOOK_TIMEOUT' ? 'timed out' : `ended ${ended.status.toLowerCase()}`;
        throw new SvcError('WEBHOOK_GONE', `the wait ${why}; it takes no more callbacks`);
      }
      const text = screen(request);
      const accepted = await accept(config, execution.env, request, text, {
        tenantId: target.tenantId,
        executionId: target.executionId,
      });
      const now = clock.now();
      await store.webhooks.addDelivery(
        {
          tokenHash,
          tenantId: target.tenantId,
          executionId: target.executionId,
          nodeId: target.nodeId,
          scope: target.scope,
          body: accepted.body,
          headers: accepted.headers,
          receivedAt: now,
        },
        { wakeAt: now },
      );
      await options.callbackArrived(target);
      return { executionId: target.executionId };
    },

    async withTriggers(tenantId, flow) {
      const held = await store.webhooks.listTriggers(tenantId, flow.id);
      if (held.length === 0) return flow;
      const names = new Map(flow.nodes.map((node) => [node.id, node.name]));
      const webhookTriggers = held.map((trigger) => ({
        nodeId: trigger.nodeId,
        nodeName: names.get(trigger.nodeId) ?? trigger.nodeId,
        path: trigger.path,
        url: `${options.publicUrl().replace(/\/+$/, '')}${TRIGGER_PATH_PREFIX}${trigger.path}`,
      }));
      return { ...flow, webhookTriggers };
    },
  };
}
