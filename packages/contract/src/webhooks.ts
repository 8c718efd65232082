/**
 * How to verify Vitrine's webhooks, in the words every place a user looks shows (the /docs page
 * through the OpenAPI description, the `webhook_url` field, the README). The signing secret alone
 * is not what a Standard Webhooks verifier takes: it base64-decodes a `whsec_` secret, so the key
 * it is given is `whsec_` + base64(signing secret); GET /v1/projects/{id}/signing-secret returns
 * that form as `webhook_secret`.
 */
export const WEBHOOK_VERIFICATION_SUMMARY =
  "Signed per Standard Webhooks with the signing secret of the capture's project (the default project if none): verify with `webhook_secret` from `GET /v1/projects/{id}/signing-secret` (`whsec_` + base64 of the signing secret), e.g. `new Webhook(webhook_secret).verify(rawBody, headers)` of npm `standardwebhooks`.";

/** The "Webhooks" section of the API description (markdown), shown on /docs. */
export const WEBHOOK_VERIFICATION_GUIDE = `## Webhooks

With \`"async": true\` and a \`webhook_url\`, the result is POSTed to \`webhook_url\` as JSON:
\`{"job_id", "status": "completed", "result"}\` or \`{"job_id", "status": "failed", "error"}\`.
Deliveries are signed per [Standard Webhooks](https://www.standardwebhooks.com/) with the signing
secret of the capture's project (the account's default project when the capture names none):
headers \`webhook-id\`, \`webhook-timestamp\` and \`webhook-signature\`.

A Standard Webhooks verifier takes a \`whsec_\` secret, **not** the bare signing secret: give it
\`webhook_secret\` from \`GET /v1/projects/{id}/signing-secret\` (scope \`projects\`; for the
default project, get its id from \`POST /v1/projects/ensure-default\`), which is \`whsec_\` +
base64 of the signing secret's UTF-8 bytes. With the reference library (npm \`standardwebhooks\`):

\`\`\`js
import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.VITRINE_WEBHOOK_SECRET); // "whsec_..."
// rawBody: the request body exactly as received (string or Buffer), before any JSON parsing.
const event = webhook.verify(rawBody, {
  'webhook-id': req.headers['webhook-id'],
  'webhook-timestamp': req.headers['webhook-timestamp'],
  'webhook-signature': req.headers['webhook-signature'],
});
// event.job_id, event.status, event.result; verify() throws when the signature is wrong
// or the timestamp is more than 5 minutes away.
\`\`\`

After \`POST /v1/projects/{id}/signing-secret/rotate\`, webhooks are signed with the new secret;
read \`webhook_secret\` again.`;
