import { createHmac } from 'node:crypto';

/**
 * The Standard Webhooks headers of a delivery (standardwebhooks.com): HMAC-SHA256 over
 * `<id>.<timestamp>.<body>`, keyed with the base64 bytes after the secret's `whsec_` prefix, sent
 * as `webhook-signature: v1,<base64>`. It is the computation `verifyWebhook` checks, the other way.
 * @example
 * signStandardWebhook({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: 1614265330, body: '{"test": 2432232314}' });
 * // { 'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek', 'webhook-timestamp': '1614265330', 'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' }
 */
export function signStandardWebhook(options: {
  secret: string;
  id: string;
  /** Unix seconds. */
  timestamp: number;
  body: string;
}): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const key = Buffer.from(options.secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key)
    .update(`${options.id}.${options.timestamp}.${options.body}`, 'utf8')
    .digest('base64');
  return {
    'webhook-id': options.id,
    'webhook-timestamp': String(options.timestamp),
    'webhook-signature': `v1,${signature}`,
  };
}
