import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MotionPlan, progressAt } from '../../packages/server/src/motion/motion-plan.ts';
import { launchTestChromium } from '../support/capture-test-kit.ts';
import { FIXTURE_HOST, type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';
import { decodeFrames, probeVideo, type RgbFrame } from '../support/video-probe.ts';

/*
 * Scroll videos of real pages (issue 37): templates and libraries from npm that nobody here
 * wrote (test/fidelity/pages, test/element/templates), each made into an MP4 through
 * POST /v1/capture of a real server, decoded with ffmpeg and compared with
 *  - its first frame: the still capture of the same look (the page at the top);
 *  - its last frame: plain Chromium scrolled by a person to the end of the page, same viewport.
 * Reported per page: mean and max difference (0..255 per channel) and the share of pixels with a
 * channel off by more than 32. Thresholds are per page and honest: what H.264 costs (colour
 * edges of text lose chroma), and what the page does that a composed frame does not (the table
 * in docs/benchmarks.md, "Motion on real pages"). First, middle and last frames, the still and
 * the reference go to test-output/motion-real/ (always: they are there to be looked at).
 */

const PAGES_DIR = path.resolve(import.meta.dirname, 'pages');
const OUTPUT_DIR = path.resolve(import.meta.dirname, '../../test-output/motion-real');
const THRESHOLD = 32;
const VIEWPORT = { width: 1280, height: 800 };
const PADDING = 40;
const LOOK = {
  background_style: 'solid',
  background_color: '#ff00ff',
  padding: PADDING,
  corner_radius: 0,
  shadow: 'none',
  cache_ttl: 0,
} as const;
const SCREEN = { x: PADDING, y: PADDING, ...VIEWPORT };
const FRAMES = 10;

/**
 * Most share of differing pixels (0..1): about twice what was measured in three runs, at least
 * half a percent (the measured figures: docs/benchmarks.md, "Motion on real pages").
 */
interface Limits {
  /** The first frame against the still. */
  first: number;
  /** The last frame's screen against Chromium at the end. */
  last: number;
  /** The middle frame's screen against Chromium scrolled there (default 1 %, about 3x measured). */
  middle?: number;
  /** Most mean difference of any comparison when not MAX_MEAN. */
  mean?: number;
}

/** Most mean difference (0..255) of any comparison: measured 0.2-2.3, nearly all of it H.264. */
const MAX_MEAN = 3;

interface RealPage {
  name: string;
  path: string;
  limits: Limits;
  /** What the page does that a scroll video has to get right. */
  checks: string;
}

const T = '/element-templates';
const PAGES: RealPage[] = [
  {
    name: 'agency',
    path: '/agency/index.html',
    checks: 'fixed navbar, transparent at the top, dark and shrunk once scrolled',
    limits: { first: 0.006, last: 0.006 },
  },
  {
    name: 'sb-admin-2',
    path: '/sb-admin-2/index.html',
    checks: 'dashboard, charts; scroll-to-top button shown only when scrolled',
    limits: { first: 0.01, last: 0.016 },
  },
  {
    name: 'aos',
    path: '/aos.html',
    checks: 'sections that fade, zoom and flip in on scroll (aos)',
    limits: { first: 0.005, last: 0.005 },
  },
  {
    name: 'lazy-gallery',
    path: '/lazy.html',
    checks: 'lazy images (vanilla-lazyload) below the first screen',
    limits: { first: 0.005, last: 0.006 },
  },
  {
    name: 'lazysizes',
    path: '/lazysizes.html',
    checks: 'lazy images (lazysizes) from a slow image host',
    limits: { first: 0.012, last: 0.005 },
  },
  {
    name: 'creative',
    path: `${T}/startbootstrap-creative/index.html`,
    checks: 'fixed navbar, transparent at the top, white and shrunk once scrolled',
    limits: { first: 0.005, last: 0.005 },
  },
  {
    name: 'grayscale',
    path: `${T}/startbootstrap-grayscale/index.html`,
    checks: 'fixed navbar that shrinks and darkens once scrolled',
    limits: { first: 0.005, last: 0.005 },
  },
  {
    name: 'freelancer',
    path: `${T}/startbootstrap-freelancer/index.html`,
    checks: 'fixed navbar that shrinks once scrolled; scroll spy (mid-way: the link of the nearest stop)',
    limits: { first: 0.015, last: 0.005, middle: 0.06 },
  },
  {
    name: 'new-age',
    path: `${T}/startbootstrap-new-age/index.html`,
    checks:
      'fixed navbar that shrinks once scrolled; the phone mockup plays a <video> (the still and the clip, two loads, catch other frames of it)',
    limits: { first: 0.08, last: 0.005, mean: 6 },
  },
  {
    name: 'clean-blog',
    path: `${T}/startbootstrap-clean-blog/index.html`,
    checks: 'navbar that hides while scrolling down and comes back fixed when scrolling up',
    limits: { first: 0.005, last: 0.005 },
  },
  {
    name: 'resume',
    path: `${T}/startbootstrap-resume/index.html`,
    checks: 'fixed side navigation, long page',
    limits: { first: 0.005, last: 0.005 },
  },
  {
    name: 'material-dashboard',
    path: `${T}/material-dashboard/pages/dashboard.html`,
    checks: 'navbar that turns sticky, blurred and shadowed once scrolled; fixed sidebar',
    limits: { first: 0.01, last: 0.01 },
  },
  {
    name: 'landing-page',
    path: `${T}/startbootstrap-landing-page/index.html`,
    checks: 'static navbar, testimonials, footer',
    limits: { first: 0.005, last: 0.007 },
  },
  // Held out: nobody looked at these six for motion while the pinned parts and the limits above
  // were made (stop 33's held-out run: 0.04-0.69 % differing pixels); they joined afterwards,
  // with limits of about twice their own figures (two more runs, on the headless shell, gave the
  // same figures to the hundredth).
  {
    name: 'backstrap',
    path: `${T}/backstrap/index.html`,
    checks:
      'admin template: a header and sidebar that scroll away, cards with sparkline charts, progress bars',
    limits: { first: 0.013, last: 0.006, middle: 0.014 },
  },
  {
    name: 'modern-business',
    path: `${T}/startbootstrap-modern-business/index.html`,
    checks: 'static navbar, header image, feature and testimonial blocks',
    limits: { first: 0.005, last: 0.013 },
  },
  {
    name: 'sb-admin',
    path: `${T}/startbootstrap-sb-admin/index.html`,
    checks: 'fixed top navbar and side navigation, charts and a data table',
    limits: { first: 0.009, last: 0.005 },
  },
  {
    name: 'shop-homepage',
    path: `${T}/startbootstrap-shop-homepage/index.html`,
    checks: 'static navbar, product grid',
    limits: { first: 0.005, last: 0.005 },
  },
  {
    name: 'small-business',
    path: `${T}/startbootstrap-small-business/index.html`,
    checks: 'static navbar, hero, cards',
    limits: { first: 0.005, last: 0.005 },
  },
  {
    name: 'stylish-portfolio',
    path: `${T}/startbootstrap-stylish-portfolio/index.html`,
    checks: 'fixed menu toggle and a scroll-to-top button shown once scrolled',
    limits: { first: 0.012, last: 0.006, middle: 0.011 },
  },
];

/** Lazy images of lazysizes.html come from a distant image host (as in real-pages.test.ts). */
const SLOW_IMAGES = Object.fromEntries(
  Array.from({ length: 12 }, (_, i) => [`/slow-img/photo-${i + 1}.svg`, `img/photo-${i + 1}.svg`]),
);

const ONLY = process.env.MOTION_REAL_PAGES?.split(',');
const SELECTED = ONLY ? PAGES.filter((page) => ONLY.includes(page.name)) : PAGES;

let server: RunningServer;
let reference: Browser;
let app: TestApp;
let key: TestKey;
const summary = new Map<string, Record<string, number | string>>();

beforeAll(async () => {
  server = await startFixtureServer({ root: PAGES_DIR });
  for (const [pathname, file] of Object.entries(SLOW_IMAGES)) {
    server.route(pathname, (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'image/svg+xml' });
        fs.createReadStream(path.join(PAGES_DIR, file)).pipe(res);
      }, 500);
    });
  }
  reference = await launchTestChromium(['--disable-gpu', '--hide-scrollbars', '--font-render-hinting=none']);
  app = await startTestApp('sqlite', {
    // Generous deadlines: the machine is shared (load 25+ seen); a real page's scroll video
    // took 20-50 s there, the default capture deadline is 45 s plus 200 ms a frame.
    env: {
      VITRINE_ALLOW_TARGETS: FIXTURE_HOST,
      VITRINE_BROWSER_CONCURRENCY: '2',
      VITRINE_CAPTURE_TIMEOUT_MS: '180000',
    },
  });
  key = await app.createKey({ credits: 2000 });
  fs.mkdirSync(OUTPUT_DIR, { recursive: true });
});

