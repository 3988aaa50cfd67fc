import type { z } from 'zod';
import { SvcError } from '../errors.js';
import { parseDuration } from '../model/duration.js';
import type { ValidationProblem } from '../model/validate-flow.js';
import { formatJsonPath } from '../model/walk-strings.js';
import type { AlertChannelDefinition, AlertChannelRecord, AlertChannelType } from '../store/health-types.js';
import { SECRET_MASK, type Store, type SuiteRecord } from '../store/types.js';
import {
  alertChannelBodySchema,
  MAX_ALERT_CHANNELS,
  PAGERDUTY_EVENTS_URL,
  type AlertChannelBody,
} from './alert-channel-schema.js';

/** Prefix of a custom header's secret: `header.Authorization`. */
export const HEADER_SECRET_PREFIX = 'header.';

/**
 * A channel as every read answers it: each secret part is `***`, and `destination` shows where
 * it sends (the URL's scheme, host and port) without the path or query that hold its token.
 */
export interface AlertChannelView {
  id: string;
  suiteId: string;
  name: string;
  type: AlertChannelType;
  enabled: boolean;
  /** Milliseconds between reminders while a check keeps failing; null for none. */
  repeatEvery: number | null;
  /** `***` for webhook and Slack channels (the URL holds their token); PagerDuty's Events API address as is. */
  url: string;
  destination: string;
  /** PagerDuty only: `***`. */
  routingKey?: string;
  /** PagerDuty only. */
  severity?: string;
  /** Webhook only: the header names, each value `***`. */
  headers?: Record<string, string>;
  /** `***` when deliveries are signed (Standard Webhooks), else null. */
  signingSecret: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface AlertChannelService {
  /** By name. `SUITE_NOT_FOUND` for a suite the tenant does not have. */
  list(tenantId: string, suiteId: string): Promise<AlertChannelView[]>;
  /** `ALERT_CHANNEL_NOT_FOUND` for an id the suite does not have. */
  get(tenantId: string, suiteId: string, channelId: string): Promise<AlertChannelView>;
  /**
   * Validates `body` (`alertChannelBodySchema`; a URL that is not http(s) is `VALIDATION_ERROR`
   * naming `url`) and adds the channel to a health-check suite.
   */
  create(tenantId: string, suiteId: string, body: unknown): Promise<AlertChannelView>;
  /**
   * Replaces the channel; a secret sent as `***` keeps its stored value while the destination (scheme, host and
   * port) stays the same, and is `VALIDATION_ERROR` naming the field when it changes.
   */
  update(tenantId: string, suiteId: string, channelId: string, body: unknown): Promise<AlertChannelView>;
  delete(tenantId: string, suiteId: string, channelId: string): Promise<AlertChannelView>;
}

function validationError(problems: ValidationProblem[]): SvcError {
  const shown = problems.slice(0, 5).map((problem) => `${problem.path}: ${problem.message}`);
  const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
  return new SvcError('VALIDATION_ERROR', `the alert channel does not validate: ${shown.join('; ')}${more}`, {
    details: { problems },
  });
}

function zodProblems(error: z.ZodError): ValidationProblem[] {
  return error.issues.flatMap((issue): ValidationProblem[] =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          code: 'UNKNOWN_FIELD',
          message: `unknown field "${key}"`,
          path: formatJsonPath([...issue.path, key]),
        }))
      : [{ code: 'INVALID_FIELD', message: issue.message, path: formatJsonPath(issue.path) }],
  );
}

/** Scheme, host and port of a URL: where a channel sends, without the token its path or query holds. */
export function destinationOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

/** Where a stored channel sends: the scheme, host and port saved with it. */
function destinationOfRecord(record: AlertChannelRecord): string {
  return (record.settings as { destination?: string }).destination ?? '';
}

/** The secrets a body gives, by stored name; `***` stands for the stored value. */
function secretsOf(body: AlertChannelBody): Record<string, string> {
  const secrets: Record<string, string> = {};
  if (body.type === 'pagerduty') secrets.routingKey = body.routingKey;
  else secrets.url = body.url;
  if (body.signingSecret) secrets.signingSecret = body.signingSecret;
  if (body.type === 'webhook')
    for (const [name, value] of Object.entries(body.headers ?? {})) secrets[`${HEADER_SECRET_PREFIX}${name}`] = value;
  return secrets;
}

