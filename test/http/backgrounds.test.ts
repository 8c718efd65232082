import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('backgrounds catalogue over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('lists the 8 presets and a page of assets, publicly', async () => {
    const res = await t.request('GET', '/v1/backgrounds');
    expect(res.status, res.text).toBe(200);
    expect(res.json.presets.map((p: { id: string }) => p.id)).toEqual([
      'aurora',
      'sunset',
      'ocean',
      'midnight',
      'arctic',
      'dusk',
      'forest',
      'ember',
    ]);
    expect(res.json.presets[0]).toMatchObject({
      type: 'gradient_preset',
      background_style: 'gradient',
      background_preset: 'aurora',
      css: expect.stringMatching(/^linear-gradient\(/),
    });
    expect(res.json).toMatchObject({ limit: 50, offset: 0 });
    expect(res.json.total).toBeGreaterThanOrEqual(200);
    expect(res.json.backgrounds).toHaveLength(50);
    const asset = res.json.backgrounds[0];
    expect(asset.background).toBe(`${asset.pack}/${asset.slug}`);
    expect(asset.service_params).toEqual({ background: asset.background });
    expect(asset.thumbnail_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/cdn\/bg\//);
  });

  it('filters, searches and pages consistently', async () => {
    const dark = await t.request('GET', '/v1/backgrounds?theme=dark&limit=200');
    expect(dark.json.backgrounds.every((b: { theme: string }) => b.theme === 'dark')).toBe(true);
    const pageA = await t.request('GET', '/v1/backgrounds?group=gradients&limit=10&offset=0');
    const pageB = await t.request('GET', '/v1/backgrounds?group=gradients&limit=10&offset=10');
    const idsA = pageA.json.backgrounds.map((b: { id: string }) => b.id);
    const idsB = pageB.json.backgrounds.map((b: { id: string }) => b.id);
    expect(idsA.filter((id: string) => idsB.includes(id))).toEqual([]);
    expect(pageA.json.total).toBe(pageB.json.total);
    const all = await t.request('GET', `/v1/backgrounds?group=gradients&limit=200`);
    expect(all.json.backgrounds).toHaveLength(all.json.total);

    const badTheme = await t.request('GET', '/v1/backgrounds?theme=neon');
    expect(badTheme.status).toBe(400);
    expect(badTheme.json.error.message).toContain('light, dark, mixed');

    const badKey = await t.request('GET', '/v1/backgrounds', { key: 'vt_live_nope' });
    expect(badKey.status).toBe(401);
  });

  it('lists packs with counts and serves their thumbnails, covers and full-size variants', async () => {
    const res = await t.request('GET', '/v1/backgrounds/packs');
    expect(res.status).toBe(200);
    expect(res.json.packs.length).toBeGreaterThanOrEqual(10);
    const pack = res.json.packs[0];
    expect(pack.count).toBeGreaterThan(0);

    const cover = await fetch(pack.cover_url);
    expect(cover.status).toBe(200);
    const thumb = await fetch(pack.thumbnail_url);
    expect(thumb.status).toBe(200);
    expect(await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).toMatchObject({
      width: 480,
      height: 300,
    });

    const list = await t.request('GET', `/v1/backgrounds?pack=${pack.pack}&limit=1`);
    const asset = list.json.backgrounds[0];
    const image = await fetch(`${asset.image_url.split('?')[0]}?w=1200&h=700`);
    expect(image.status).toBe(200);
    expect(await sharp(Buffer.from(await image.arrayBuffer())).metadata()).toMatchObject({
      width: 1200,
      height: 700,
    });
    const etag = image.headers.get('etag')!;
    const again = await fetch(`${asset.image_url.split('?')[0]}?w=1200&h=700`, {
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
  });

  it('shows a browsable catalogue page', async () => {
    const res = await t.request('GET', '/backgrounds');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.text).toContain('/cdn/bg/');
    expect(res.text).not.toContain('<script');
  });
});

describe('background render keys', () => {
  it('are valid blob-store keys for every size and scale the CDN accepts', async () => {
    const { createBackgroundRenderCache } = await import(
      '../../packages/server/src/backgrounds/render-cache.ts'
    );
    const { BACKGROUND_CATALOGUE } = await import('../../packages/server/src/backgrounds/catalogue.ts');
    const { blobKeyProblem } = await import('../../packages/server/src/storage/blob-key.ts');
    const cache = createBackgroundRenderCache();
    const asset = BACKGROUND_CATALOGUE.assets[0]!;
    for (const options of [
      { width: 480, height: 300, format: 'webp' as const, scale: 0.5 },
      { width: 2560, height: 1600, format: 'png' as const, scale: 2 },
      { width: 1200, height: 700, format: 'jpg' as const, scale: 1.25, quality: 80 },
    ]) {
      expect(blobKeyProblem(cache.keyFor(asset, options))).toBeUndefined();
    }
  });
});
