import crypto from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchTestChromium } from '../support/capture-test-kit.ts';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { ENGINES, startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

/**
 * A client's signer, written from docs/api-decisions.md section 4 alone (not our server code): pairs of
 * decoded values, each encodeURIComponent'd, sorted as whole strings, METHOD\nPATH\npairs,
 * lowercase hex HMAC-SHA256 keyed with the signing secret.
 */
function signUrl(base: string, secret: string, params: Record<string, string>): string {
  const pairs = Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .sort();
  const canonical = `GET\n/v1/capture\n${pairs.join('&')}`;
  const signature = crypto.createHmac('sha256', secret).update(canonical).digest('hex');
  return `${base}/v1/capture?${pairs.join('&')}&signature=${signature}`;
}

describe.each(ENGINES)('POST and GET /v1/capture on %s', (engine) => {
  let t: TestApp;
  let fixtures: RunningServer;
  let owner: TestKey;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    t = await startTestApp(engine, { env: { VITRINE_ALLOW_TARGETS: '127.0.0.2' } });
    owner = await t.createKey({ credits: 100 });
  });
  afterAll(async () => {
    await t.close();
    await fixtures.close();
  });

  const page = (name: string) => `${fixtures.origin}/capture/${name}`;
  /** The stored PNG of a capture, through the CDN route. */
  const storedPng = async (id: string) =>
    Buffer.from(await (await fetch(`${t.baseUrl}/cdn/r/${id}.png`)).arrayBuffer());
  /** simple.html at 800x600 with no background and no padding, plus `style`. */
  const plainCapture = (style: Record<string, unknown> = {}) =>
    t.request('POST', '/v1/capture', {
      key: owner.key,
      json: {
        url: page('simple.html'),
        background_style: 'none',
        padding: 0,
        viewport: { width: 800, height: 600 },
        ...style,
      },
    });

  it('renders the default look from {url} alone', async () => {
    const res = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { url: page('simple.html'), show_resolved_params: true },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({
      width: 1568,
      height: 1028,
      format: 'png',
      credits_used: 1,
      cached: false,
    });
    expect(res.json.resolved_params).toMatchObject({
      background_style: 'gradient',
      background_preset: 'aurora',
      padding: 64,
      corner_radius: 12,
      shadow: 'soft',
      viewport: { width: 1440, height: 900 },
      capture_dpr: 1,
      canvas: { width: 1568, height: 1028 },
    });
    const bytes = await storedPng(res.json.id);
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    // An opaque canvas is stored without an alpha channel.
    expect(info).toMatchObject({ width: 1568, height: 1028, channels: 3 });
    // The corner is gradient (aurora starts at indigo), not white page.
    expect([data[0], data[1], data[2]]).not.toEqual([255, 255, 255]);
  });

  it('gives the plain screenshot with background none and padding 0', async () => {
    const res = await plainCapture();
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ width: 800, height: 600 });
    // Every pixel is opaque: stored without an alpha channel.
    const bytes = await storedPng(res.json.id);
    expect((await sharp(bytes).metadata()).channels).toBe(3);
  });

  it('keeps the alpha channel where the canvas is see-through', async () => {
    const res = await plainCapture({ corner_radius: 24 });
    expect(res.status, res.text).toBe(201);
    const bytes = await storedPng(res.json.id);
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    expect(data[3]).toBe(0);
    expect(data[(300 * 800 + 400) * 4 + 3]).toBe(255);
  });

  it('draws CJK and every script the script faces cover, and warns of characters no font has', async () => {
    const res = await plainCapture({
      padding: 48,
      background_style: 'gradient',
      title: 'Ship 日本語のタイトル',
      subtitle: 'สวัสดี Привет שלום مرحبا नमस्ते',
      // Private-use characters: no font has them.
      watermark: 'Vitrine \ue000\ue001',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.warnings).toEqual([
      'watermark: no font has the characters "\ue000\ue001"; compose_mode satori draws them as empty boxes',
    ]);
  });

  it('names invalid enum values and their valid set', async () => {
    const res = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { url: page('simple.html'), shadow: 'huge' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe('Invalid shadow. Must be one of: none, soft, hard, glow, float');
    const jpg = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { url: page('simple.html'), background_style: 'transparent', output: { format: 'jpg' } },
    });
    expect(jpg.status).toBe(400);
    expect(jpg.json.error.details.issues[0].path).toBe('background_style');
  });

  it('refuses a bad field with 400 before the network check, even when the target is unreachable', async () => {
    const before = (await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining;
    for (const [field, value] of [
      ['title_font', 'Comic Sans'],
      ['background_gradient', 'linear-gradient(nonsense'],
    ] as const) {
      const res = await t.request('POST', '/v1/capture', {
        key: owner.key,
        json: { url: 'http://127.0.0.2:1/', [field]: value },
      });
      expect(res.status, field).toBe(400);
      expect(res.json.error.details.issues[0].path).toBe(field);
    }
    const dpr = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { url: page('simple.html'), output: { dpr: 4 } },
    });
    expect(dpr.json.error.message).toBe('Invalid output.dpr. Must be one of: 1, 2, 3');
    expect((await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining).toBe(before);
  });

  it('maps the query form and its aliases onto the same capture', async () => {
    const query = new URLSearchParams({
      site: page('simple.html'),
      bg: 'ember',
      shadow: 'hard',
      format: 'webp',
      width: '1200',
      height: '800',
    });
    const res = await t.request('GET', `/v1/capture?${query}`, { key: owner.key });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ width: 1200, height: 800, format: 'webp' });

    const dup = await t.request('GET', `/v1/capture?${query}&bg=ocean`, { key: owner.key });
    expect(dup.status).toBe(400);
    expect(dup.json.error.message).toBe('Duplicate query parameter: bg');

    const payload = Buffer.from(
      JSON.stringify({ url: page('simple.html'), padding: 10, shadow: 'none' }),
    ).toString('base64url');
    const viaPayload = await t.request('GET', `/v1/capture?payload=${payload}&padding=20`, {
      key: owner.key,
    });
    expect(viaPayload.status).toBe(400); // padding is not a query field: it belongs in the payload
    const overridden = await t.request('GET', `/v1/capture?payload=${payload}&shadow=soft`, {
      key: owner.key,
    });
    expect(overridden.status, overridden.text).toBe(201);
    expect(overridden.json).toMatchObject({ width: 1440 + 20, height: 900 + 20 });

    const apiKeyQuery = await t.request('GET', `/v1/capture?${query}&api_key=${owner.key}&response=redirect`);
    expect(apiKeyQuery.status).toBe(302);
    expect(apiKeyQuery.headers.get('location')).toMatch(/\/cdn\/r\/cap_[0-9A-Z]{26}\.webp$/);
  });

  describe('signed URLs', () => {
    let projectId: string;
    let secret: string;

    beforeAll(async () => {
      const created = await t.request('POST', '/v1/projects', { key: owner.key, json: { name: 'Embeds' } });
      projectId = created.json.project.id;
      secret = created.json.signing_secret;
    });

    const params = (expires: number, extra: Record<string, string> = {}) => ({
      project_id: projectId,
      expires: String(expires),
      url: page('simple.html'),
      bg: 'ocean',
      width: '600',
      height: '400',
      response: 'image',
      ...extra,
    });
    const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

    it('works without an API key as an <img src> in a real browser, charged to the project owner', async () => {
      const before = (await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining;
      const src = signUrl(t.baseUrl, secret, params(inAnHour()));
      const direct = await fetch(src);
      expect(direct.status).toBe(200);
      expect(direct.headers.get('content-type')).toBe('image/png');
      const meta = await sharp(Buffer.from(await direct.arrayBuffer())).metadata();
      expect(meta).toMatchObject({ width: 600, height: 400 });
      expect((await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining).toBe(
        before - 1,
      );

      const browser = await launchTestChromium();
      try {
        const tab = await browser.newPage();
        await tab.setContent(`<img id="shot" src="${src.replaceAll('&', '&amp;')}">`);
        await tab.waitForFunction(() => (document.getElementById('shot') as HTMLImageElement).complete);
        const width = await tab.evaluate(
          () => (document.getElementById('shot') as HTMLImageElement).naturalWidth,
        );
        expect(width).toBe(600);
      } finally {
        await browser.close();
      }
    });

    it('refuses an expired URL with signature_expired', async () => {
      const res = await fetch(signUrl(t.baseUrl, secret, params(Math.floor(Date.now() / 1000) - 10)));
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe('signature_expired');
    });

    it('refuses a changed parameter, a bad expires and a far future with signature_invalid', async () => {
      const src = signUrl(t.baseUrl, secret, params(inAnHour()));
      for (const tampered of [
        src.replace('bg=ocean', 'bg=ember'),
        src.replace('width=600', 'width=601'),
        `${src.replace(/&signature=.*/, '')}&signature=${'0'.repeat(64)}`,
        signUrl(t.baseUrl, secret, params(inAnHour(), { expires: '17e8' })),
        signUrl(t.baseUrl, secret, params(inAnHour() + 30 * 86400)),
        signUrl(t.baseUrl, 'vss_wrong-secret', params(inAnHour())),
      ]) {
        const res = await fetch(tampered);
        expect(res.status, tampered).toBe(401);
        expect((await res.json()).error.code).toBe('signature_invalid');
      }
    });

    it('keeps the previous secret valid after a rotation', async () => {
      const rotated = await t.request('POST', `/v1/projects/${projectId}/signing-secret/rotate`, {
        key: owner.key,
      });
      const withOld = await fetch(signUrl(t.baseUrl, secret, params(inAnHour(), { bg: 'dusk' })));
      expect(withOld.status).toBe(200);
      const withNew = await fetch(
        signUrl(t.baseUrl, rotated.json.signing_secret, params(inAnHour(), { bg: 'forest' })),
      );
      expect(withNew.status).toBe(200);
      secret = rotated.json.signing_secret;
    });
  });
});

describe('compose_mode browser through the API', () => {
  it('renders the same canvas as satori mode, without a fallback warning', async () => {
    const fixtures = await startFixtureServer();
    const t = await startTestApp('sqlite', { env: { VITRINE_ALLOW_TARGETS: '127.0.0.2' } });
    try {
      const key = await t.createKey();
      const body = {
        url: `${fixtures.origin}/capture/simple.html`,
        viewport: { width: 640, height: 400 },
        title: 'Hi',
      };
      const satori = await t.request('POST', '/v1/capture', {
        key: key.key,
        json: { ...body, compose_mode: 'satori' },
      });
      const browser = await t.request('POST', '/v1/capture', {
        key: key.key,
        json: { ...body, compose_mode: 'browser' },
      });
      expect(browser.status, browser.text).toBe(201);
      expect(browser.json.warnings).toEqual([]);
      expect([browser.json.width, browser.json.height]).toEqual([satori.json.width, satori.json.height]);
    } finally {
      await t.close();
      await fixtures.close();
    }
    // Starts an app and renders three times with Chromium: slow on 2 loaded cores.
  }, 120_000);
});
