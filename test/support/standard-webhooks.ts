import crypto from 'node:crypto';

/** A received webhook request: its headers and raw body. */
export interface WebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The `whsec_` secret a Standard Webhooks library is given for a project signing secret (docs/decisions.md). */
export function whsecOf(signingSecret: string): string {
  return `whsec_${Buffer.from(signingSecret, 'utf8').toString('base64')}`;
}

/**
 * Standard Webhooks verification written from the specification, independent of our signer:
 * the `whsec_` secret's base64 part is the key; `webhook-signature` is a space-separated list of
 * `v1,<base64>`; the signed content is `id.timestamp.body`; timestamps older than 5 min fail.
 */
export function verifyStandardWebhook(whsec: string, hook: WebhookRequest, nowSeconds: number): boolean {
  const id = String(hook.headers['webhook-id']);
  const timestamp = Number(hook.headers['webhook-timestamp']);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > 300) return false;
  const key = Buffer.from(whsec.replace(/^whsec_/, ''), 'base64');
  const expected = crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${hook.body}`).digest();
  return String(hook.headers['webhook-signature'])
    .split(' ')
    .some((entry) => {
      const [version, signature] = entry.split(',');
      const given = Buffer.from(signature ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && crypto.timingSafeEqual(given, expected);
    });
}
