import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useFixtureApp } from '../support/fixture-app.ts';

/** `element`: a plain-language description captured like a selector (docs/api-decisions.md section 4). */
describe('POST and GET /v1/capture with element', () => {
  const app = useFixtureApp({ env: { VITRINE_QUEUE_POLL_MS: '50' }, credits: 100 });

  const page = (name: string) => `${app.fixtures.origin}/element/${name}`;
  const credits = async () =>
    (await app.t.request('GET', '/v1/usage', { key: app.key.key })).json.credits_remaining as number;

  it('captures the described element: element_resolved filled, image = its box x dpr', async () => {
    const res = await app.t.request('POST', '/v1/capture', {
      key: app.key.key,
      json: {
        url: page('dashboard.html'),
        element: 'revenue chart',
        viewport: { width: 1280, height: 800 },
        background_style: 'none',
        padding: 0,
        output: { dpr: 2 },
        cache_ttl: 0,
      },
    });
    expect(res.status, res.text).toBe(201);
    const resolved = res.json.element_resolved;
    expect(resolved).toMatchObject({
      query: 'revenue chart',
      selector: expect.any(String),
      strategy: expect.stringMatching(/^(accessibility|landmark|heading|visual_block)$/),
      bbox: {
        x: expect.any(Number),
        y: expect.any(Number),
        width: expect.any(Number),
        height: expect.any(Number),
      },
    });
    expect(resolved.confidence).toBeGreaterThanOrEqual(0.5);
    expect(resolved.confidence).toBeLessThanOrEqual(1);
    expect(resolved.bbox.width).toBeGreaterThan(100);
    const bytes = Buffer.from(await (await fetch(res.json.url)).arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(Math.abs((meta.width ?? 0) - resolved.bbox.width * 2)).toBeLessThanOrEqual(2);
    expect(Math.abs((meta.height ?? 0) - resolved.bbox.height * 2)).toBeLessThanOrEqual(2);
    expect([res.json.width, res.json.height]).toEqual([meta.width, meta.height]);
  }, 60_000);

  it('styles an element like any capture (frame, shadow) and serves the cached result with its resolution', async () => {
    const body = {
      url: page('pricing.html'),
      element: 'plans',
      viewport: { width: 1280, height: 800 },
      device: 'browser-macos',
      shadow: 'float',
      background_preset: 'sunset',
    };
    const first = await app.t.request('POST', '/v1/capture', { key: app.key.key, json: body });
    expect(first.status, first.text).toBe(201);
    expect(first.json.element_resolved.selector).toBeTruthy();
    const again = await app.t.request('POST', '/v1/capture', { key: app.key.key, json: body });
    expect(again.status).toBe(201);
    expect(again.json.cached).toBe(true);
    expect(again.json.element_resolved).toEqual(first.json.element_resolved);
  }, 60_000);

  it('is 422 element_not_found with the best candidates, and refunded, when nothing matches', async () => {
    const before = await credits();
    const res = await app.t.request('POST', '/v1/capture', {
      key: app.key.key,
      json: { url: page('landing.html'), element: 'the spaceship', cache_ttl: 0 },
    });
    expect(res.status, res.text).toBe(422);
    expect(res.json.error.code).toBe('capture_failed');
    expect(res.json.error.details).toMatchObject({ reason: 'element_not_found', query: 'the spaceship' });
    expect(Array.isArray(res.json.error.details.candidates)).toBe(true);
    expect(await credits()).toBe(before);

    const weak = await app.t.request('POST', '/v1/capture', {
      key: app.key.key,
      json: { url: page('landing.html'), element: 'pricing plans', cache_ttl: 0 },
    });
    expect(weak.status, weak.text).toBe(422);
    expect(weak.json.error.details.candidates.length).toBeGreaterThan(0);
    expect(weak.json.error.details.candidates[0]).toMatchObject({
      summary: expect.any(String),
      confidence: expect.any(Number),
    });
    expect(await credits()).toBe(before);
  }, 60_000);

  it('refuses element with selector or full_page (400 naming element), and a blank description', async () => {
    for (const extra of [{ selector: '#x' }, { full_page: true }, { element: '   ' }]) {
      const res = await app.t.request('POST', '/v1/capture', {
        key: app.key.key,
        json: { url: page('landing.html'), element: 'footer', ...extra },
      });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.json.error.details.issues[0].path).toBe('element');
    }
  });

  it('works through GET and async jobs; captures without element report {}', async () => {
    const query = new URLSearchParams({
      url: page('docs.html'),
      element: 'table of contents',
      api_key: app.key.key,
    });
    const got = await fetch(`${app.t.baseUrl}/v1/capture?${query}`);
    const gotJson = (await got.json()) as { element_resolved: { selector: string; query: string } };
    expect(got.status, JSON.stringify(gotJson)).toBe(201);
    expect(gotJson.element_resolved).toMatchObject({
      query: 'table of contents',
      selector: expect.any(String),
    });

    const queued = await app.t.request('POST', '/v1/capture', {
      key: app.key.key,
      json: {
        url: page('dashboard.html'),
        element: 'sidebar',
        async: true,
        viewport: { width: 1280, height: 800 },
      },
    });
    expect(queued.status, queued.text).toBe(202);
    let job: { status: string; result: { element_resolved: Record<string, unknown> } | null } | undefined;
    for (let i = 0; i < 600; i++) {
      job = (await app.t.request('GET', `/v1/jobs/${queued.json.job_id}`, { key: app.key.key })).json;
      if (job?.status !== 'pending' && job?.status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(job?.status).toBe('completed');
    expect(job?.result?.element_resolved).toMatchObject({ query: 'sidebar', strategy: expect.any(String) });

    const plain = await app.t.request('POST', '/v1/capture', {
      key: app.key.key,
      json: { url: page('landing.html'), viewport: { width: 800, height: 600 } },
    });
    expect(plain.status).toBe(201);
    expect(plain.json.element_resolved).toEqual({});
  }, 90_000);
});
