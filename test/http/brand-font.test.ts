import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PAGES_DIR, type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = Record<string, any>;

const ENV = {
  VITRINE_ALLOW_TARGETS: '127.0.0.2',
  VITRINE_QUEUE_POLL_MS: '50',
  VITRINE_CAPTURE_TIMEOUT_MS: '120000',
  VITRINE_NAVIGATION_TIMEOUT_MS: '60000',
};

/** Polls a project's brand until extraction settles. */
async function settle(t: TestApp, key: string, id: string): Promise<Json> {
  for (let i = 0; i < 1500; i++) {
    const body = (await t.request('GET', `/v1/projects/${id}/brand/status`, { key })).json;
    if (body.status === 'completed' || body.status === 'failed') return body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('brand extraction did not settle');
}

/** The top fifth of a capture's image (where a top title is drawn), as raw RGB at 800 px wide. */
async function titleBand(url: string): Promise<Buffer> {
  const png = Buffer.from(await (await fetch(url)).arrayBuffer());
  const resized = await sharp(png)
    .resize({ width: 800 })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return resized.data.subarray(0, Math.floor(resized.info.height / 5) * 800 * 3);
}

/** Fraction of pixels of two bands whose largest channel delta exceeds 48. */
function differing(a: Buffer, b: Buffer): number {
  expect(a.length).toBe(b.length);
  let over = 0;
  for (let i = 0; i < a.length; i += 3) {
    let d = 0;
    for (let c = 0; c < 3; c++) d = Math.max(d, Math.abs((a[i + c] as number) - (b[i + c] as number)));
    if (d > 48) over++;
  }
  return over / (a.length / 3);
}

/**
 * Issue 34, item 3 over HTTP: brand extraction keeps the site's self-hosted heading font with the
 * brand (test/fixtures/pages/brand-font), `ai_brand` captures of the project draw the title in it
 * in both compose modes, and a site whose font 404s records why and gets the nearest catalogue
 * family. The images themselves: test/compose/brand-font.test.ts.
 */
describe('the brand own font, from extraction to ai_brand captures', () => {
  let site: RunningServer;
  let broken: RunningServer;
  let t: TestApp;
  let owner: TestKey;
  const page = readFileSync(path.join(FIXTURE_PAGES_DIR, 'brand-font/index.html'), 'utf8');

  beforeAll(async () => {
    site = await startFixtureServer();
    site.route('/', (_req, res) => {
      res.writeHead(302, { location: '/brand-font/index.html' }).end();
    });
    // The same site, its font file gone (a 404 from the fixture server).
    broken = await startFixtureServer();
    broken.route('/', (_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(page.replace('fonts/abril-fatface-latin-400-normal.woff2', '/brand-font/fonts/gone.woff2'));
    });
    t = await startTestApp('sqlite', { env: ENV });
    owner = await t.createKey({ credits: 100 });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await site?.close();
    await broken?.close();
  });

  const project = async (server: RunningServer) => {
    const created = await t.request('POST', '/v1/projects', {
      key: owner.key,
      json: { domain: `${server.host}:${server.port}` },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const settled = await settle(t, owner.key, created.json.project.id);
    expect(settled.status, JSON.stringify(settled)).toBe('completed');
    return { id: created.json.project.id as string, brand: settled.brand as Json };
  };
  const shoot = (json: Json) =>
    t.request('POST', '/v1/capture', {
      key: owner.key,
      json: {
        url: `${site.origin}/brand-font/index.html`,
        cache_ttl: 0,
        show_resolved_params: true,
        title: 'Books worth the shelf',
        ...json,
      },
    });

  it('extraction keeps the heading font file; ai_brand titles of the project use it in both modes', async () => {
    const { id, brand } = await project(site);
    expect(brand.fonts.heading).toBe('Abril Fatface');
    expect(brand.fonts.file).toEqual({
      family: 'Abril Fatface',
      source_url: `${site.origin}/brand-font/fonts/abril-fatface-latin-400-normal.woff2`,
      generic: 'serif',
      sha256: expect.stringMatching(/^[a-f0-9]{64}$/),
      error: null,
    });
    const bands: Record<string, Buffer> = {};
    for (const mode of ['satori', 'browser']) {
      const res = await shoot({ ai_brand: true, project_id: id, compose_mode: mode });
      bands[mode] = await titleBand(res.json.url);
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      expect(res.json.ai_decisions.brand.title_font, mode).toEqual({
        family: 'Abril Fatface',
        from: 'site',
        file: brand.fonts.file.source_url,
      });
      expect(res.json.resolved_params.title_font, mode).toBe(`Brand ${brand.fonts.file.sha256.slice(0, 16)}`);
      expect(res.json.warnings ?? [], mode).toEqual([]);
    }
    // The drawn title is the site's face: both modes agree on it (0.2 % of the band differs,
    // measured), and Lora (the catalogue's nearest serif) draws another title (3.5 %).
    const lora = await shoot({ ai_brand: true, project_id: id, title_font: 'Lora' });
    expect(lora.json.resolved_params.title_font).toBe('Lora');
    const loraBand = await titleBand(lora.json.url);
    expect(differing(bands.satori as Buffer, bands.browser as Buffer)).toBeLessThan(0.01);
    expect(differing(bands.satori as Buffer, loraBand)).toBeGreaterThan(0.015);
  }, 300_000);

  it('ai_brand without a project uses the page own font', async () => {
    const res = await shoot({ ai_brand: true });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json.ai_decisions.brand).toMatchObject({
      source: 'page',
      title_font: { family: 'Abril Fatface', from: 'site' },
    });
    expect(res.json.resolved_params.title_font).toMatch(/^Brand [0-9a-f]{16}$/);
  }, 300_000);

  it('a site whose font 404s: the brand says why, and ai_brand titles get the nearest catalogue family', async () => {
    const { id, brand } = await project(broken);
    expect(brand.fonts.file).toEqual({
      family: 'Abril Fatface',
      source_url: `${broken.origin}/brand-font/fonts/gone.woff2`,
      generic: 'serif',
      sha256: null,
      error: 'the font file answered HTTP 404',
    });
    const res = await shoot({ ai_brand: true, project_id: id });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json.resolved_params.title_font).toBe('Lora');
    expect(res.json.ai_decisions.reasons).toContain(
      'brand font Abril Fatface could not be used (the font file answered HTTP 404): nearest catalogue family Lora (by generic class serif) on the title',
    );
  }, 300_000);
});
