import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchTestChromium } from '../support/capture-test-kit.ts';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';
import { decodeFrames, meanDifference, pixelAt, probeVideo, type RgbFrame } from '../support/video-probe.ts';

/**
 * Motion (issue 37) end to end: real Chromium captures the fixture page once, the motion stage
 * draws every frame and Debian's ffmpeg encodes them; the tests decode what was stored.
 */

const VIEWPORT = { width: 480, height: 320 };
/** A plain look whose screen sits at (40, 40): white canvas, no shadow, square corners. */
const PLAIN = {
  background_style: 'solid',
  background_color: '#ffffff',
  padding: 40,
  shadow: 'none',
  corner_radius: 0,
} as const;
const SCREEN = { x: 40, y: 40, ...VIEWPORT };

async function rgbOf(png: Buffer): Promise<RgbFrame> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

describe('motion: styled videos of a page', () => {
  let t: TestApp;
  let fixtures: RunningServer;
  let owner: TestKey;
  let scrollUrl: string;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    t = await startTestApp('sqlite', {
      env: { VITRINE_ALLOW_TARGETS: '127.0.0.2', VITRINE_QUEUE_POLL_MS: '50' },
    });
    owner = await t.createKey({ credits: 500 });
    scrollUrl = `${fixtures.origin}/motion/scroll.html`;
  });
  afterAll(async () => {
    await t?.close();
    await fixtures?.close();
  });

  async function fetchBytes(url: string): Promise<{ status: number; type: string | null; data: Buffer }> {
    const res = await fetch(url);
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      data: Buffer.from(await res.arrayBuffer()),
    };
  }

  async function waitForJob(id: string) {
    for (let i = 0; i < 1200; i++) {
      const res = await t.request('GET', `/v1/jobs/${id}`, { key: owner.key });
      if (res.json.status !== 'pending' && res.json.status !== 'processing') return res;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`job ${id} did not finish`);
  }

  it('renders a scroll as an H.264 MP4 whose first frame is the still and whose last frame is the browser at the end', async () => {
    const body = {
      url: scrollUrl,
      viewport: VIEWPORT,
      ...PLAIN,
      motion: { type: 'scroll', duration: 2, fps: 10, hold_start: 0.2, hold_end: 0.2, easing: 'linear' },
      async: false,
    };
    const res = await t.request('POST', '/v1/capture', { key: owner.key, json: body });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ format: 'mp4', width: 560, height: 400, credits_used: 3 });
    expect(res.json.video).toMatchObject({ fps: 10, frames: 20, duration_ms: 2000, codec: 'h264' });

    const video = await fetchBytes(res.json.url);
    expect(video).toMatchObject({ status: 200, type: 'video/mp4' });
    // A video element seeks with byte ranges.
    const part = await fetch(res.json.url, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${video.data.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(video.data.subarray(100, 200));
    // faststart: the index comes before the media data, so a browser plays it while it loads.
    expect(video.data.indexOf('moov')).toBeLessThan(video.data.indexOf('mdat'));
    const probe = await probeVideo(video.data, 'mp4');
    expect(probe).toMatchObject({ codec: 'h264', pixFmt: 'yuv420p', width: 560, height: 400, frames: 20 });
    expect(probe.durationSeconds).toBeCloseTo(2, 1);
    const frames = await decodeFrames(video.data, 'mp4');
    expect(frames).toHaveLength(20);

    // The frame (white canvas around the screen) is drawn in every frame.
    for (const frame of frames) {
      for (const [x, y] of [
        [10, 10],
        [550, 390],
        [20, 200],
      ] as const)
        expect(pixelAt(frame, x, y).every((v) => v > 235)).toBe(true);
    }

    // The first frame is the still capture of the top of the page, and the poster is that still.
    const still = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { url: scrollUrl, viewport: VIEWPORT, ...PLAIN },
    });
    expect(still.status, still.text).toBe(201);
    const stillRgb = await rgbOf((await fetchBytes(still.json.url)).data);
    const whole = { x: 0, y: 0, width: 560, height: 400 };
    expect(meanDifference(frames[0] as RgbFrame, stillRgb, whole)).toBeLessThan(2.5);
    const poster = await fetchBytes(res.json.video.poster_url);
    expect(poster.type).toBe('image/jpeg');
    expect(meanDifference(frames[0] as RgbFrame, await rgbOf(poster.data), whole)).toBeLessThan(2.5);

    // The last frame shows what Chromium shows scrolled to the end: the fixed header once at
    // the top, the sticky bar under it, the last band at the bottom.
    const browser = await launchTestChromium();
    let endShot: RgbFrame;
    try {
      const page = await browser.newPage({ viewport: VIEWPORT });
      await page.goto(scrollUrl);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      endShot = await rgbOf(await page.screenshot());
    } finally {
      await browser.close();
    }
    const last = frames[19] as RgbFrame;
    expect(meanDifference(last, endShot, SCREEN)).toBeLessThan(4);
    const header = pixelAt(last, SCREEN.x + 300, SCREEN.y + 20);
    expect(header[2]).toBeGreaterThan(70); // navy
    expect(header[0]).toBeLessThan(50);
    const bar = pixelAt(last, SCREEN.x + 300, SCREEN.y + 64);
    expect(bar[0]).toBeGreaterThan(220); // orange
    expect(bar[2]).toBeLessThan(70);

    // The middle of the clip is neither end: the page moved.
    const middle = frames[10] as RgbFrame;
    expect(meanDifference(middle, frames[0] as RgbFrame, SCREEN)).toBeGreaterThan(10);
    expect(meanDifference(middle, last, SCREEN)).toBeGreaterThan(10);
    // Holds: the first two frames (0.2 s at 10 fps) are the same picture.
    expect(meanDifference(frames[1] as RgbFrame, frames[0] as RgbFrame, whole)).toBeLessThan(1);
    // The fixed header is drawn once per frame, at the top of the screen, in every scrolled frame.
    for (const frame of frames.slice(2)) {
      const top = pixelAt(frame, SCREEN.x + 300, SCREEN.y + 20);
      expect(top[0]).toBeLessThan(50);
      expect(top[2]).toBeGreaterThan(70);
    }
  }, 180_000);

  it('queues a video by default and delivers a VP9 WebM; a new look of the same page does not load it again', async () => {
    const body = {
      url: `${scrollUrl}?webm`,
      viewport: VIEWPORT,
      device: 'iphone-16-pro',
      motion: { type: 'scroll', duration: 1, fps: 8, scroll_to: '#band-3' },
      output: { format: 'webm' },
    };
    const loads = () => fixtures.hits.filter((hit) => hit === '/motion/scroll.html?webm').length;
    const queued = await t.request('POST', '/v1/capture', { key: owner.key, json: body });
    expect(queued.status, queued.text).toBe(202);
    const done = await waitForJob(queued.json.job_id);
    expect(done.json.status, JSON.stringify(done.json)).toBe('completed');
    const result = done.json.result;
    expect(result).toMatchObject({ format: 'webm', video: { codec: 'vp9', frames: 8 } });
    const video = await fetchBytes(result.url);
    expect(video.type).toBe('video/webm');
    const probe = await probeVideo(video.data, 'webm');
    expect(probe).toMatchObject({ codec: 'vp9', frames: 8 });
    expect(loads()).toBe(1);

    const restyled = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { ...body, device_color: 'silver', async: false },
    });
    expect(restyled.status, restyled.text).toBe(201);
    expect(loads()).toBe(1);
  }, 180_000);

  it('renders a reveal and a float as GIFs; a float loops without a seam', async () => {
    const reveal = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: {
        url: scrollUrl,
        viewport: VIEWPORT,
        camera_preset: 'hero',
        motion: { type: 'reveal', duration: 1, fps: 6, hold_start: 0, hold_end: 0.2 },
        output: { format: 'gif', width: 400 },
        async: false,
      },
    });
    expect(reveal.status, reveal.text).toBe(201);
    expect(reveal.json).toMatchObject({ format: 'gif', video: { codec: 'gif', frames: 6 } });
    const revealGif = await fetchBytes(reveal.json.url);
    expect(revealGif.type).toBe('image/gif');
    const revealFrames = await decodeFrames(revealGif.data, 'gif');
    expect(revealFrames).toHaveLength(6);
    const all = { x: 0, y: 0, width: revealFrames[0]?.width ?? 0, height: revealFrames[0]?.height ?? 0 };
    // The camera moves: the first frame (flat) differs from the last (tilted).
    expect(meanDifference(revealFrames[0] as RgbFrame, revealFrames[5] as RgbFrame, all)).toBeGreaterThan(5);

    const float = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: {
        url: scrollUrl,
        viewport: VIEWPORT,
        motion: { type: 'float', duration: 1, fps: 8 },
        output: { format: 'gif', width: 400 },
        async: false,
      },
    });
    expect(float.status, float.text).toBe(201);
    const floatFrames = await decodeFrames((await fetchBytes(float.json.url)).data, 'gif');
    expect(floatFrames).toHaveLength(8);
    const region = { x: 0, y: 0, width: floatFrames[0]?.width ?? 0, height: floatFrames[0]?.height ?? 0 };
    const step = (a: number, b: number) =>
      meanDifference(floatFrames[a] as RgbFrame, floatFrames[b] as RgbFrame, region);
    // The seam (last frame to first) is a step like any other, not a jump.
    const steps = [1, 2, 3, 4, 5, 6, 7].map((i) => step(i - 1, i));
    expect(step(7, 0)).toBeLessThan(Math.max(...steps) * 1.5 + 0.5);
    expect(Math.max(...steps)).toBeGreaterThan(0.3);
  }, 180_000);

  it('renders a video at once for a GET used as a media source (response=redirect)', async () => {
    const payload = Buffer.from(
      JSON.stringify({
        viewport: VIEWPORT,
        motion: { type: 'float', duration: 1, fps: 4 },
        output: { format: 'gif', width: 300 },
      }),
    ).toString('base64url');
    const res = await fetch(
      `${t.baseUrl}/v1/capture?url=${encodeURIComponent(scrollUrl)}&payload=${payload}&response=redirect`,
      { headers: { authorization: `Bearer ${owner.key}` }, redirect: 'manual' },
    );
    expect(res.status, await res.text()).toBe(302);
    const location = res.headers.get('location') ?? '';
    expect(location).toMatch(/\/cdn\/r\/cap_[0-9A-Z]{26}\.gif$/);
    const gif = await fetchBytes(location);
    expect(gif.type).toBe('image/gif');
    expect((await probeVideo(gif.data, 'gif')).frames).toBe(4);
  }, 120_000);

  it('refuses bad motion input with 400s naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ motion: { type: 'spin' } }, 'motion.type'],
      [{ motion: { type: 'scroll', fps: 61 } }, 'motion.fps'],
      [{ motion: { type: 'scroll', duration: 25 } }, 'motion.duration'],
      [{ motion: { type: 'scroll', duration: 1, hold_start: 0.5, hold_end: 0.5 } }, 'motion.hold_start'],
      [{ motion: { type: 'reveal', scroll_to: 'end' } }, 'motion.scroll_to'],
      [{ motion: { type: 'scroll' }, output: { format: 'gif', width: 1200 } }, 'output.width'],
      [{ motion: { type: 'float', fps: 40 }, output: { format: 'gif' } }, 'motion.fps'],
      [{ output: { format: 'mp4' } }, 'output.format'],
      [{ motion: { type: 'scroll' }, output: { format: 'png' } }, 'output.format'],
      [{ motion: { type: 'scroll' }, selector: '#end' }, 'selector'],
      [{ motion: { type: 'scroll' }, async: false, webhook_url: 'https://example.com/hook' }, 'webhook_url'],
    ];
    for (const [fields, path] of cases) {
      const res = await t.request('POST', '/v1/capture', {
        key: owner.key,
        json: { url: scrollUrl, ...fields },
      });
      expect(res.status, `${JSON.stringify(fields)}: ${res.text}`).toBe(400);
      expect(res.json.error.code).toBe('invalid_params');
      const paths = (res.json.error.details.issues as { path: string }[]).map((issue) => issue.path);
      expect(paths, JSON.stringify(fields)).toContain(path);
    }
  });
});

