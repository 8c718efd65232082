import { setTimeout as delay } from 'node:timers/promises';
import { signCaptureUrl, Vitrine, VitrineError, verifyWebhook, webhookSecret } from '@vitrine/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

interface ReceivedHook {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** @vitrine/sdk against a real server: every route group, signed URLs, webhooks, errors, retries. */
describe('the TypeScript SDK against a live server', () => {
  let t: TestApp;
  let fixtures: RunningServer;
  let vitrine: Vitrine;
  const hooks: ReceivedHook[] = [];
  const page = () => `${fixtures.origin}/capture/simple.html`;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    fixtures.route('/hook', (req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        hooks.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    t = await startTestApp('sqlite', {
      env: { VITRINE_ALLOW_TARGETS: '127.0.0.2', VITRINE_QUEUE_POLL_MS: '50' },
    });
    vitrine = new Vitrine({ baseUrl: t.baseUrl, apiKey: (await t.createKey({ credits: 50 })).key });
  });
  afterAll(async () => {
    await t?.close();
    await fixtures?.close();
  });

  it('manages projects, keys, auth profiles, backgrounds and the account with typed results', async () => {
    const { project, signing_secret } = await vitrine.projects.create({ name: 'SDK' });
    expect(signing_secret.length).toBeGreaterThan(20);
    expect(await vitrine.projects.get(project.id)).toMatchObject({ id: project.id, name: 'SDK' });
    expect((await vitrine.projects.update(project.id, { name: 'SDK renamed' })).name).toBe('SDK renamed');
    expect((await vitrine.projects.list()).map((p) => p.id)).toContain(project.id);
    await vitrine.projects.makeDefault(project.id);
    expect((await vitrine.projects.ensureDefault()).id).toBe(project.id);
    expect((await vitrine.projects.brandStatus(project.id)).status).toBe('skipped');
    expect((await vitrine.projects.rotateSigningSecret(project.id)).signing_secret).not.toBe(signing_secret);

    const created = await vitrine.keys.create({ label: 'sdk', scopes: ['capture'] });
    expect(created.key.scopes).toEqual(['capture']);
    expect((await vitrine.keys.list()).map((k) => k.id)).toContain(created.key.id);
    expect((await vitrine.keys.revoke(created.key.id)).revoked_at).not.toBeNull();

    const { profile } = await vitrine.authProfiles.create({ domain: '127.0.0.2', cookie_header: 'sid=sdk' });
    expect((await vitrine.authProfiles.get(profile.id)).cookie_count).toBe(1);
    expect((await vitrine.authProfiles.list()).map((p) => p.id)).toContain(profile.id);
    const updated = await vitrine.authProfiles.update(profile.id, { domain: '127.0.0.2', name: 'Fixture' });
    expect(updated.profile.name).toBe('Fixture');
    expect((await vitrine.authProfiles.test(profile.id, page())).ok).toBe(true);
    await vitrine.authProfiles.delete(profile.id);

    const list = await vitrine.backgrounds.list({ group: ['gradients', 'backgrounds'], limit: 2 });
    expect(list.limit).toBe(2);
    expect(list.presets.length).toBeGreaterThan(0);
    expect(Array.isArray(await vitrine.backgrounds.packs({ theme: 'dark' }))).toBe(true);
    expect((await vitrine.account()).credits_remaining).toBeGreaterThan(0);
    expect((await vitrine.usage()).credits_remaining).toBeGreaterThan(0);
  });

  it('throws VitrineError with code, status and details', async () => {
    const missing = await vitrine.projects.get(`prj_${'0'.repeat(26)}`).catch((e) => e);
    expect(missing).toBeInstanceOf(VitrineError);
    expect(missing).toMatchObject({ code: 'not_found', status: 404 });
    expect(missing.requestId).toMatch(/^req_/);
    const invalid = await vitrine.projects.create({ name: '\f' }).catch((e) => e);
    expect(invalid).toMatchObject({ code: 'invalid_params', status: 400 });
    expect(invalid.details.issues[0]).toMatchObject({ path: 'name' });
    const anonymous = new Vitrine({ baseUrl: t.baseUrl });
    await expect(anonymous.account()).rejects.toMatchObject({ code: 'unauthorized', status: 401 });
  });

  it('captures, queues and waits for a job, and delivers a webhook the SDK verifies', async () => {
    const shot = await vitrine.capture({ url: page(), viewport: { width: 600, height: 400 }, padding: 0 });
    expect(shot.url).toMatch(/\/cdn\/r\/cap_/);
    const raw = await vitrine.raw({ url: page(), viewport: { width: 600, height: 400 } });
    expect(raw).toMatchObject({ width: 600, height: 400 });

    const { project, signing_secret } = await vitrine.projects.create({ name: 'Hooks' });
    const queued = await vitrine.capture({
      url: page(),
      viewport: { width: 600, height: 400 },
      project_id: project.id,
      async: true,
      webhook_url: `${fixtures.origin}/hook`,
    });
    expect(queued.status).toBe('pending');
    const job = await vitrine.jobs.wait(queued.job_id, { intervalMs: 100, timeoutMs: 60_000 });
    expect(job).toMatchObject({ status: 'completed', result: { width: 728 } });
    for (let i = 0; i < 200 && hooks.length === 0; i++) await delay(50);
    const hook = hooks[0]!;
    const payload = verifyWebhook({
      secret: webhookSecret(signing_secret),
      headers: hook.headers,
      body: hook.body,
    });
    expect(payload).toMatchObject({ job_id: queued.job_id, status: 'completed' });
    expect(() =>
      verifyWebhook({ secret: webhookSecret('not the secret'), headers: hook.headers, body: hook.body }),
    ).toThrow();

    const waited = await vitrine.captureAndWait({ url: page(), padding: 4 }, { intervalMs: 100 });
    expect(waited.url).toMatch(/\/cdn\/r\/cap_/);
  });

  it('signs a capture URL that the server accepts without an API key', async () => {
    const { project, signing_secret } = await vitrine.projects.create({ name: 'Signed' });
    const signed = signCaptureUrl({
      baseUrl: t.baseUrl,
      projectId: project.id,
      signingSecret: signing_secret,
      query: { url: page(), bg: 'ocean', width: 480 },
      expiresInSeconds: 600,
    });
    const res = await fetch(signed);
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toMatchObject({ width: 480 });
    const tampered = signed.replace('bg=ocean', 'bg=sunset');
    expect((await fetch(tampered)).status).toBe(401);
  });

  it('gives up on a rate limit whose retry_after is longer than it may wait, with retryAfter set', async () => {
    const limited = await startTestApp('sqlite', { env: { VITRINE_RATE_LIMIT_DEFAULT_PER_MINUTE: '1' } });
    try {
      const client = new Vitrine({
        baseUrl: limited.baseUrl,
        apiKey: (await limited.createKey()).key,
        retry: { retries: 2, maxDelayMs: 1000 },
      });
      await client.account();
      const error = await client.account().catch((e) => e);
      expect(error).toMatchObject({ code: 'rate_limited', status: 429 });
      expect(error.retryAfter).toBeGreaterThan(1);
    } finally {
      await limited.close();
    }
  });
});
