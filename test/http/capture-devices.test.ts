import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

describe('captures in device frames', () => {
  let t: TestApp;
  let fixtures: RunningServer;
  let owner: TestKey;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    // Echoes what the browser looked like: width, DPR and user agent.
    fixtures.route('/whoami', (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Who am I</title>
        <body style="margin:0;font:16px sans-serif"><p id="ua">${(req.headers['user-agent'] ?? '').replace(/[<>&]/g, '')}</p></body>`);
    });
    fixtures.route('/dark-header', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Dark</title>
        <body style="margin:0;background:#fff"><header style="height:80px;background:#0f172a"></header></body>`);
    });
    t = await startTestApp('sqlite', { env: { VITRINE_ALLOW_TARGETS: '127.0.0.2' } });
    owner = await t.createKey({ credits: 100 });
  });
  afterAll(async () => {
    await t.close();
    await fixtures.close();
  });

  it("applies the iPhone's viewport, DPR and user agent when no viewport is given", async () => {
    const res = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { url: `${fixtures.origin}/whoami`, device: 'iphone-16-pro', show_resolved_params: true },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.resolved_params).toMatchObject({
      viewport: { width: 402, height: 812 },
      capture_dpr: 3,
      emulate_mobile: true,
      emulate_touch: true,
      user_agent: expect.stringContaining('iPhone'),
      device: 'iphone-16-pro',
    });
    // The iOS status bar sits above the page, tinted with the page's top colour (white here).
    expect(res.json.resolved_params.canvas.device.bar).toMatchObject({
      rect: { height: 62 },
      background: '#ffffff',
      foreground: '#000000',
    });
    expect(res.json.resolved_params.canvas.device.screen.rect).toMatchObject({ width: 402, height: 812 });
    expect(res.json.warnings).toEqual([]);
  });

  it("tints the bar with a dark site's header and draws white glyphs on it", async () => {
    const res = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { url: `${fixtures.origin}/dark-header`, device: 'macbook-pro-16', show_resolved_params: true },
    });
    expect(res.status, res.text).toBe(201);
    const bar = res.json.resolved_params.canvas.device.bar;
    expect(bar).toMatchObject({ background: '#0f172a', foreground: '#ffffff' });
    // The composed image shows the bar in that colour just left of the notch, under no menu word.
    const { data, info } = await sharp(Buffer.from(await (await fetch(res.json.url)).arrayBuffer()))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const x = Math.round(bar.rect.x + bar.rect.width * 0.4);
    const y = Math.round(bar.rect.y + bar.rect.height * 0.15);
    const i = (y * info.width + x) * info.channels;
    const delta = Math.max(...[15, 23, 42].map((want, k) => Math.abs((data[i + k] as number) - want)));
    expect(delta).toBeLessThan(12);
  });

  it('lets explicit fields win over the device defaults', async () => {
    const res = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: {
        url: `${fixtures.origin}/whoami`,
        device: 'macbook-pro-16',
        viewport: { width: 1280, height: 800 },
        capture_dpr: 1,
        show_resolved_params: true,
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.resolved_params).toMatchObject({
      viewport: { width: 1280, height: 800 },
      capture_dpr: 1,
    });
  });

  it('draws the browser frame with the page title and URL and looks designed', async () => {
    const res = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: {
        url: `${fixtures.origin}/capture/simple.html`,
        device: 'browser-macos',
        viewport: { width: 1000, height: 620 },
      },
    });
    expect(res.status, res.text).toBe(201);
    const png = Buffer.from(await (await fetch(res.json.url)).arrayBuffer());
    const meta = await sharp(png).metadata();
    expect(meta.width).toBeGreaterThan(1000);
    expect(meta.height).toBeGreaterThan(620);
  });
});
