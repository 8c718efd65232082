import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { verifyStandardWebhook, whsecOf } from '../support/standard-webhooks.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

interface ReceivedHook {
  headers: Record<string, string>;
  body: string;
}

describe.each(['sqlite', 'postgres'] as const)(
  'async captures and webhooks on the embedded queue (%s)',
  (engine) => {
    let t: TestApp;
    let fixtures: RunningServer;
    let owner: TestKey;
    const hooks: ReceivedHook[] = [];

    beforeAll(async () => {
      fixtures = await startFixtureServer();
      fixtures.route('/hook', (req, res) => {
        let body = '';
        req.on('data', (chunk) => {
          body += chunk;
        });
        req.on('end', () => {
          hooks.push({ headers: req.headers as Record<string, string>, body });
          res.writeHead(204).end();
        });
      });
      t = await startTestApp(engine, {
        env: { VITRINE_ALLOW_TARGETS: '127.0.0.2', VITRINE_QUEUE_POLL_MS: '50' },
      });
      owner = await t.createKey({ credits: 20 });
    });
    afterAll(async () => {
      await t.close();
      await fixtures.close();
    });

    async function waitForJob(id: string, key: string) {
      for (let i = 0; i < 300; i++) {
        const res = await t.request('GET', `/v1/jobs/${id}`, { key });
        if (res.json.status !== 'pending' && res.json.webhook_status !== 'pending') return res;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`job ${id} did not finish`);
    }

    it('queues with 202, completes with the full result, and delivers one signed webhook', async () => {
      const project = await t.request('POST', '/v1/projects', { key: owner.key, json: { name: 'Hooks' } });
      const secret = project.json.signing_secret;
      const before = (await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining;
      const res = await t.request('POST', '/v1/capture', {
        key: owner.key,
        json: {
          url: `${fixtures.origin}/capture/simple.html`,
          viewport: { width: 600, height: 400 },
          project_id: project.json.project.id,
          async: true,
          webhook_url: `${fixtures.origin}/hook`,
        },
      });
      expect(res.status, res.text).toBe(202);
      expect(res.json).toEqual({ job_id: expect.stringMatching(/^job_[0-9A-Z]{26}$/), status: 'pending' });
      // Credits are reserved at enqueue.
      expect((await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining).toBe(
        before - 1,
      );

      const job = (await waitForJob(res.json.job_id, owner.key)).json;
      expect(job).toMatchObject({
        id: res.json.job_id,
        status: 'completed',
        error: null,
        webhook_url: `${fixtures.origin}/hook`,
        webhook_status: 'delivered',
        result: { width: 728, height: 528, format: 'png', credits_used: 1 },
      });
      const image = await fetch(job.result.url);
      expect(image.status).toBe(200);
      await image.arrayBuffer();

      const delivered = hooks.filter((h) => h.body.includes(res.json.job_id));
      expect(delivered).toHaveLength(1);
      const hook = delivered[0]!;
      expect(JSON.parse(hook.body)).toMatchObject({
        job_id: res.json.job_id,
        status: 'completed',
        result: { id: job.result.id },
      });
      expect(verifyStandardWebhook(whsecOf(secret), hook, Math.floor(Date.now() / 1000))).toBe(true);
      expect(verifyStandardWebhook(whsecOf('vss_other'), hook, Math.floor(Date.now() / 1000))).toBe(false);
      expect((await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining).toBe(
        before - 1,
      );
    });

    it('records a failed job with its error, refunds it, and still notifies', async () => {
      const before = (await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining;
      const res = await t.request('POST', '/v1/capture', {
        key: owner.key,
        json: {
          url: `${fixtures.origin}/capture/simple.html`,
          selector: '#missing',
          async: true,
          webhook_url: `${fixtures.origin}/hook`,
        },
      });
      expect(res.status).toBe(202);
      const job = (await waitForJob(res.json.job_id, owner.key)).json;
      expect(job.status).toBe('failed');
      expect(job.error).toContain('selector');
      expect((await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining).toBe(before);
      const hook = hooks.find((h) => h.body.includes(res.json.job_id));
      expect(JSON.parse(hook!.body)).toMatchObject({ status: 'failed', error: expect.any(String) });
    });

    it('refuses webhook_url without async, and private webhook hosts; other accounts get 404', async () => {
      const noAsync = await t.request('POST', '/v1/capture', {
        key: owner.key,
        json: { url: `${fixtures.origin}/capture/simple.html`, webhook_url: `${fixtures.origin}/hook` },
      });
      expect(noAsync.status).toBe(400);
      expect(noAsync.json.error.details.issues[0].path).toBe('webhook_url');

      const privateHook = await t.request('POST', '/v1/capture', {
        key: owner.key,
        json: {
          url: `${fixtures.origin}/capture/simple.html`,
          async: true,
          webhook_url: 'http://127.0.0.1:9/hook',
        },
      });
      expect(privateHook.status).toBe(403);
      expect(privateHook.json.error.message).toContain('webhook_url');

      const queued = await t.request('POST', '/v1/capture', {
        key: owner.key,
        json: { url: `${fixtures.origin}/capture/simple.html`, async: true },
      });
      const stranger = await t.createKey();
      const foreign = await t.request('GET', `/v1/jobs/${queued.json.job_id}`, { key: stranger.key });
      expect(foreign.status).toBe(404);
      const noScope = await t.createKey({ scopes: ['capture'] });
      expect((await t.request('GET', `/v1/jobs/${queued.json.job_id}`, { key: noScope.key })).status).toBe(
        403,
      );
      await waitForJob(queued.json.job_id, owner.key);
    });
  },
);
