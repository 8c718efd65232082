import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startCanary, startFixtureServer } from '../support/fixture-server.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

// Issue 35: a page whose top-level navigation ends on the egress proxy's refusal (a 302, a meta
// refresh or a script sending it to the canary) used to be captured and charged: an image of
// "Blocked by the network policy". Now every path answers target_unreachable and refunds. The
// canary on 127.0.0.1 is never reached (the proxy refuses it); all traffic stays on loopback.
describe('navigation into a refused target', () => {
  let t: TestApp;
  let fixtures: RunningServer;
  let canary: RunningServer;
  let owner: TestKey;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    canary = await startCanary();
    const refused = `http://127.0.0.1:${canary.port}/`;
    fixtures.route('/to-canary/302', (_req, res) => {
      res.writeHead(302, { location: refused }).end();
    });
    fixtures.route('/to-canary/meta', (_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><meta http-equiv="refresh" content="0;url=${refused}"><h1>Moving</h1>`);
    });
    fixtures.route('/to-canary/script', (_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><h1>Moving</h1><script>location.href = ${JSON.stringify(refused)};</script>`);
    });
    // An https target goes through CONNECT, which the proxy refuses: Chromium shows its own
    // error page instead of the proxy's (no marker header); the failed navigation is the signal.
    fixtures.route('/to-canary/meta-https', (_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><meta http-equiv="refresh" content="0;url=https://127.0.0.1:${canary.port}/"><h1>Moving</h1>`,
        );
    });
    // The root of a "domain" for brand extraction: https cannot connect, http redirects.
    fixtures.route('/', (_req, res) => {
      res.writeHead(302, { location: refused }).end();
    });
    t = await startTestApp('sqlite', {
      env: {
        VITRINE_ALLOW_TARGETS: '127.0.0.2',
        VITRINE_QUEUE_POLL_MS: '50',
        VITRINE_CAPTURE_TIMEOUT_MS: '120000',
        VITRINE_NAVIGATION_TIMEOUT_MS: '60000',
      },
    });
    owner = await t.createKey({ credits: 100 });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await fixtures?.close();
    await canary?.close();
  });

  const credits = async () =>
    (await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining as number;
  const ways = ['302', 'meta', 'script', 'meta-https'] as const;

  function expectUnreachable(res: { status: number; text: string; json: { error?: unknown } }) {
    expect(res.status, res.text.slice(0, 300)).toBe(422);
    expect(res.json.error).toMatchObject({
      code: 'capture_failed',
      details: { reason: 'target_unreachable' },
    });
    expect(res.text).not.toMatch(/net::|Blocked by the network policy/);
  }

  it.each(ways)('POST /v1/capture (%s) answers 422 target_unreachable and charges nothing', async (way) => {
    const before = await credits();
    const res = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { url: `${fixtures.origin}/to-canary/${way}`, cache_ttl: 0 },
    });
    expectUnreachable(res);
    expect(await credits()).toBe(before);
    expect(canary.hits).toEqual([]);
  });

  it.each(ways)('POST /v1/raw (%s) answers 422 target_unreachable and charges nothing', async (way) => {
    const before = await credits();
    const res = await t.request('POST', '/v1/raw', {
      key: owner.key,
      json: { url: `${fixtures.origin}/to-canary/${way}`, cache_ttl: 0 },
    });
    expectUnreachable(res);
    expect(await credits()).toBe(before);
    expect(canary.hits).toEqual([]);
  });

  it('an async capture (302) fails with target_unreachable and is refunded', async () => {
    const before = await credits();
    const queued = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { url: `${fixtures.origin}/to-canary/302`, async: true, cache_ttl: 0 },
    });
    expect(queued.status, queued.text).toBe(202);
    let job: { status: string; error: string | null } = { status: 'pending', error: null };
    for (let i = 0; i < 1200 && job.status === 'pending'; i++) {
      job = (await t.request('GET', `/v1/jobs/${queued.json.job_id}`, { key: owner.key })).json;
      if (job.status === 'pending') await new Promise((r) => setTimeout(r, 100));
    }
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/could not be reached/i);
    expect(await credits()).toBe(before);
    expect(canary.hits).toEqual([]);
  });

  it('an auth-profile test (302, script, or a closed port: one answer) is 422 target_unreachable', async () => {
    const created = await t.request('POST', '/v1/auth-profiles', {
      key: owner.key,
      json: { domain: fixtures.host, cookies: [{ name: 'session', value: 'abc' }] },
    });
    expect(created.status, created.text).toBe(201);
    for (const url of [
      `${fixtures.origin}/to-canary/302`,
      `${fixtures.origin}/to-canary/script`,
      `http://${fixtures.host}:1/`,
    ]) {
      const tested = await t.request('POST', `/v1/auth-profiles/${created.json.profile.id}/test`, {
        key: owner.key,
        json: { url },
      });
      expectUnreachable(tested);
    }
    // The unreachable site said nothing about the login: the profile is not marked failing.
    const profile = await t.request('GET', `/v1/auth-profiles/${created.json.profile.id}`, {
      key: owner.key,
    });
    expect(profile.json.profile.status).toBe('active');
    expect(canary.hits).toEqual([]);
  });

  it('brand extraction of a domain whose / redirects into a refused target ends failed', async () => {
    const created = await t.request('POST', '/v1/projects', {
      key: owner.key,
      json: { domain: `${fixtures.host}:${fixtures.port}` },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.project.id as string;
    // biome-ignore lint/suspicious/noExplicitAny: the status body is checked field by field
    let body: Record<string, any> = { status: created.json.project.brand_status };
    for (let i = 0; i < 1200 && body.status !== 'completed' && body.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      body = (await t.request('GET', `/v1/projects/${id}/brand/status`, { key: owner.key })).json;
    }
    expect(body.status, JSON.stringify(body)).toBe('failed');
    expect(body.brand).toBeNull();
    expect(body.project.brand_error).toMatch(/could not be reached/);
    expect(canary.hits).toEqual([]);
  });
});