afterAll(async () => {
  const rows = [...summary].sort(([a], [b]) => a.localeCompare(b));
  console.log(
    `[motion-real] summary:\n${rows.map(([name, row]) => `  ${name}: ${JSON.stringify(row)}`).join('\n')}`,
  );
  if (rows.length > 0)
    fs.writeFileSync(
      path.join(OUTPUT_DIR, 'summary.json'),
      `${JSON.stringify(Object.fromEntries(rows), null, 2)}\n`,
    );
  await app?.close();
  await reference?.close();
  await server?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The clip every page is made into (the request's `motion`), and its plan for the frame positions. */
const MOTION = {
  type: 'scroll',
  duration: 2,
  fps: FRAMES / 2,
  hold_start: 0.2,
  hold_end: 0.2,
  easing: 'linear',
} as const;
const PLAN: MotionPlan = {
  type: 'scroll',
  format: 'mp4',
  duration: MOTION.duration,
  fps: MOTION.fps,
  easing: MOTION.easing,
  holdStart: MOTION.hold_start,
  holdEnd: MOTION.hold_end,
  scrollTo: { kind: 'end' },
  drift: false,
  quality: undefined,
};
const MIDDLE = FRAMES / 2;

/**
 * What a person sees at the middle frame's position and at the end of the page: plain Chromium,
 * the load and 3 s, a scroll down half a screen every 250 ms (following a page that grows) to
 * the middle frame's position, 1.5 s, the screen; on the same way to the bottom, 1.5 s, the end
 * again exactly, 1 s, the screen.
 */
async function browserWay(page: RealPage): Promise<{ middle: RgbFrame; end: RgbFrame }> {
  const context = await reference.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  try {
    const tab = await context.newPage();
    await tab.goto(server.origin + page.path, { waitUntil: 'load' });
    await sleep(3000);
    const step = VIEWPORT.height / 2;
    const endOf = () => tab.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    const scrollDownTo = async (target: () => Promise<number>, from: number) => {
      for (let y = from + step; ; y += step) {
        const goal = await target();
        await tab.evaluate((top) => window.scrollTo(0, top), Math.min(y, goal));
        await sleep(250);
        if (y >= goal) return goal;
      }
    };
    const middleY = async () => Math.round(progressAt(PLAN, MIDDLE) * (await endOf()));
    const reached = await scrollDownTo(middleY, 0);
    await sleep(1500);
    const middle = await rgbOf(await tab.screenshot());
    await scrollDownTo(endOf, reached);
    await sleep(1500);
    await tab.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await sleep(1000);
    return { middle, end: await rgbOf(await tab.screenshot()) };
  } finally {
    await context.close();
  }
}

async function rgbOf(png: Buffer): Promise<RgbFrame> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

interface Difference {
  mean: number;
  max: number;
  /** Share of pixels with a channel off by more than THRESHOLD. */
  share: number;
}

/** `region` of `a` against `b` from `at` (same size). */
function difference(
  a: RgbFrame,
  b: RgbFrame,
  region: { x: number; y: number; width: number; height: number },
  at = { x: 0, y: 0 },
): Difference {
  let sum = 0;
  let max = 0;
  let differing = 0;
  for (let y = 0; y < region.height; y++) {
    for (let x = 0; x < region.width; x++) {
      const ia = ((region.y + y) * a.width + region.x + x) * 3;
      const ib = ((at.y + y) * b.width + at.x + x) * 3;
      let worst = 0;
      for (let c = 0; c < 3; c++) {
        const d = Math.abs((a.data[ia + c] as number) - (b.data[ib + c] as number));
        sum += d;
        if (d > worst) worst = d;
      }
      if (worst > max) max = worst;
      if (worst > THRESHOLD) differing++;
    }
  }
  const pixels = region.width * region.height;
  return {
    mean: Math.round((sum / (pixels * 3)) * 100) / 100,
    max,
    share: Math.round((differing / pixels) * 10000) / 10000,
  };
}

async function save(name: string, frame: RgbFrame): Promise<void> {
  await sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: 3 } })
    .png()
    .toFile(path.join(OUTPUT_DIR, `${name}.png`));
}

