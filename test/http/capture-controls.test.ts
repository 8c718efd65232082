import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { decode, near } from '../support/capture-test-kit.ts';
import { useFixtureApp } from '../support/fixture-app.ts';
import { FIXTURE_PAGES_DIR } from '../support/fixture-server.ts';
import { loopbackDialer, noDnsResolver } from '../support/loopback-dialer.ts';

/**
 * Issue 40, end to end with real Chromium through the egress proxy: steps before the shot, the
 * browser's identity, HTML input, page metadata and AVIF, on local fixture pages.
 */
describe('capture controls', () => {
  const egress = loopbackDialer();
  const app = useFixtureApp({
    env: { VITRINE_QUEUE_POLL_MS: '50' },
    credits: 500,
    appOptions: { egressDialer: egress.dial, resolver: noDnsResolver },
  });
  const echoed: http.IncomingHttpHeaders[] = [];

  beforeAll(() => {
    // A web font from another origin needs CORS, as from any font host.
    app.fixtures.route('/controls/font.woff2', (_req, res) => {
      res
        .writeHead(200, { 'content-type': 'font/woff2', 'access-control-allow-origin': '*' })
        .end(fs.readFileSync(path.join(FIXTURE_PAGES_DIR, 'ssrf/fixture-font.woff2')));
    });
    app.fixtures.route('/controls/echo', (req, res) => {
      echoed.push(req.headers);
      const title = `x-demo=${req.headers['x-demo'] ?? ''};accept-language=${req.headers['accept-language'] ?? ''};cookie=${req.headers.cookie ?? ''}`;
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><title>${title.replace(/[<&]/g, '')}</title><h1>echo</h1>`);
    });
  });

  const page = (name: string) => `${app.fixtures.origin}/controls/${name}`;
  const post = (path: '/v1/capture' | '/v1/raw', json: Record<string, unknown>) =>
    app.t.request('POST', path, { key: app.key.key, json: { cache_ttl: 0, ...json } });
  const image = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
  const viewport = { width: 800, height: 600 };

  describe('actions', () => {
    it('shows the pricing panel only after the tab is clicked', async () => {
      const before = await post('/v1/raw', { url: page('tabs.html'), viewport });
      expect(before.status, before.text).toBe(201);
      expect(near((await decode(await image(before.json.url))).at(400, 400), [200, 30, 30])).toBe(true);

      const after = await post('/v1/raw', {
        url: page('tabs.html'),
        viewport,
        actions: [
          { type: 'click', selector: '#tab-pricing' },
          { type: 'wait_for', selector: '#panel-pricing' },
        ],
      });
      expect(after.status, after.text).toBe(201);
      expect(near((await decode(await image(after.json.url))).at(400, 400), [30, 60, 200])).toBe(true);
    }, 90_000);

    it('clicks a tab described in plain words (the element resolver)', async () => {
      const res = await post('/v1/raw', {
        url: page('tabs.html'),
        viewport,
        actions: [
          { type: 'click', element: 'Pricing plans tab' },
          { type: 'wait_for', selector: '#panel-overview', state: 'hidden' },
        ],
      });
      expect(res.status, res.text).toBe(201);
      expect(near((await decode(await image(res.json.url))).at(400, 400), [30, 60, 200])).toBe(true);
    }, 90_000);

    it('types into a form, selects an option, presses a key and hovers', async () => {
      const res = await post('/v1/raw', {
        url: page('form.html'),
        viewport,
        metadata: true,
        actions: [
          { type: 'type', selector: '#name', text: 'Ada Lovelace' },
          { type: 'select', selector: '#plan', value: 'Pro plan' },
          { type: 'press', selector: '#name', key: 'Enter' },
          { type: 'hover', selector: '#hover-box' },
        ],
      });
      expect(res.status, res.text).toBe(201);
      expect(res.json.metadata.title).toBe('name=Ada Lovelace;plan=pro;key=Enter');
      const pixels = await decode(await image(res.json.url));
      expect(near(pixels.at(700, 500), [20, 160, 60])).toBe(true);
      // The hover box (20 px margin, below the form) under the pointer.
      const box = pixels.at(80, 110);
      expect(near(box, [250, 200, 0]), String(box)).toBe(true);
    }, 90_000);

    it('scrolls to a position, or to an element, before a viewport shot', async () => {
      // A 20000 px gradient from white to black: the grey at the viewport's centre says where it is.
      const grey = async (actions: unknown[]) => {
        const res = await post('/v1/raw', {
          url: `${app.fixtures.origin}/capture/tall.html`,
          viewport,
          actions,
        });
        expect(res.status, res.text).toBe(201);
        return (await decode(await image(res.json.url))).at(400, 300)[0];
      };
      expect(await grey([{ type: 'wait', ms: 0 }])).toBeGreaterThan(240);
      const middle = await grey([{ type: 'scroll_to', y: 10_000 }]);
      expect(Math.abs(middle - 255 * (1 - 10_300 / 20_000))).toBeLessThanOrEqual(6);
      const res = await post('/v1/raw', {
        url: page('form.html'),
        viewport: { width: 800, height: 200 },
        actions: [{ type: 'scroll_to', selector: '#hover-box' }],
        metadata: true,
      });
      expect(res.status, res.text).toBe(201);
    }, 90_000);

    it('names the failing step (index and type) in the error envelope, and charges nothing', async () => {
      const credits = async () =>
        (await app.t.request('GET', '/v1/usage', { key: app.key.key })).json.credits_remaining as number;
      const before = await credits();
      const res = await post('/v1/raw', {
        url: page('tabs.html'),
        viewport,
        actions: [
          { type: 'wait', ms: 10 },
          { type: 'click', selector: '#no-such-tab', timeout_ms: 500 },
        ],
      });
      expect(res.status, res.text).toBe(422);
      expect(res.json.error).toMatchObject({
        code: 'capture_failed',
        details: { reason: 'action_failed', step: 1, type: 'click' },
      });
      expect(res.json.error.message).toMatch(/^actions\[1\] \(click\): selector "#no-such-tab"/);
      expect(await credits()).toBe(before);
    }, 60_000);

    it.each([
      [{ actions: [{ type: 'click' }] }, 'actions[0].selector'],
      [{ actions: [{ type: 'click', selector: 'a', element: 'link' }] }, 'actions[0].element'],
      [{ actions: [{ type: 'scroll_to', selector: 'a', y: 10 }] }, 'actions[0].y'],
      [{ actions: [{ type: 'wait', ms: 60_000 }] }, 'actions[0].ms'],
      [{ actions: [{ type: 'teleport' }] }, 'actions[0].type'],
      [{ actions: Array.from({ length: 21 }, () => ({ type: 'wait', ms: 1 })) }, 'actions'],
      [{ actions: Array.from({ length: 13 }, () => ({ type: 'wait', ms: 5000 })) }, 'actions'],
      [{ actions: [{ type: 'press', key: 'Enter\r\nX' }] }, 'actions[0].key'],
    ])('refuses %j with 400 naming %s', async (fields, path) => {
      const res = await post('/v1/raw', { url: page('tabs.html'), ...fields });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe('invalid_params');
      expect(JSON.stringify(res.json.error.details.issues)).toContain(path);
    });
  });

  describe('identity', () => {
    it('prints the locale, time zone, coordinates and reduced motion the request asked for', async () => {
      const res = await post('/v1/capture', {
        url: page('identity.html'),
        viewport,
        background_style: 'none',
        metadata: true,
        locale: 'de-DE',
        timezone: 'Asia/Tokyo',
        geolocation: { latitude: 35.6812, longitude: 139.7671, accuracy: 25 },
        reduced_motion: true,
        color_scheme: 'dark',
        wait_for: '#done',
      });
      expect(res.status, res.text).toBe(201);
      expect(JSON.parse(res.json.metadata.title)).toEqual({
        lang: 'de-DE',
        tz: 'Asia/Tokyo',
        offset: -540,
        number: '1.234,5',
        motion: true,
        dark: true,
        geo: '35.6812,139.7671,25',
      });
      const plain = await post('/v1/capture', {
        url: page('identity.html'),
        viewport,
        background_style: 'none',
        metadata: true,
        wait_for: '#done',
      });
      expect(plain.status, plain.text).toBe(201);
      const seen = JSON.parse(plain.json.metadata.title);
      expect(seen).toMatchObject({ motion: false, dark: false });
      expect(seen.tz).not.toBe('Asia/Tokyo');
      expect(seen.geo).not.toBe('35.6812,139.7671,25');
    }, 90_000);

    it('sends the extra headers, the Accept-Language and the request cookies to the test host', async () => {
      echoed.length = 0;
      const res = await post('/v1/capture', {
        url: page('echo'),
        viewport,
        background_style: 'none',
        metadata: true,
        headers: { 'X-Demo': 'hello vitrine' },
        locale: 'fr-CA',
        cookies: [{ name: 'session', value: 'abc123' }],
      });
      expect(res.status, res.text).toBe(201);
      expect(res.json.metadata.title).toBe(
        'x-demo=hello vitrine;accept-language=fr-CA;cookie=session=abc123',
      );
      expect(echoed[0]).toMatchObject({ 'x-demo': 'hello vitrine', cookie: 'session=abc123' });
      expect(echoed[0]?.['accept-language']).toMatch(/^fr-CA/);
      // Values never appear in resolved_params, only their digests.
      const shown = await post('/v1/capture', {
        url: page('echo'),
        headers: { 'X-Demo': 'hello vitrine' },
        show_resolved_params: true,
        background_style: 'none',
      });
      expect(shown.status, shown.text).toBe(201);
      expect(shown.json.resolved_params.headers['x-demo']).toMatch(/^sha256:[0-9a-f]{32}$/);
      expect(shown.text).not.toContain('hello vitrine');
    }, 90_000);

    it.each([
      [{ headers: { Host: 'internal.example' } }, 'headers.Host'],
      [{ headers: { 'Transfer-Encoding': 'chunked' } }, 'headers.Transfer-Encoding'],
      [{ headers: { Connection: 'close' } }, 'headers.Connection'],
      [{ headers: { 'Proxy-Authorization': 'Basic eA==' } }, 'headers.Proxy-Authorization'],
      [{ headers: { 'Sec-Fetch-Site': 'none' } }, 'headers.Sec-Fetch-Site'],
      [{ headers: { 'X-Ok': 'a\r\nHost: 169.254.169.254' } }, 'headers.X-Ok'],
      [{ headers: { 'X-Ok': 'a\nb' } }, 'headers.X-Ok'],
      [{ headers: { 'X-Ok': 'a\u0000b' } }, 'headers.X-Ok'],
      [{ headers: { 'Bad Name': 'x' } }, 'headers.Bad Name'],
      [{ headers: { 'X-A\r\nHost': 'x' } }, 'headers.X-A'],
      [{ headers: { 'x-a': '1', 'X-A': '2' } }, 'headers.X-A'],
      [{ headers: { cookie: 'a=b' }, cookies: [{ name: 'c', value: 'd' }] }, 'headers.cookie'],
      [{ headers: { Cookie: 'session=stolen' } }, 'headers.Cookie'],
      [{ cookies: [{ name: 'sid', value: 'x', domain: 'bank.example' }] }, 'cookies'],
      [{ cookies: [{ name: 'sid', value: 'x\r\nSet-Cookie: y' }] }, 'cookies.value'],
      [{ locale: 'en-US,fr;q=0.5' }, 'locale'],
      [{ locale: 'not a locale' }, 'locale'],
      [{ timezone: 'Mars/Olympus' }, 'timezone'],
      [{ geolocation: { latitude: 91, longitude: 0 } }, 'geolocation.latitude'],
      [{ color_scheme: 'dark', dark_mode: false }, 'color_scheme'],
      [{ headers: { 'X-A': 'b' }, async: true }, 'headers'],
    ])('refuses %j with 400 naming %s', async (fields, path) => {
      const res = await post('/v1/capture', { url: page('echo'), ...fields });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe('invalid_params');
      expect(JSON.stringify(res.json.error.details.issues)).toContain(path);
    });
  });

  it('queues html, steps and metadata as a job: the worker renders the stored payload as is', async () => {
    const queued = await post('/v1/capture', {
      html: '<!doctype html><title>before</title><style>body{margin:0;background:rgb(200,30,30)}</style><button id="b" onclick="document.title=\'after\';document.body.style.background=\'rgb(30,60,200)\'">Go</button>',
      viewport,
      background_style: 'none',
      actions: [{ type: 'click', selector: '#b' }],
      metadata: true,
      locale: 'ja-JP',
      output: { format: 'avif' },
      async: true,
    });
    expect(queued.status, queued.text).toBe(202);
    let job = { status: 'pending', result: null as null | Record<string, unknown>, error: null };
    for (let i = 0; i < 600 && job.status === 'pending'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = (await app.t.request('GET', `/v1/jobs/${queued.json.job_id}`, { key: app.key.key })).json;
    }
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(job.result).toMatchObject({ format: 'avif', metadata: { title: 'after' } });
  }, 90_000);

  it('refuses headers and cookies in a GET payload (a URL is logged and shared)', async () => {
    for (const secret of [{ headers: { 'x-a': '1' } }, { cookies: [{ name: 'sid', value: 'x' }] }]) {
      const payload = Buffer.from(JSON.stringify({ url: page('echo'), ...secret })).toString('base64url');
      const res = await app.t.request('GET', `/v1/capture?payload=${payload}`, { key: app.key.key });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.details.issues[0].path).toBe(`payload.${Object.keys(secret)[0]}`);
    }
  });

  describe('html input', () => {
    it('renders html with a web font and an image from the test host, through the egress proxy', async () => {
      const origin = app.fixtures.origin;
      const html = `<!doctype html><html><head><meta charset="utf-8"><title>pending</title>
<style>@font-face { font-family: "FixtureFont"; src: url("${origin}/controls/font.woff2") format("woff2"); }
body { margin: 0; font-family: "FixtureFont", serif; }</style></head>
<body><img id="tile" src="${origin}/ssrf/tile-1.png" width="96" height="64"><p id="text">Hello from html</p>
<script>addEventListener('load', () => document.fonts.load('16px FixtureFont').then(() => {
const img = document.getElementById('tile');
document.title = 'font=' + document.fonts.check('16px FixtureFont') + ';image=' + img.naturalWidth; }));</script></body></html>`;
      const res = await post('/v1/raw', {
        html,
        css: 'body { background: rgb(10, 120, 90); }',
        viewport,
        metadata: true,
        show_resolved_params: true,
      });
      expect(res.status, res.text).toBe(201);
      expect(res.json.metadata.title).toBe('font=true;image=48');
      expect(app.fixtures.hits).toContain('/controls/font.woff2');
      expect(app.fixtures.hits).toContain('/ssrf/tile-1.png');
      const pixels = await decode(await image(res.json.url));
      expect(near(pixels.at(40, 30), [220, 40, 40])).toBe(true);
      expect(near(pixels.at(700, 500), [10, 120, 90])).toBe(true);
      expect(res.json.resolved_params.html).toEqual({
        bytes: Buffer.byteLength(`${html}\n<style>body { background: rgb(10, 120, 90); }</style>`),
        digest: expect.stringMatching(/^sha256:/),
      });
      // Nothing but the fixture host was ever dialled.
      expect(new Set(egress.dialled.map((target) => target.address))).toEqual(new Set(['127.0.0.2']));
    }, 90_000);

    it.each([
      [{ html: '<p>x</p>', url: 'https://example.com' }, 'url'],
      [{ css: 'p {}', url: 'https://example.com' }, 'css'],
      [{ html: 'x'.repeat(192 * 1024 + 1) }, 'html'],
      [{ html: 'é'.repeat(100 * 1024) }, 'html'],
      [{ html: '<p>x</p>', cookies: [{ name: 'a', value: 'b' }] }, 'cookies'],
      [{}, 'url'],
    ])('refuses %# with 400 naming %s', async (fields, path) => {
      const res = await app.t.request('POST', '/v1/capture', { key: app.key.key, json: fields });
      expect(res.status, res.text.slice(0, 300)).toBe(400);
      expect(JSON.stringify(res.json.error.details.issues)).toContain(path);
    });
  });

  describe('metadata', () => {
    it("returns the fixture's own tags, colours and fonts in the result, and again from the cache", async () => {
      const body = { url: page('meta.html'), viewport, metadata: true, cache_ttl: 600 };
      const res = await app.t.request('POST', '/v1/capture', { key: app.key.key, json: body });
      expect(res.status, res.text).toBe(201);
      const origin = app.fixtures.origin;
      expect(res.json.metadata).toEqual({
        title: 'Fixture metadata page',
        description: 'A page that declares everything a card needs.',
        canonical_url: `${origin}/canonical/page`,
        favicon_url: `${origin}/favicon-32.png`,
        theme_color: '#123456',
        language: 'fr-CA',
        open_graph: {
          title: 'OG fixture title',
          description: 'OG fixture description',
          image: 'https://cdn.example.com/og.png',
          type: 'website',
        },
        twitter: { card: 'summary_large_image', site: '@vitrine' },
        colors: {
          text: 'rgb(20, 20, 60)',
          background: 'rgb(250, 245, 230)',
          buttons: [],
          links: ['rgb(0, 90, 200)'],
          headings: ['rgb(150, 0, 40)'],
        },
        fonts: { headings: 'Courier New', body: 'Georgia' },
      });
      const again = await app.t.request('POST', '/v1/capture', { key: app.key.key, json: body });
      expect(again.json.cached).toBe(true);
      expect(again.json.metadata).toEqual(res.json.metadata);
      const without = await post('/v1/capture', { url: page('meta.html'), viewport });
      expect(without.json.metadata).toBeUndefined();
    }, 90_000);

    it("checks what a hostile page answers: a page that swaps the DOM's methods gets no metadata", async () => {
      const res = await post('/v1/raw', {
        html: `<!doctype html><title>x</title><script>
const huge = 'x'.repeat(5000);
Document.prototype.querySelector = () => ({ getAttribute: () => huge });
Object.defineProperty(document, 'title', { get: () => huge });
</script><p>hostile</p>`,
        viewport,
        metadata: true,
      });
      expect(res.status, res.text).toBe(201);
      expect(res.json.metadata).toBeUndefined();
      expect(res.json.warnings).toContain(
        "The page's metadata could not be read: it answered in an unexpected form",
      );
    }, 60_000);
  });

  describe('avif', () => {
    it('encodes AVIF at the requested size and quality, decoded by sharp', async () => {
      const res = await post('/v1/raw', {
        url: page('tabs.html'),
        viewport,
        output: { format: 'avif', width: 640, height: 480, quality: 50 },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.json).toMatchObject({ format: 'avif', width: 640, height: 480 });
      expect(res.json.url).toMatch(/\.avif$/);
      const response = await fetch(res.json.url);
      expect(response.headers.get('content-type')).toBe('image/avif');
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(await sharp(bytes).metadata()).toMatchObject({
        format: 'heif',
        compression: 'av1',
        width: 640,
        height: 480,
      });
      const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const i = (300 * info.width + 320) * info.channels;
      expect(near([data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0], [200, 30, 30], 16)).toBe(true);
    }, 60_000);
  });
});
