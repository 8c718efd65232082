import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError, webhookSecret } from './webhooks.ts';

const SIGNING_SECRET = 'vt_sign_example-secret-of-a-project';
const BODY = JSON.stringify({ job_id: 'job_01JABCDEFGHJKMNPQRSTVWXYZ0', status: 'failed', error: 'nope' });

/** A delivery signed by the reference Standard Webhooks library. */
function delivery(at: Date, body = BODY) {
  const id = `msg_${crypto.randomUUID()}`;
  const signature = new Webhook(webhookSecret(SIGNING_SECRET)).sign(id, at, body);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

describe('verifyWebhook', () => {
  const now = new Date('2026-11-28T10:00:00Z');

  it("accepts what the reference library signs, and the reference library accepts the SDK's secret", () => {
    const headers = delivery(now);
    expect(verifyWebhook({ secret: webhookSecret(SIGNING_SECRET), headers, body: BODY, now })).toEqual(
      JSON.parse(BODY),
    );
    expect(
      verifyWebhook({
        secret: webhookSecret(SIGNING_SECRET),
        headers: new Headers(headers),
        body: BODY,
        now,
      }),
    ).toMatchObject({ status: 'failed' });
    // Several signatures (a key rotation): one match is enough.
    const rotated = {
      ...headers,
      'webhook-signature': `v1,${'A'.repeat(44)} ${headers['webhook-signature']}`,
    };
    expect(
      verifyWebhook({ secret: webhookSecret(SIGNING_SECRET), headers: rotated, body: BODY, now }),
    ).toBeDefined();
  });

  it('refuses a changed body, another secret, a stale or future timestamp, and missing headers', () => {
    const secret = webhookSecret(SIGNING_SECRET);
    const headers = delivery(now);
    const refused = (options: Partial<Parameters<typeof verifyWebhook>[0]>) =>
      expect(() => verifyWebhook({ secret, headers, body: BODY, now, ...options })).toThrow(
        WebhookVerificationError,
      );
    refused({ body: BODY.replace('nope', 'yes') });
    refused({ secret: webhookSecret('another secret') });
    refused({ secret: SIGNING_SECRET });
    refused({ now: new Date(now.getTime() + 301_000) });
    refused({ now: new Date(now.getTime() - 301_000) });
    refused({ headers: { ...headers, 'webhook-signature': undefined } });
    // Within a wider tolerance the same delivery passes.
    expect(
      verifyWebhook({
        secret,
        headers,
        body: BODY,
        now: new Date(now.getTime() + 301_000),
        toleranceSeconds: 600,
      }),
    ).toBeDefined();
  });

  it('signs exactly as the reference verifier expects: it accepts a delivery signed by this recipe', () => {
    const id = 'msg_1';
    const timestamp = Math.floor(Date.now() / 1000);
    const key = Buffer.from(SIGNING_SECRET, 'utf8');
    const signature = crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${BODY}`).digest('base64');
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': `v1,${signature}`,
    };
    expect(new Webhook(webhookSecret(SIGNING_SECRET)).verify(BODY, headers)).toEqual(JSON.parse(BODY));
    expect(verifyWebhook({ secret: webhookSecret(SIGNING_SECRET), headers, body: BODY })).toEqual(
      JSON.parse(BODY),
    );
  });
});
