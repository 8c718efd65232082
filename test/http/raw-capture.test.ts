import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startCanary, startFixtureServer } from '../support/fixture-server.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

// POST /v1/raw end to end: real Chromium behind the egress proxy, sharp, the blob store, the CDN.
describe('POST /v1/raw', () => {
  let t: TestApp;
  let fixtures: RunningServer;
  let canary: RunningServer;
  let owner: TestKey;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    canary = await startCanary();
    t = await startTestApp('sqlite', {
      env: { VITRINE_ALLOW_TARGETS: '127.0.0.2', VITRINE_BROWSER_CONCURRENCY: '2' },
    });
    owner = await t.createKey({ credits: 50 });
  });
  afterAll(async () => {
    await t.close();
    await fixtures.close();
    await canary.close();
  });

  const page = (name: string) => `${fixtures.origin}/capture/${name}`;

  it('returns an image of exactly the requested size and format, served by its URL', async () => {
    const res = await t.request('POST', '/v1/raw', {
      key: owner.key,
      json: { url: page('simple.html'), viewport: { width: 800, height: 600 }, output: { format: 'webp' } },
    });
    expect(res.status, res.text).toBe(201);
    const result = res.json;
    expect(result).toMatchObject({ width: 800, height: 600, format: 'webp', cached: false, credits_used: 1 });
    expect(result.id).toMatch(/^cap_[0-9A-Z]{26}$/);
    expect(result.url).toBe(`${t.config.server.publicUrl}/cdn/r/${result.id}.webp`);
    expect(result.duration_ms).toBeGreaterThan(0);
    expect(result.resolved_params).toEqual({});

    const image = await fetch(`${t.baseUrl}/cdn/r/${result.id}.webp`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    expect(image.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 800, height: 600 });

    const etag = image.headers.get('etag')!;
    const again = await fetch(`${t.baseUrl}/cdn/r/${result.id}.webp`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it('resizes to output width/height at output dpr, in one encode', async () => {
    const res = await t.request('POST', '/v1/raw', {
      key: owner.key,
      json: {
        url: page('simple.html'),
        viewport: { width: 1000, height: 700 },
        output: { format: 'jpg', width: 500, height: 300, dpr: 2, quality: 80 },
        show_resolved_params: true,
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ width: 1000, height: 600, format: 'jpg' });
    expect(res.json.resolved_params).toMatchObject({
      capture_dpr: 2,
      viewport: { width: 1000, height: 700 },
    });
    const bytes = Buffer.from(await (await fetch(`${t.baseUrl}/cdn/r/${res.json.id}.jpg`)).arrayBuffer());
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'jpeg', width: 1000, height: 600 });
  });

  it('serves the same request again from the cache at no cost; cache_ttl 0 renders anew', async () => {
    const body = { url: page('simple.html'), viewport: { width: 640, height: 480 } };
    const first = await t.request('POST', '/v1/raw', { key: owner.key, json: body });
    const before = (await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining;
    // Same effective request, spelled differently: explicit defaults.
    const second = await t.request('POST', '/v1/raw', {
      key: owner.key,
      json: { ...body, capture_dpr: 1, output: { format: 'png' }, full_page: false },
    });
    expect(second.status).toBe(201);
    expect(second.json).toMatchObject({
      id: first.json.id,
      url: first.json.url,
      cached: true,
      credits_used: 0,
    });
    expect((await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining).toBe(before);

    const fresh = await t.request('POST', '/v1/raw', { key: owner.key, json: { ...body, cache_ttl: 0 } });
    expect(fresh.json.cached).toBe(false);
    expect(fresh.json.id).not.toBe(first.json.id);

    // Another account never gets this account's result.
    const other = await t.createKey();
    const foreign = await t.request('POST', '/v1/raw', { key: other.key, json: body });
    expect(foreign.json.cached).toBe(false);
  });

  it('answers 402 before any work when credits are short, and refunds a failed render', async () => {
    const poor = await t.createKey({ credits: 0 });
    const res = await t.request('POST', '/v1/raw', { key: poor.key, json: { url: page('simple.html') } });
    expect(res.status).toBe(402);
    expect(res.json.error).toMatchObject({
      code: 'insufficient_credits',
      details: { required: 1, remaining: 0 },
    });

    const one = await t.createKey({ credits: 1 });
    const failed = await t.request('POST', '/v1/raw', {
      key: one.key,
      json: { url: page('simple.html'), selector: '#does-not-exist' },
    });
    expect(failed.status).toBe(422);
    expect(failed.json.error).toMatchObject({
      code: 'capture_failed',
      details: { reason: 'selector_not_found' },
    });
    expect((await t.request('GET', '/v1/usage', { key: one.key })).json.credits_remaining).toBe(1);
  });

  it('reports an unreachable target generically, and refuses private targets with the canary untouched', async () => {
    const closed = await t.request('POST', '/v1/raw', {
      key: owner.key,
      json: { url: 'http://127.0.0.2:1/' },
    });
    expect(closed.status).toBe(422);
    expect(closed.json.error.details.reason).toBe('target_unreachable');
    expect(closed.text).not.toContain('net::');

    for (const url of [
      `http://127.0.0.1:${canary.port}/`,
      `http://127.1:${canary.port}/`,
      `http://[::ffff:127.0.0.1]:${canary.port}/`,
      `http://localhost:${canary.port}/`,
      'file:///etc/passwd',
    ]) {
      const res = await t.request('POST', '/v1/raw', { key: owner.key, json: { url } });
      expect(res.status, url).toBe(403);
      expect(res.json.error.code).toBe('target_not_allowed');
    }
    expect(canary.hits).toEqual([]);
  });

  it('validates fields with named errors; element is resolved like on /v1/capture', async () => {
    const missing = await t.request('POST', '/v1/raw', { key: owner.key, json: {} });
    expect(missing.status).toBe(400);
    expect(missing.json.error.message).toBe('Missing required field: url (or site)');

    const format = await t.request('POST', '/v1/raw', {
      key: owner.key,
      json: { url: page('simple.html'), output: { format: 'gif' } },
    });
    expect(format.status).toBe(400);
    expect(format.json.error.message).toBe('Invalid output.format. Must be one of: png, webp, jpg, avif');

    const viewport = await t.request('POST', '/v1/raw', {
      key: owner.key,
      json: { url: page('simple.html'), viewport: { width: 100, height: 600 } },
    });
    expect(viewport.status).toBe(400);
    expect(viewport.json.error.details.issues[0].path).toBe('viewport.width');

    const element = await t.request('POST', '/v1/raw', {
      key: owner.key,
      json: { url: page('simple.html'), element: 'the pricing table' },
    });
    expect(element.status, element.text).toBe(422);
    expect(element.json.error.details.reason).toBe('element_not_found');

    const styled = await t.request('POST', '/v1/raw', {
      key: owner.key,
      json: { url: page('simple.html'), padding: 20 },
    });
    expect(styled.status).toBe(400);
    expect(styled.json.error.message).toBe('Unknown field: padding');
  });

  it('requires the raw scope', async () => {
    const captureOnly = await t.createKey({ scopes: ['capture'] });
    const res = await t.request('POST', '/v1/raw', {
      key: captureOnly.key,
      json: { url: page('simple.html') },
    });
    expect(res.status).toBe(403);
    expect(res.json.error.details.required_scope).toBe('raw');
  });
});

describe('render observability', () => {
  it('logs and exports every phase of a render', async () => {
    const { startFixtureServer } = await import('../support/fixture-server.ts');
    const fixtures = await startFixtureServer();
    const t = await startTestApp('sqlite', { env: { VITRINE_ALLOW_TARGETS: '127.0.0.2' } });
    try {
      const key = await t.createKey();
      const res = await t.request('POST', '/v1/raw', {
        key: key.key,
        json: { url: `${fixtures.origin}/capture/simple.html`, viewport: { width: 400, height: 300 } },
      });
      expect(res.status).toBe(201);
      const metrics = (await t.request('GET', '/metrics')).text;
      for (const phase of ['queue_wait', 'context', 'navigation', 'waits', 'capture', 'encode', 'store']) {
        expect(metrics, phase).toMatch(
          new RegExp(`vitrine_render_phase_seconds_count\\{kind="raw",phase="${phase}"\\} 1`),
        );
      }
    } finally {
      await t.close();
      await fixtures.close();
    }
  });
});
