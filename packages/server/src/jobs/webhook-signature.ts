import crypto from 'node:crypto';

/**
 * `webhook-signature` of Standard Webhooks: `v1,` + base64 HMAC-SHA256 over
 * `id.timestamp.body`. The key is the project's signing secret as UTF-8 bytes (docs/decisions.md,
 * Projects); a Standard Webhooks library verifies it given `whsec_` + base64(secret).
 */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = crypto.createHmac('sha256', Buffer.from(secret, 'utf8'));
  mac.update(`${id}.${timestampSeconds}.${body}`);
  return `v1,${mac.digest('base64')}`;
}
