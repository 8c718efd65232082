import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startFixtureServer } from '../helpers/fixture-server.ts';
import { startTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';

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
      viewport: { width: 402, height: 874 },
      capture_dpr: 3,
      emulate_mobile: true,
      emulate_touch: true,
      user_agent: expect.stringContaining('iPhone'),
      device: 'iphone-16-pro',
    });
    expect(res.json.resolved_params.canvas.device).toBeDefined();
    expect(res.json.warnings).toEqual([]);
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
