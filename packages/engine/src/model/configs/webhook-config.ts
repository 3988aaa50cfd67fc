import { z } from 'zod';

export const WEBHOOK_MODES = ['trigger', 'wait'] as const;

export const VERIFICATION_METHODS = [
  'None',
  'HMAC-SHA256',
  'HMAC-SHA1',
  'Standard Webhooks',
  'Bearer Token',
  'Custom Header',
  'Pre-script',
] as const;

/** An HTTP header name (an RFC 9110 token): what a sender can actually send. */
const HEADER_NAME = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "a header name is letters, digits and !#$%&'*+.^_`|~-");

/**
 * A chosen trigger path: URL-safe segments joined by `/`, at most 128 characters. No segment is
 * empty, `.` or `..`: clients and proxies resolve those away (`zz/../orders/created` is sent as
 * `orders/created`), so the URL would reach whichever flow holds the resolved path.
 */
const TRIGGER_PATH = /^(?!\.\.?(?:\/|$))[A-Za-z0-9._~-]+(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9._~-]+)*$/;

/**
 * How an inbound request proves it comes from the sender. Secrets and expected values are
 * templates (`{{env.webhookSecret}}`) resolved against the run's stored environment.
 */
export const webhookVerificationSchema = z
  .strictObject({
    method: z.enum(VERIFICATION_METHODS).default('None'),
    /** HMAC: the signature header (default `X-Signature`). Custom Header: the header's name. */
    header: HEADER_NAME.optional(),
    /** HMAC and Standard Webhooks: the signing secret. Bearer Token: the expected token. */
    secret: z.string().min(1).optional(),
    /** Custom Header: the expected value. */
    value: z.string().min(1).optional(),
    /** HMAC: a header holding the request's time (Unix seconds), signed as `<timestamp>.<body>`. */
    timestampHeader: HEADER_NAME.optional(),
    /**
     * Oldest (and furthest in the future) a signed timestamp may be; default 300 when HMAC has a
     * `timestampHeader`, and for Standard Webhooks.
     */
    toleranceSeconds: z.number().int().positive().max(86_400).optional(),
    /** Pre-script: a JavaScript boolean over `headers`, `body`, `rawBody` and `secret`. */
    script: z.string().min(1).optional(),
  })
  .superRefine((value, ctx) => {
    const need = (field: 'header' | 'secret' | 'value' | 'script') => {
      if (value[field] === undefined) {
        ctx.addIssue({ code: 'custom', path: [field], message: `${value.method} verification needs ${field}` });
      }
    };
    if (['HMAC-SHA256', 'HMAC-SHA1', 'Standard Webhooks', 'Bearer Token'].includes(value.method)) need('secret');
    if (value.method === 'Custom Header') {
      need('header');
      need('value');
    }
    if (value.method === 'Pre-script') need('script');
    // A tolerance without a signed timestamp would protect against nothing while seeming to.
    if (
      value.method.startsWith('HMAC') &&
      value.toleranceSeconds !== undefined &&
      value.timestampHeader === undefined
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['toleranceSeconds'],
        message: 'toleranceSeconds needs timestampHeader: the tolerance applies to a signed timestamp',
      });
    }
    if (value.method === 'Standard Webhooks') {
      for (const field of ['header', 'timestampHeader'] as const) {
        if (value[field] !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `Standard Webhooks reads webhook-id, webhook-timestamp and webhook-signature; ${field} does not apply`,
          });
        }
      }
    }
  });

/**
 * `component-webhook`: in `trigger` mode the flow's public entry (`POST /webhooks/trigger/{path}`);
 * in `wait` mode the branch pauses until a verified `POST /webhooks/callback/{token}` arrives or
 * `timeoutMinutes` pass.
 */
export const webhookConfigSchema = z.strictObject({
  mode: z.enum(WEBHOOK_MODES).default('wait'),
  /** Trigger mode: `auto` (an unguessable id made at save time) or a path unique across the service. */
  path: z
    .string()
    .max(128)
    .refine((value) => value === 'auto' || TRIGGER_PATH.test(value), {
      message: 'path is "auto" or URL-safe segments (letters, digits, . _ ~ -) joined by /, none of them . or ..',
    })
    .default('auto'),
  /** Trigger mode: the stored environment the started run reads as `env`. */
  environment: z.string().min(1).optional(),
  /** Wait mode: how long to wait for the callback. */
  timeoutMinutes: z.number().positive().max(43_200).default(15),
  verification: webhookVerificationSchema.default({ method: 'None' }),
  /**
   * A JSON Schema (draft-07) the payload must satisfy, checked when the flow is saved
   * (`checkPayloadSchema`: size, depth, linear-time patterns, local non-recursive `$ref`s) and
   * against each payload (`createPayloadValidator`).
   */
  payloadSchema: z.record(z.string(), z.unknown()).optional(),
});

export type WebhookConfig = z.infer<typeof webhookConfigSchema>;
export type WebhookVerification = z.infer<typeof webhookVerificationSchema>;
