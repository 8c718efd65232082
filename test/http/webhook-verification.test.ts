import { webhookSecretOf } from '@vitrine/contract';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

interface ReceivedHook {
  headers: Record<string, string>;
  body: string;
}

// Issue 35, item 5: a real delivery verified by the reference Standard Webhooks library
// (npm `standardwebhooks`), given exactly what the README and /docs tell a user to pass: the
// `webhook_secret` of GET /v1/projects/{id}/signing-secret, the raw body and the three headers.
// The capture names no project, so its webhook is signed by the default project, whose secret
// was never shown before.
describe('webhook verification with the reference verifier', () => {
  let t: TestApp;
  let fixtures: RunningServer;
  let owner: TestKey;
  const hooks: ReceivedHook[] = [];

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    fixtures.route('/hook', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        hooks.push({
          headers: req.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(204).end();
      });
    });
    t = await startTestApp('sqlite', {
      env: { VITRINE_ALLOW_TARGETS: '127.0.0.2', VITRINE_QUEUE_POLL_MS: '50' },
    });
    owner = await t.createKey({ credits: 20 });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await fixtures?.close();
  });

  it("verifies a delivery signed by the default project's secret, read by its owner", async () => {
    const ensured = await t.request('POST', '/v1/projects/ensure-default', { key: owner.key });
    const projectId = ensured.json.project.id as string;
    const secret = await t.request('GET', `/v1/projects/${projectId}/signing-secret`, { key: owner.key });
    expect(secret.status, secret.text).toBe(200);
    expect(secret.json.signing_secret).toMatch(/^vss_[A-Za-z0-9_-]{43}$/);
    expect(secret.json.webhook_secret).toBe(
      `whsec_${Buffer.from(secret.json.signing_secret, 'utf8').toString('base64')}`,
    );
    expect(webhookSecretOf(secret.json.signing_secret)).toBe(secret.json.webhook_secret);

    const queued = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: {
        url: `${fixtures.origin}/capture/simple.html`,
        async: true,
        webhook_url: `${fixtures.origin}/hook`,
      },
    });
    expect(queued.status, queued.text).toBe(202);
    let hook: ReceivedHook | undefined;
    for (let i = 0; i < 1800 && !hook; i++) {
      hook = hooks.find((h) => h.body.includes(queued.json.job_id));
      if (!hook) await new Promise((r) => setTimeout(r, 100));
    }
    expect(hook, 'the webhook was delivered').toBeDefined();

    // What the README shows, step for step.
    const webhook = new Webhook(secret.json.webhook_secret);
    const event = webhook.verify(hook!.body, {
      'webhook-id': hook!.headers['webhook-id']!,
      'webhook-timestamp': hook!.headers['webhook-timestamp']!,
      'webhook-signature': hook!.headers['webhook-signature']!,
    }) as { job_id: string; status: string; result: { url: string } };
    expect(event).toMatchObject({ job_id: queued.json.job_id, status: 'completed' });
    expect(event.result.url).toMatch(/\/cdn\/r\/cap_/);

    // The trap the issue fell into: the bare signing secret is not what the verifier takes.
    expect(() => new Webhook(secret.json.signing_secret).verify(hook!.body, hook!.headers)).toThrow();
    // A tampered body fails.
    expect(() => webhook.verify(hook!.body.replace('completed', 'failed'), hook!.headers)).toThrow();

    // Rotation changes the secret the endpoint shows.
    const rotated = await t.request('POST', `/v1/projects/${projectId}/signing-secret/rotate`, {
      key: owner.key,
    });
    const after = await t.request('GET', `/v1/projects/${projectId}/signing-secret`, { key: owner.key });
    expect(after.json.signing_secret).toBe(rotated.json.signing_secret);
    expect(after.json.signing_secret).not.toBe(secret.json.signing_secret);
  }, 240_000);

  it('is documented where people look: the /docs description and webhook_url', async () => {
    const doc = (await t.request('GET', '/v1/openapi.json')).json;
    expect(doc.info.description).toContain('## Webhooks');
    expect(doc.info.description).toContain('new Webhook(process.env.VITRINE_WEBHOOK_SECRET)');
    expect(doc.info.description).toContain('/v1/projects/{id}/signing-secret');
    const capture = doc.paths['/v1/capture'].post.requestBody.content['application/json'].schema;
    const body = capture.$ref ? doc.components.schemas[capture.$ref.split('/').pop()] : capture;
    expect(body.properties.webhook_url.description).toContain('whsec_');
    expect(doc.paths['/v1/projects/{id}/signing-secret'].get.security).toEqual([{ bearerAuth: [] }]);
  });

  it('is readable only by its owner, with the projects scope', async () => {
    const ensured = await t.request('POST', '/v1/projects/ensure-default', { key: owner.key });
    const path = `/v1/projects/${ensured.json.project.id}/signing-secret`;
    const stranger = await t.createKey();
    const foreign = await t.request('GET', path, { key: stranger.key });
    expect(foreign.status).toBe(404);
    expect(foreign.json.error.code).toBe('not_found');
    const captureOnly = await t.createKey({ scopes: ['capture'] });
    const ownProject = await t.app.services.projects.ensureDefault(captureOnly.userId);
    const scoped = await t.request('GET', `/v1/projects/${ownProject.id}/signing-secret`, {
      key: captureOnly.key,
    });
    expect(scoped.status).toBe(403);
    expect(scoped.json.error).toMatchObject({
      code: 'forbidden_scope',
      details: { required_scope: 'projects' },
    });
    const anonymous = await t.request('GET', path);
    expect(anonymous.status).toBe(401);
  });
});
