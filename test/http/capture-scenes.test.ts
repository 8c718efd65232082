import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startFixtureServer, TEMPLATES_PATH } from '../support/fixture-server.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

/**
 * Scenes (issue 38) end to end: real Chromium loads the shots' pages, the compose stage lays
 * them out. Shots of one page share its load (counted by the fixture server's hits and the
 * render phase counters), bad shots are 400s naming their index, a shot's failing page fails the
 * capture naming the shot.
 */
const OUTPUT_DIR = path.resolve(import.meta.dirname, '../../test-output/scenes-real');

describe('POST /v1/capture with shots', () => {
  let t: TestApp;
  let fixtures: RunningServer;
  let owner: TestKey;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    t = await startTestApp('sqlite', {
      env: { VITRINE_ALLOW_TARGETS: '127.0.0.2', VITRINE_BROWSER_CONCURRENCY: '2' },
    });
    owner = await t.createKey({ credits: 100 });
  });
  afterAll(async () => {
    await t.close();
    await fixtures.close();
  });

  const hitsOf = (path: string) => fixtures.hits.filter((hit) => hit === path).length;
  const navigations = async () => {
    const metrics = (await t.request('GET', '/metrics')).text;
    return Number(
      /vitrine_render_phase_seconds_count\{kind="capture",phase="navigation"\} (\d+)/.exec(metrics)?.[1] ?? 0,
    );
  };

  it('three shots of one URL at one viewport load the page once and cost one capture', async () => {
    const path = '/capture/simple.html?scene=one';
    const before = await navigations();
    const res = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: {
        url: `${fixtures.origin}${path}`,
        viewport: { width: 800, height: 500 },
        title: 'One page, three frames',
        show_resolved_params: true,
        shots: [{ device: 'browser-macos' }, { device: 'browser-windows' }, { device: 'browser-minimal' }],
        scene: { layout: 'cascade' },
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(hitsOf(path)).toBe(1);
    expect(await navigations()).toBe(before + 1);
    expect(res.json.credits_used).toBe(1);
    const scene = res.json.resolved_params.scene;
    expect(scene).toMatchObject({ layout: 'cascade', spacing: 48, alignment: 'center' });
    expect(scene.shots.map((s: { device: string }) => s.device)).toEqual([
      'browser-macos',
      'browser-windows',
      'browser-minimal',
    ]);
    expect(res.json.resolved_params.canvas.shots).toHaveLength(3);
    const image = await (await fetch(res.json.url)).arrayBuffer();
    const meta = await sharp(Buffer.from(image)).metadata();
    expect([meta.width, meta.height]).toEqual([res.json.width, res.json.height]);
  });

  it('shots of two pages load each once, cost two captures, and another look of them loads nothing', async () => {
    const a = '/capture/simple.html?scene=a';
    const b = '/capture/dark.html?scene=b';
    const body = {
      url: `${fixtures.origin}${a}`,
      canvas: 'og',
      shots: [
        { device: 'macbook-pro-16', viewport: { width: 1280, height: 800 } },
        { url: `${fixtures.origin}${b}`, device: 'iphone-16-pro' },
        { device: 'browser-macos', viewport: { width: 1280, height: 800 }, dark_mode: true },
      ],
      scene: { layout: 'overlap' },
    };
    const first = await t.request('POST', '/v1/capture', { key: owner.key, json: body });
    expect(first.status, first.text).toBe(201);
    expect([first.json.width, first.json.height]).toEqual([1200, 630]);
    // The dark-mode shot of the first page is a page load of its own (another colour scheme).
    expect(hitsOf(a)).toBe(2);
    expect(hitsOf(b)).toBe(1);
    expect(first.json.credits_used).toBe(3);
    const restyled = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { ...body, background_preset: 'ember', title: 'Another look', scene: { layout: 'side-by-side' } },
    });
    expect(restyled.status, restyled.text).toBe(201);
    expect(restyled.json.cached).toBe(false);
    expect(hitsOf(a)).toBe(2);
    expect(hitsOf(b)).toBe(1);
    const again = await t.request('POST', '/v1/capture', { key: owner.key, json: body });
    expect(again.json).toMatchObject({ cached: true, id: first.json.id, credits_used: 0 });
  });

  it('lays out shots of two real npm templates side by side, each page in its own half', async () => {
    // SB Admin 2 (a dashboard: its sidebar is a blue gradient) and Agency (a landing page: its
    // call to action and headings are yellow), served offline: pages nobody here wrote.
    const dashboard = `${TEMPLATES_PATH}startbootstrap-sb-admin-2/index.html`;
    const landing = `${TEMPLATES_PATH}startbootstrap-agency/index.html`;
    const res = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: {
        url: `${fixtures.origin}${dashboard}`,
        viewport: { width: 1280, height: 800 },
        background_style: 'solid',
        background_color: '#808080',
        shots: [
          { device: 'browser-minimal' },
          { url: `${fixtures.origin}${landing}`, device: 'browser-minimal' },
        ],
        scene: { layout: 'side-by-side' },
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.warnings ?? []).toEqual([]);
    expect(hitsOf(dashboard)).toBe(1);
    expect(hitsOf(landing)).toBe(1);
    const png = Buffer.from(await (await fetch(res.json.url)).arrayBuffer());
    fs.mkdirSync(OUTPUT_DIR, { recursive: true });
    fs.writeFileSync(path.join(OUTPUT_DIR, 'real-templates-side-by-side.png'), png);
    const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([res.json.width, res.json.height]);
    // Pixels of each page's signature colour, in the left and the right half of the image.
    const count = (near: (r: number, g: number, b: number) => boolean) => {
      let left = 0;
      let right = 0;
      for (let y = 0; y < info.height; y++) {
        for (let x = 0; x < info.width; x++) {
          const i = (y * info.width + x) * 3;
          if (!near(data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0)) continue;
          if (x < info.width / 2) left++;
          else right++;
        }
      }
      return { left, right };
    };
    const sidebarBlue = count((r, g, b) => b > 170 && b - r > 80 && g > 60 && g < 130);
    const agencyYellow = count((r, g, b) => r > 230 && g > 180 && g < 215 && b < 40);
    console.log('signature colours per half', { sidebarBlue, agencyYellow });
    expect(sidebarBlue.left).toBeGreaterThan(5000);
    expect(sidebarBlue.right).toBeLessThan(sidebarBlue.left / 20);
    expect(agencyYellow.right).toBeGreaterThan(300);
    expect(agencyYellow.left).toBeLessThan(agencyYellow.right / 20);
  });

  it.each([
    [{ shots: new Array(7).fill({}) }, 'shots'],
    [{ shots: [{}] }, 'shots'],
    [{ shots: [{}, {}, { device: 'nokia-3310' }] }, 'shots[2].device'],
    [{ shots: [{}, { element: 'pricing table', selector: '.pricing' }] }, 'shots[1].element'],
    [{ shots: [{}, { device: 'iphone-16-pro', device_color: 'plaid' }] }, 'shots[1].device_color'],
    [{ shots: [{}, { viewport: { width: 10, height: 500 } }] }, 'shots[1].viewport.width'],
    [{ shots: [{}, { url: 'http://' }] }, 'shots[1].url'],
    [{ shots: [{}, {}], scene: { layout: 'pyramid' } }, 'scene.layout'],
    [{ scene: { layout: 'fan' } }, 'scene'],
    [{ shots: [{}, {}], motion: { type: 'scroll' } }, 'motion'],
    [{ shots: [{}, {}], layout: 'bottom-cropped' }, 'layout'],
    [{ shots: [{}, {}], ai_style: true }, 'ai_style'],
  ])('refuses %j with a 400 naming %s, before any work', async (fields, path) => {
    const before = fixtures.hits.length;
    const res = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { url: `${fixtures.origin}/capture/simple.html`, ...fields },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('invalid_params');
    expect(res.json.error.details.issues[0].path).toBe(path);
    expect(fixtures.hits.length).toBe(before);
  });

  it('refuses a shot URL the network policy does not allow with a 403 naming the shot', async () => {
    const res = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { url: `${fixtures.origin}/capture/simple.html`, shots: [{}, { url: 'ftp://example.com/' }] },
    });
    expect(res.status, res.text).toBe(403);
    expect(res.json.error.details).toEqual({ field: 'shots[1].url', rule: 'scheme' });
  });

  it("fails the capture when a shot's page fails, naming the shot and why, and charges nothing", async () => {
    const usage = async () =>
      (await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining;
    const before = await usage();
    const res = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: {
        url: `${fixtures.origin}/capture/simple.html?scene=fails`,
        shots: [{}, { url: 'http://127.0.0.2:1/' }],
      },
    });
    expect(res.status, res.text).toBe(422);
    expect(res.json.error.code).toBe('capture_failed');
    expect(res.json.error.message).toMatch(/^shots\[1\] \(http:\/\/127\.0\.0\.2:1\/\): /);
    expect(res.json.error.details).toMatchObject({ shot: 1, reason: 'target_unreachable' });
    expect(await usage()).toBe(before);
  });

  const creditsLeft = async () =>
    (await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining;

  it('queues a scene (async): the job payload is the plan with its shots; the result has the scene size and cost', async () => {
    const before = await creditsLeft();
    const body = {
      url: `${fixtures.origin}/capture/simple.html?scene=async`,
      canvas: 'og',
      title: 'Queued scene',
      perspective: 'tilt-left',
      shots: [
        { device: 'macbook-air-13', viewport: { width: 1280, height: 800 } },
        { url: `${fixtures.origin}/capture/dark.html?scene=async`, device: 'iphone-16' },
      ],
      scene: { layout: 'overlap' },
    };
    const accepted = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { ...body, async: true },
    });
    expect(accepted.status, accepted.text).toBe(202);
    // Two page loads reserved at enqueue, like the sync scene's cost.
    expect(await creditsLeft()).toBe(before - 2);
    const payload = JSON.parse(await t.queuedPayload(accepted.json.job_id)) as Record<string, unknown>;
    // The plan, not the request: no `shots` or `canvas` field, the resolved scene with each shot's page.
    expect(payload).not.toHaveProperty('shots');
    expect(payload).not.toHaveProperty('canvas');
    const scene = payload.scene as { layout: string; shots: { page: { url: string } }[] };
    expect(scene.layout).toBe('overlap');
    expect(scene.shots).toHaveLength(2);
    expect(scene.shots[1]?.page.url).toBe(`${fixtures.origin}/capture/dark.html?scene=async`);
    expect((payload.style as { output: unknown }).output).toMatchObject({ width: 1200, height: 630 });

    let job:
      | {
          status: string;
          error: string | null;
          result: { url: string; width: number; height: number; credits_used: number };
        }
      | undefined;
    for (let i = 0; i < 1200; i++) {
      const res = await t.request('GET', `/v1/jobs/${accepted.json.job_id}`, { key: owner.key });
      if (res.json.status !== 'pending') {
        job = res.json;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(job?.status, job?.error ?? 'still pending').toBe('completed');
    expect(job?.result).toMatchObject({ width: 1200, height: 630, credits_used: 2 });
    const image = Buffer.from(await (await fetch(job?.result.url as string)).arrayBuffer());
    const meta = await sharp(image).metadata();
    expect([meta.width, meta.height]).toEqual([1200, 630]);
    expect(await creditsLeft()).toBe(before - 2);
  }, 240_000);

  it('renders a scene as a batch item, charged like the sync scene', async () => {
    const before = await creditsLeft();
    const res = await t.request('POST', '/v1/batch', {
      key: owner.key,
      json: {
        items: [
          {
            url: `${fixtures.origin}/capture/simple.html?scene=batch`,
            canvas: 'twitter',
            shots: [
              { device: 'browser-macos' },
              { url: `${fixtures.origin}/capture/dark.html?scene=batch`, device: 'browser-minimal' },
            ],
            scene: { layout: 'cascade' },
            watermark: 'vitrine.dev',
          },
          `${fixtures.origin}/capture/simple.html?scene=batch-single`,
        ],
      },
    });
    expect(res.status, res.text).toBe(202);
    // The scene reserves its two loads, the single item one.
    expect(res.json.credits_reserved).toBe(3);
    let batch:
      | {
          status: string;
          renders: {
            index: number;
            status: string;
            error: string | null;
            result: { url: string; width: number; height: number; credits_used: number };
          }[];
        }
      | undefined;
    for (let i = 0; i < 1200; i++) {
      const poll = await t.request('GET', `/v1/batches/${res.json.id}`, { key: owner.key });
      expect(poll.status, poll.text).toBe(200);
      if (poll.json.status === 'completed') {
        batch = poll.json;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const scene = batch?.renders.find((r) => r.index === 0);
    expect(scene?.status, scene?.error ?? 'not finished').toBe('completed');
    expect(scene?.result).toMatchObject({ width: 1200, height: 675, credits_used: 2 });
    const image = Buffer.from(await (await fetch(scene?.result.url as string)).arrayBuffer());
    const meta = await sharp(image).metadata();
    expect([meta.width, meta.height]).toEqual([1200, 675]);
    expect(await creditsLeft()).toBe(before - 3);
  }, 240_000);
});