async function bytesOf(url: string): Promise<Buffer> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('scroll videos of real pages', () => {
  for (const page of SELECTED) {
    it.concurrent(`${page.name}: first frame is the still, last frame is Chromium at the end (${page.checks})`, async () => {
      const way = browserWay(page);
      const url = server.origin + page.path;
      const res = await app.request('POST', '/v1/capture', {
        key: key.key,
        json: {
          url,
          viewport: VIEWPORT,
          ...LOOK,
          motion: MOTION,
          async: false,
        },
      });
      expect(res.status, res.text).toBe(201);
      const video = await bytesOf(res.json.url);
      const probe = await probeVideo(video, 'mp4');
      expect(probe).toMatchObject({ codec: 'h264', width: VIEWPORT.width + 2 * PADDING, frames: FRAMES });
      const frames = await decodeFrames(video, 'mp4');
      expect(frames).toHaveLength(FRAMES);
      const first = frames[0] as RgbFrame;
      const middle = frames[MIDDLE] as RgbFrame;
      const last = frames[FRAMES - 1] as RgbFrame;

      const stillRes = await app.request('POST', '/v1/capture', {
        key: key.key,
        json: { url, viewport: VIEWPORT, ...LOOK, output: { format: 'png', dpr: 1 } },
      });
      expect(stillRes.status, stillRes.text).toBe(201);
      const still = await rgbOf(await bytesOf(stillRes.json.url));
      const { middle: browserMiddle, end } = await way;

      await Promise.all([
        save(`${page.name}.first`, first),
        save(`${page.name}.middle`, middle),
        save(`${page.name}.last`, last),
        save(`${page.name}.still`, still),
        save(`${page.name}.browser-end`, end),
        save(`${page.name}.browser-middle`, browserMiddle),
      ]);
      const whole = { x: 0, y: 0, width: first.width, height: first.height };
      const firstDiff = difference(first, still, whole);
      const lastDiff = difference(last, end, SCREEN);
      const middleDiff = difference(middle, browserMiddle, SCREEN);
      summary.set(page.name, {
        video_ms: res.json.duration_ms as number,
        first_mean: firstDiff.mean,
        first_max: firstDiff.max,
        first_pct: Math.round(firstDiff.share * 10000) / 100,
        last_mean: lastDiff.mean,
        last_max: lastDiff.max,
        last_pct: Math.round(lastDiff.share * 10000) / 100,
        middle_mean: middleDiff.mean,
        middle_pct: Math.round(middleDiff.share * 10000) / 100,
        warnings: (res.json.warnings as string[]).join(' | '),
      });
      // The magenta margin is drawn in every frame (the frame is in every frame).
      for (const frame of frames) {
        const corner = frame.data.subarray(
          ((frame.height - 5) * frame.width + 5) * 3,
          ((frame.height - 5) * frame.width + 5) * 3 + 3,
        );
        expect(corner[0]).toBeGreaterThan(200);
        expect(corner[1]).toBeLessThan(60);
      }
      // The middle of the clip is neither end: the page moved.
      expect(difference(middle, first, SCREEN).share).toBeGreaterThan(0.05);
      expect(difference(middle, last, SCREEN).share).toBeGreaterThan(0.05);
      const maxMean = page.limits.mean ?? MAX_MEAN;
      expect(firstDiff.mean, `${page.name}: first frame against the still (mean)`).toBeLessThan(maxMean);
      expect(lastDiff.mean, `${page.name}: last frame against Chromium at the end (mean)`).toBeLessThan(
        maxMean,
      );
      expect(middleDiff.mean, `${page.name}: middle frame against Chromium there (mean)`).toBeLessThan(
        maxMean,
      );
      expect(middleDiff.share, `${page.name}: middle frame against Chromium there`).toBeLessThanOrEqual(
        page.limits.middle ?? 0.01,
      );
      expect(firstDiff.share, `${page.name}: first frame against the still`).toBeLessThanOrEqual(
        page.limits.first,
      );
      expect(lastDiff.share, `${page.name}: last frame against Chromium at the end`).toBeLessThanOrEqual(
        page.limits.last,
      );
    }, 300_000);
  }
});
