import { z } from 'zod';
import { parseDuration } from '../model/duration.js';
import { HEADER_VALUE_MESSAGE, isSendableHeaderValue } from '../model/header-value.js';
import { SECRET_MASK } from '../store/types.js';

/** How many alert channels one suite may have. */
export const MAX_ALERT_CHANNELS = 20;
/** Custom headers one webhook channel may send. */
export const MAX_ALERT_HEADERS = 20;
/** Reminders no more often than this, and no rarer than `MAX_REPEAT_EVERY_MS`. */
export const MIN_REPEAT_EVERY_MS = 60_000;
export const MAX_REPEAT_EVERY_MS = 7 * 24 * 3_600_000;
/** Where PagerDuty Events API v2 takes events unless a channel names another address (a proxy, EU). */
export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';
export const PAGERDUTY_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;

/**
 * Headers svc sets itself on a delivery, or that would change how it is framed: a channel may not
 * set them.
 */
const RESERVED_HEADERS = new Set([
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'host',
  'user-agent',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);

function isHttpUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

/**
 * An alert URL: http(s) only, where the engine's HTTP client (and its egress policy) can send.
 * `***` (what a read answers) keeps the stored URL on an update.
 */
const alertUrlSchema = z
  .string()
  .max(2048, 'at most 2048 characters')
  .refine((value) => value === SECRET_MASK || isHttpUrl(value), {
    message: 'must be an http:// or https:// URL',
  });

/**
 * A Standard Webhooks secret: `whsec_` and the base64 of 24 to 64 random bytes (the scheme's own
 * bounds); `***` keeps the stored one.
 */
const signingSecretSchema = z
  .string()
  .max(200)
  .refine(
    (value) => {
      if (value === SECRET_MASK) return true;
      const match = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(value);
      if (!match) return false;
      const bytes = Buffer.from(match[1]!, 'base64');
      return bytes.length >= 24 && bytes.length <= 64;
    },
    { message: 'must be whsec_ and the base64 of 24 to 64 random bytes (e.g. whsec_$(openssl rand -base64 32))' },
  );

/** A duration ("30m", "1h", or milliseconds) between reminders while a check keeps failing; null for none. */
const repeatEverySchema = z
  .union([z.number(), z.string().max(20)])
  .nullable()
  .superRefine((value, context) => {
    if (value === null) return;
    const ms = parseDuration(value);
    if (ms === undefined)
      context.addIssue({ code: 'custom', message: 'expected a duration such as "30m", "1h" or milliseconds' });
    else if (ms < MIN_REPEAT_EVERY_MS || ms > MAX_REPEAT_EVERY_MS)
      context.addIssue({ code: 'custom', message: 'must be between 1 minute and 7 days' });
  });

const headerNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'must be an HTTP header name')
  .refine((name) => !RESERVED_HEADERS.has(name.toLowerCase()), 'is set by svc itself');

const headersSchema = z
  .record(headerNameSchema, z.string().max(4096).refine(isSendableHeaderValue, HEADER_VALUE_MESSAGE))
  .refine((headers) => Object.keys(headers).length <= MAX_ALERT_HEADERS, `at most ${MAX_ALERT_HEADERS} headers`);

const common = {
  name: z.string().trim().min(1).max(100),
  /** A disabled channel is kept but sent nothing. */
  enabled: z.boolean().default(true),
  repeatEvery: repeatEverySchema.optional(),
  /** Sign each delivery with the Standard Webhooks scheme (`webhook-id`, `webhook-timestamp`, `webhook-signature`). */
  signingSecret: signingSecretSchema.nullable().optional(),
};

/**
 * An alert channel as a client sends it (REST body). The secret parts (`url` of a webhook or
 * Slack channel, `routingKey`, `signingSecret`, header values) are stored sealed and read back as
 * `***`; sending `***` back on an update keeps the stored value.
 */
export const alertChannelBodySchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('webhook'),
      ...common,
      url: alertUrlSchema,
      /** Sent with every delivery (e.g. `Authorization`); their values are secret. */
      headers: headersSchema.optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal('slack'),
      ...common,
      /** The incoming webhook URL (`https://hooks.slack.com/services/…`, or any Slack-compatible one). */
      url: alertUrlSchema,
    })
    .strict(),
  z
    .object({
      type: z.literal('pagerduty'),
      ...common,
      /** The integration's routing key (Events API v2). */
      routingKey: z.string().min(1).max(200),
      /** The Events API address (default PagerDuty's own); not secret. */
      url: alertUrlSchema.refine((value) => value !== SECRET_MASK, 'must be an http:// or https:// URL').optional(),
      severity: z.enum(PAGERDUTY_SEVERITIES).default('critical'),
    })
    .strict(),
]);

export type AlertChannelBody = z.output<typeof alertChannelBodySchema>;
export type AlertChannelBodyInput = z.input<typeof alertChannelBodySchema>;