describe('motion: a failed encode', () => {
  let t: TestApp;
  let fixtures: RunningServer;
  let owner: TestKey;
  let fakeDir: string;

  beforeAll(async () => {
    // An ffmpeg that passes the start check and fails every encode.
    fakeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-fake-ffmpeg-'));
    const fake = path.join(fakeDir, 'ffmpeg');
    fs.writeFileSync(
      fake,
      '#!/bin/sh\ncase " $* " in *" -encoders "*) exec /usr/bin/ffmpeg "$@";; esac\necho "simulated encoder failure" >&2\nexit 1\n',
    );
    fs.chmodSync(fake, 0o755);
    fixtures = await startFixtureServer();
    t = await startTestApp('sqlite', {
      env: { VITRINE_ALLOW_TARGETS: '127.0.0.2', VITRINE_QUEUE_POLL_MS: '50', VITRINE_FFMPEG_PATH: fake },
    });
    owner = await t.createKey({ credits: 50 });
  });
  afterAll(async () => {
    await t?.close();
    await fixtures?.close();
    fs.rmSync(fakeDir, { recursive: true, force: true });
  });

  it('fails the job with a clear reason, refunds its credits and leaves no temporary file', async () => {
    const before = (await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining;
    const queued = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: {
        url: `${fixtures.origin}/motion/scroll.html`,
        viewport: VIEWPORT,
        motion: { type: 'scroll', duration: 1, fps: 5 },
      },
    });
    expect(queued.status, queued.text).toBe(202);
    const id = queued.json.job_id;
    let job = await t.request('GET', `/v1/jobs/${id}`, { key: owner.key });
    for (let i = 0; i < 1200 && (job.json.status === 'pending' || job.json.status === 'processing'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = await t.request('GET', `/v1/jobs/${id}`, { key: owner.key });
    }
    expect(job.json.status, JSON.stringify(job.json)).toBe('failed');
    expect(job.json.error).toContain('The video could not be encoded');
    const after = (await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining;
    expect(after).toBe(before);
    const tmp = path.join(t.config.server.dataDir, 'tmp');
    expect(fs.existsSync(tmp) ? fs.readdirSync(tmp) : []).toEqual([]);
  }, 120_000);

  it('stops the start with a clear reason when ffmpeg is missing', async () => {
    await expect(
      startTestApp('sqlite', { env: { VITRINE_FFMPEG_PATH: path.join(fakeDir, 'missing-ffmpeg') } }),
    ).rejects.toThrow(/ffmpeg could not be run.*VITRINE_FFMPEG_PATH/s);
  });
});
