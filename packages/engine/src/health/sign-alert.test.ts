import { describe, expect, it } from 'vitest';
import { verifyWebhook } from '../webhooks/verify-webhook.js';
import { signStandardWebhook } from './sign-alert.js';

describe('signing an alert with the Standard Webhooks scheme', () => {
  // The scheme's published example (standardwebhooks.com, the libraries' test vector).
  const vector = {
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    timestamp: 1614265330,
    body: '{"test": 2432232314}',
  };

  it('computes the published signature', () => {
    expect(signStandardWebhook(vector)).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('is what verifyWebhook accepts, and a changed byte is refused', async () => {
    const headers = signStandardWebhook(vector);
    const check = (body: string) =>
      verifyWebhook(
        { method: 'Standard Webhooks', secret: vector.secret },
        { rawBody: new TextEncoder().encode(body), headers },
        { sandbox: undefined as never, now: vector.timestamp * 1000 },
      );
    expect(await check(vector.body)).toMatchObject({ verified: true });
    expect((await check(vector.body.replace('4', '5'))).verified).toBe(false);
  });
});