function toView(record: AlertChannelRecord): AlertChannelView {
  const settings = record.settings as { destination?: string; url?: string; severity?: string };
  const secret = (key: string) => record.secretKeys.includes(key);
  const view: AlertChannelView = {
    id: record.id,
    suiteId: record.suiteId,
    name: record.name,
    type: record.type,
    enabled: record.enabled,
    repeatEvery: record.repeatEveryMs,
    url: record.type === 'pagerduty' ? (settings.url ?? PAGERDUTY_EVENTS_URL) : SECRET_MASK,
    destination: settings.destination ?? '',
    signingSecret: secret('signingSecret') ? SECRET_MASK : null,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
  if (record.type === 'pagerduty') {
    view.routingKey = SECRET_MASK;
    view.severity = settings.severity ?? 'critical';
  }
  if (record.type === 'webhook') {
    view.headers = Object.fromEntries(
      record.secretKeys
        .filter((key) => key.startsWith(HEADER_SECRET_PREFIX))
        .map((key) => [key.slice(HEADER_SECRET_PREFIX.length), SECRET_MASK]),
    );
  }
  return view;
}

/**
 * Alert channels of health-check suites, for every door. Secret parts never leave the store but
 * to be sent: reads answer `***`.
 * @example
 * await engine.health.channels.create('acme', suite.id, {
 *   type: 'slack', name: 'ops', url: 'https://hooks.slack.com/services/T000/B000/XXXX', repeatEvery: '1h',
 * });
 */
export function createAlertChannelService(store: Store): AlertChannelService {
  const repository = store.alertChannels;

  const suiteOf = async (tenantId: string, suiteId: string): Promise<SuiteRecord> => {
    const suite = await store.suites.get(tenantId, suiteId);
    if (!suite) throw new SvcError('SUITE_NOT_FOUND', `suite "${suiteId}" not found`);
    return suite;
  };
  const find = async (tenantId: string, suiteId: string, channelId: string): Promise<AlertChannelRecord> => {
    await suiteOf(tenantId, suiteId);
    const channel = await repository.get(tenantId, suiteId, channelId);
    if (!channel)
      throw new SvcError('ALERT_CHANNEL_NOT_FOUND', `alert channel "${channelId}" not found in suite "${suiteId}"`);
    return channel;
  };

  /** The body parsed, with `***` secrets replaced by the stored values of `current` (or refused). */
  const definitionOf = async (
    tenantId: string,
    input: unknown,
    current?: AlertChannelRecord,
  ): Promise<AlertChannelDefinition> => {
    const parsed = alertChannelBodySchema.safeParse(input);
    if (!parsed.success) throw validationError(zodProblems(parsed.error));
    const body = parsed.data;
    const secrets = secretsOf(body);
    const masked = Object.keys(secrets).filter((key) => secrets[key] === SECRET_MASK);
    if (masked.length > 0) {
      const stored = current ? await repository.openSecrets(tenantId, current.id) : undefined;
      const storedDestination = current ? destinationOfRecord(current) : undefined;
      // `***` for the URL keeps the stored one, so it keeps the destination too.
      const destination =
        body.type === 'pagerduty'
          ? destinationOf(body.url ?? PAGERDUTY_EVENTS_URL)
          : body.url === SECRET_MASK
            ? storedDestination
            : destinationOf(body.url);
      const problems: ValidationProblem[] = [];
      for (const key of masked) {
        const kept = stored?.[key];
        const path = key.startsWith(HEADER_SECRET_PREFIX)
          ? formatJsonPath(['headers', key.slice(HEADER_SECRET_PREFIX.length)])
          : key;
        if (kept === undefined)
          problems.push({
            code: 'INVALID_FIELD',
            message: `"***" keeps a stored value, and this channel has none here; give the value itself`,
            path,
          });
        // A secret was given for one destination: kept for another, it would go (or sign for) wherever the
        // writer points the channel, though the writer cannot read it.
        else if (destination !== storedDestination)
          problems.push({
            code: 'INVALID_FIELD',
            message: `"***" keeps a stored value only for the destination it was given for (${storedDestination}), and this update sends to ${destination}: send the value again when the destination changes`,
            path,
          });
        else secrets[key] = kept;
      }
      if (problems.length > 0) throw validationError(problems);
    }
    const settings: Record<string, unknown> = {};
    if (body.type === 'pagerduty') {
      settings.url = body.url ?? PAGERDUTY_EVENTS_URL;
      settings.severity = body.severity;
      settings.destination = destinationOf(body.url ?? PAGERDUTY_EVENTS_URL);
    } else settings.destination = destinationOf(secrets.url!);
    return {
      name: body.name,
      type: body.type,
      enabled: body.enabled,
      repeatEveryMs:
        body.repeatEvery === undefined || body.repeatEvery === null ? null : parseDuration(body.repeatEvery)!,
      settings,
      secrets,
    };
  };

  return {
    async list(tenantId, suiteId) {
      await suiteOf(tenantId, suiteId);
      return (await repository.list(tenantId, suiteId)).map(toView);
    },

    async get(tenantId, suiteId, channelId) {
      return toView(await find(tenantId, suiteId, channelId));
    },

    async create(tenantId, suiteId, body) {
      const suite = await suiteOf(tenantId, suiteId);
      const definition = await definitionOf(tenantId, body);
      if (suite.kind !== 'health-check') {
        throw validationError([
          {
            code: 'NOT_A_HEALTH_CHECK_SUITE',
            message: `alert channels belong to health-check suites; suite "${suite.name}" is of kind "${suite.kind}" (save it with kind "health-check")`,
            path: 'suiteId',
          },
        ]);
      }
      if ((await repository.list(tenantId, suiteId)).length >= MAX_ALERT_CHANNELS) {
        throw validationError([
          { code: 'TOO_MANY_CHANNELS', message: `a suite has at most ${MAX_ALERT_CHANNELS} alert channels`, path: '' },
        ]);
      }
      return toView(await repository.create(tenantId, suiteId, definition));
    },

    async update(tenantId, suiteId, channelId, body) {
      const current = await find(tenantId, suiteId, channelId);
      const definition = await definitionOf(tenantId, body, current);
      return toView(await repository.update(tenantId, suiteId, channelId, definition));
    },

    async delete(tenantId, suiteId, channelId) {
      const current = await find(tenantId, suiteId, channelId);
      if (!(await repository.delete(tenantId, suiteId, channelId)))
        throw new SvcError('ALERT_CHANNEL_NOT_FOUND', `alert channel "${channelId}" not found in suite "${suiteId}"`);
      return toView(current);
    },
  };
}
