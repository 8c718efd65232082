import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serialiseResolvedCapture } from '../../packages/server/src/captures/resolved-capture.ts';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { ENGINES, startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

/**
 * The capture service is the one home of a capture request: every path checks the project the
 * same way, and the sync and async paths render the same resolved data.
 */
describe.each(ENGINES)('the capture service on %s', (engine) => {
  let t: TestApp;
  let fixtures: RunningServer;
  let owner: TestKey;
  let stranger: TestKey;
  let strangersProject: string;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    t = await startTestApp(engine, {
      env: { VITRINE_ALLOW_TARGETS: '127.0.0.2', VITRINE_QUEUE_POLL_MS: '50' },
    });
    owner = await t.createKey({ credits: 50 });
    stranger = await t.createKey({ credits: 50 });
    const created = await t.request('POST', '/v1/projects', { key: stranger.key, json: { name: 'Theirs' } });
    strangersProject = created.json.project.id;
  });
  afterAll(async () => {
    await t.close();
    await fixtures.close();
  });

  const page = () => `${fixtures.origin}/capture/simple.html`;
  const credits = async (key: string) =>
    (await t.request('GET', '/v1/usage', { key })).json.credits_remaining as number;
  const jobCount = async () => (await t.app.database.db.selectFrom('jobs').select('id').execute()).length;

  it("answers 404 for another account's or an unknown project_id, sync, async and GET, reserving nothing", async () => {
    const before = await credits(owner.key);
    const jobsBefore = await jobCount();
    const unknown = 'prj_01ARZ3NDEKTSV4RRFFQ69G5FAV';
    for (const projectId of [strangersProject, unknown]) {
      const body = { url: page(), project_id: projectId };
      const sync = await t.request('POST', '/v1/capture', { key: owner.key, json: body });
      expect(sync.status, sync.text).toBe(404);
      expect(sync.json.error.code).toBe('not_found');
      const queued = await t.request('POST', '/v1/capture', {
        key: owner.key,
        json: { ...body, async: true, webhook_url: `${fixtures.origin}/hook` },
      });
      expect(queued.status, queued.text).toBe(404);
      const query = new URLSearchParams({ url: page(), project_id: projectId });
      const viaGet = await t.request('GET', `/v1/capture?${query}`, { key: owner.key });
      expect(viaGet.status, viaGet.text).toBe(404);
      const raw = await t.request('POST', '/v1/raw', { key: owner.key, json: body });
      expect(raw.status, raw.text).toBe(404);
    }
    expect(await credits(owner.key)).toBe(before);
    expect(await jobCount()).toBe(jobsBefore);
  });

  it('renders the same URL anew under each of the caller’s projects (the project is part of the cache key)', async () => {
    const projects = await Promise.all(
      ['One', 'Two'].map(
        async (name) =>
          (await t.request('POST', '/v1/projects', { key: owner.key, json: { name } })).json.project.id,
      ),
    );
    const body = { url: page(), viewport: { width: 400, height: 300 } };
    const first = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { ...body, project_id: projects[0] },
    });
    const second = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { ...body, project_id: projects[1] },
    });
    expect(first.status, first.text).toBe(201);
    expect(second.status, second.text).toBe(201);
    expect(second.json.cached).toBe(false);
    expect(second.json.id).not.toBe(first.json.id);
    const again = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { ...body, project_id: projects[1] },
    });
    expect(again.json).toMatchObject({ cached: true, id: second.json.id });
  });

  it('reuses a loaded page for another look (no navigation); a changed target field or another account navigates', async () => {
    const url = `${fixtures.origin}/capture/simple.html?reuse=${engine}`;
    const loads = () => fixtures.hits.filter((hit) => hit === `/capture/simple.html?reuse=${engine}`).length;
    const navigations = async () => {
      const metrics = (await t.request('GET', '/metrics')).text;
      const count = (phase: string) =>
        Number(
          new RegExp(`vitrine_render_phase_seconds_count\\{kind="capture",phase="${phase}"\\} (\\d+)`).exec(
            metrics,
          )?.[1] ?? 0,
        );
      return { navigation: count('navigation'), reused: count('page_reused') };
    };
    const body = { url, viewport: { width: 500, height: 320 } };
    const before = await navigations();
    const first = await t.request('POST', '/v1/capture', { key: owner.key, json: body });
    expect(first.status, first.text).toBe(201);
    expect(loads()).toBe(1);
    const restyled = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { ...body, title: 'Another look', background_preset: 'ember', compose_mode: 'browser' },
    });
    expect(restyled.status, restyled.text).toBe(201);
    expect(restyled.json).toMatchObject({ cached: false, credits_used: 1 });
    expect(restyled.json.height).toBeGreaterThan(first.json.height);
    expect(loads()).toBe(1);
    expect(await navigations()).toEqual({ navigation: before.navigation + 1, reused: before.reused + 1 });

    const otherViewport = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { ...body, viewport: { width: 520, height: 320 }, title: 'Another look' },
    });
    expect(otherViewport.status, otherViewport.text).toBe(201);
    expect(loads()).toBe(2);
    const otherAccount = await t.request('POST', '/v1/capture', { key: stranger.key, json: body });
    expect(otherAccount.status, otherAccount.text).toBe(201);
    expect(loads()).toBe(3);
    const never = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { ...body, cache_ttl: 0, title: 'Fresh' },
    });
    expect(never.status, never.text).toBe(201);
    expect(loads()).toBe(4);
  });

  it('resolves a request to the same ResolvedCapture for the sync and async paths; the job stores it', async () => {
    const principal = { userId: owner.userId, keyId: owner.keyId, mode: 'live' as const, scopes: [] };
    const body = {
      url: page(),
      device: 'iphone-16-pro' as const,
      title: 'Ship faster',
      background_preset: 'ember' as const,
      output: { format: 'webp' as const, dpr: 2 as const },
    };
    const sync = await t.app.captures.resolve(body, principal, 'capture');
    const queued = await t.app.captures.resolve(
      { ...body, async: true, webhook_url: `${fixtures.origin}/hook` },
      principal,
      'capture',
    );
    expect(sync.delivery).toEqual({ async: false, webhookUrl: null });
    expect(queued.delivery).toEqual({ async: true, webhookUrl: `${fixtures.origin}/hook` });
    expect(serialiseResolvedCapture(queued.capture)).toBe(serialiseResolvedCapture(sync.capture));

    const accepted = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { ...body, async: true, webhook_url: `${fixtures.origin}/hook` },
    });
    expect(accepted.status, accepted.text).toBe(202);
    expect(await t.queuedPayload(accepted.json.job_id)).toBe(serialiseResolvedCapture(sync.capture));
  });

  it('queues an AI capture with only its plan as the payload: no raw request, nothing to resolve again', async () => {
    const body = {
      url: page(),
      ai: true,
      prompt: 'dark and cinematic',
      title: 'Ship faster',
      padding: 32,
      show_resolved_params: true,
      output: { format: 'webp' as const },
    };
    const accepted = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { ...body, async: true, webhook_url: `${fixtures.origin}/hook` },
    });
    expect(accepted.status, accepted.text).toBe(202);
    const payload = JSON.parse(await t.queuedPayload(accepted.json.job_id)) as Record<string, unknown>;
    // The plan's fields and nothing else: no request body, no delivery fields.
    expect(Object.keys(payload).sort()).toEqual(
      [
        'version',
        'kind',
        'projectId',
        'page',
        'output',
        'style',
        'cost',
        'cacheTtlSeconds',
        'showResolvedParams',
        'warnings',
        'ai',
      ].sort(),
    );
    const ai = payload.ai as Record<string, unknown>;
    expect(Object.keys(ai).sort()).toEqual(['brand', 'copy', 'fixed', 'projectBrand', 'prompt', 'style']);
    // The AI plan names the fields the caller fixed; their values are the resolved style's.
    expect(ai.fixed).toEqual(['padding', 'title']);
    const style = payload.style as Record<string, unknown>;
    expect(style).toMatchObject({ padding: 32, title: 'Ship faster', title_font: 'Inter' });
    expect(style.output).toEqual(payload.output);
    expect(payload.output).toEqual({ format: 'webp', width: null, height: null, quality: null, dpr: 1 });
    const keysAtAnyDepth = (value: unknown): string[] =>
      value !== null && typeof value === 'object'
        ? Object.entries(value).flatMap(([k, v]) => [k, ...keysAtAnyDepth(v)])
        : [];
    for (const requestOnly of ['request', 'async', 'webhook_url', 'url_or_site', 'ai_style', 'ai_copy']) {
      expect(keysAtAnyDepth(payload)).not.toContain(requestOnly);
    }
    // And it renders: the worker applies the AI's choices to the plan.
    for (let i = 0; i < 600; i++) {
      const job = await t.request('GET', `/v1/jobs/${accepted.json.job_id}`, { key: owner.key });
      if (job.json.status !== 'pending') {
        expect(job.json.status, job.text).toBe('completed');
        expect(job.json.result.ai_decisions.overridden).toContain('title');
        expect(job.json.result.resolved_params).toMatchObject({ padding: 32, title: 'Ship faster' });
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the AI job did not finish');
  }, 120_000);
});
