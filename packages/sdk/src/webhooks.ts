import crypto from 'node:crypto';
import type { WebhookPayload } from './types.ts';

/** Why a delivery was refused: missing headers, a stale timestamp, or no matching signature. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/**
 * The Standard Webhooks secret (`whsec_` + base64 of the key) of a project's signing secret:
 * deliveries are signed with the signing secret's UTF-8 bytes as the HMAC key (docs/decisions.md),
 * so this is what the reference `standardwebhooks` library and `verifyWebhook` are given.
 */
export function webhookSecret(signingSecret: string): string {
  return `whsec_${Buffer.from(signingSecret, 'utf8').toString('base64')}`;
}

export interface VerifyWebhookOptions {
  /** `whsec_...` (see `webhookSecret`). */
  secret: string;
  /** The delivery's headers: a `Headers`, or Node's `IncomingHttpHeaders`. */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The raw body, exactly as received (parse it after verifying, never before). */
  body: string | Uint8Array;
  /** How far `webhook-timestamp` may be from now, in seconds; default 300 (replays are refused). */
  toleranceSeconds?: number;
  now?: Date;
}

function header(headers: VerifyWebhookOptions['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Verifies a webhook delivery per Standard Webhooks and returns its payload: HMAC-SHA256 of
 * `webhook-id.webhook-timestamp.body` with the secret's key, compared in constant time with each
 * `v1,<base64>` of `webhook-signature`, and the timestamp within the tolerance.
 */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookPayload {
  const id = header(options.headers, 'webhook-id');
  const timestamp = header(options.headers, 'webhook-timestamp');
  const signatures = header(options.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature');
  }
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('Invalid webhook-timestamp');
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('The webhook-timestamp is outside the tolerance');
  }
  if (!options.secret.startsWith('whsec_')) {
    throw new WebhookVerificationError('The secret must be whsec_...; see webhookSecret(signingSecret)');
  }
  const key = Buffer.from(options.secret.slice('whsec_'.length), 'base64');
  const body = typeof options.body === 'string' ? options.body : Buffer.from(options.body).toString('utf8');
  const expected = crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && crypto.timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('No signature matches');
  return JSON.parse(body) as WebhookPayload;
}
