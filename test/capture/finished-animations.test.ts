import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserPool } from '../../packages/server/src/browser/browser-pool.ts';
import { capture } from '../../packages/server/src/browser/capture-page.ts';
import {
  ANIMATION_BUDGET,
  finishAnimations,
  pageWatchesScrolling,
} from '../../packages/server/src/browser/finish-animations.ts';
import type { PageCaptureOptions } from '../../packages/server/src/browser/page-capture-options.ts';
import { decode, near, pageOptions, testPool } from '../support/capture-test-kit.ts';
import { serveDashboardData } from '../support/dashboard-data.ts';
import { FIXTURE_PAGES_DIR, type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { differingPixels } from '../support/pixel-difference.ts';

let server: RunningServer;
let pool: BrowserPool;
const settings = { navigationTimeoutMs: 20_000 };

beforeAll(async () => {
  server = await startFixtureServer();
  pool = testPool({ captureTimeoutMs: 60_000 });
});

afterAll(async () => {
  await pool?.close();
  await server?.close();
});

function shoot(page: string, overrides: Partial<PageCaptureOptions> = {}) {
  return capture(pool, pageOptions(`${server.origin}/animations/${page}`, overrides), settings);
}

/**
 * Pixels that differ visibly (a channel by more than 32). A count-up one digit off or a chart
 * a few pixels short is hundreds of pixels; the tolerance is for anti-aliasing only.
 */
async function difference(a: Buffer, b: Buffer): Promise<number> {
  const pixels = await differingPixels(a, b, 32);
  console.log('differing pixels', pixels);
  if (pixels >= TOLERANCE) {
    // Kept for a look when the test fails: the two captures side by side.
    const dir = path.resolve('test-output/finished-animations');
    fs.mkdirSync(dir, { recursive: true });
    const stamp = `${Date.now()}`;
    fs.writeFileSync(path.join(dir, `${stamp}-a.png`), a);
    fs.writeFileSync(path.join(dir, `${stamp}-b.png`), b);
  }
  return pixels;
}
const TOLERANCE = 60;

/** Serves `html` as a page of the fixture server at `pathname`. */
function servePage(pathname: string, html: string): void {
  server.route(pathname, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(html);
  });
}

/** Answers with the fixture's red square (400 x 400 SVG). */
function sendRedSquare(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'image/svg+xml' });
  fs.createReadStream(path.join(FIXTURE_PAGES_DIR, 'capture/red.svg')).pipe(res);
}

describe('finished animations (real Chart.js, CountUp.js and AOS)', () => {
  for (const dpr of [1, 2]) {
    it(`draws the charts fully and the count-ups at their final value, at once (dpr ${dpr})`, async () => {
      const settled = await shoot('charts.html?static', { deviceScaleFactor: dpr });
      const shot = await shoot('charts.html', { deviceScaleFactor: dpr });
      expect(shot.warnings).toEqual([]);
      expect(await difference(shot.png, settled.png)).toBeLessThan(TOLERANCE);
      // And the same as a capture taken after a long wait (the animations ran in real time).
      const waited = await shoot('charts.html', { deviceScaleFactor: dpr, waitFor: 4000 });
      expect(await difference(shot.png, waited.png)).toBeLessThan(TOLERANCE);
    });
  }

  it('waits for the data a dashboard fetches after its load, then finishes the animations it starts', async () => {
    serveDashboardData(server, 900);
    const settled = await shoot('charts.html?static');
    const shot = await shoot('charts.html?fetched');
    expect(shot.warnings).toEqual([]);
    expect(await difference(shot.png, settled.png)).toBeLessThan(TOLERANCE);
  });

  it('captures a page whose request never answers after a bounded wait, with a warning', async () => {
    server.route('/never-answers', () => undefined); // the response never starts
    server.route('/answers', (_req, res) => res.writeHead(200).end('{}'));
    servePage(
      '/hanging-fetch',
      `<script>
        addEventListener('load', () => {
          fetch('/never-answers');
          const request = new XMLHttpRequest();
          request.open('GET', '/answers');
          request.send();
        });
      </script><p>Loading</p>`,
    );
    const shot = await capture(pool, pageOptions(`${server.origin}/hanging-fetch`), settings);
    expect(shot.warnings).toEqual([
      'The page was still loading after 5000 ms (1 request by fetch or XMLHttpRequest); captured without them',
    ]);
  });

  it('waits for the images a page adds after its load', async () => {
    server.route('/slow-red.svg', (_req, res) => {
      setTimeout(() => sendRedSquare(res), 900);
    });
    servePage(
      '/late-image',
      `<body style="margin:0"><script>
        addEventListener('load', () => document.body.append(Object.assign(new Image(), { src: '/slow-red.svg' })));
      </script></body>`,
    );
    const shot = await capture(pool, pageOptions(`${server.origin}/late-image`), settings);
    expect(shot.warnings).toEqual([]);
    expect(near((await decode(shot.png)).at(200, 200), [255, 0, 0])).toBe(true);
  });

  it('does not wait for lazy images a carousel clips away', async () => {
    // Slides 2 to 4 sit inside the viewport but outside their carousel's clipping box: they load
    // only when the carousel moves, so waiting for them would last the whole 5 s and warn.
    const slide = (n: number) =>
      `<img loading="lazy" width="300" height="200" src="/carousel-slide.svg?slide=${n}" style="flex:none">`;
    servePage(
      '/carousel-lazy',
      `<body style="margin:0"><div style="width:300px;overflow:hidden">
        <div style="display:flex">${[1, 2, 3, 4].map(slide).join('')}</div></div></body>`,
    );
    server.route('/carousel-slide.svg', (req, res) => {
      // The first slide answers; the others are not asked for until shown, and would hang.
      if (req.url?.endsWith('slide=1')) sendRedSquare(res);
    });
    const shot = await capture(pool, pageOptions(`${server.origin}/carousel-lazy`), settings);
    expect(shot.warnings).toEqual([]);
    expect(near((await decode(shot.png)).at(150, 100), [255, 0, 0])).toBe(true);
  });

  it("takes a single-page app's history.replaceState for what it is, not a navigation", async () => {
    // With a clock budget this long, a page taken for navigating would be waited for 120 s.
    servePage(
      '/replaces-state',
      `<p>App</p><script>
        addEventListener('load', () => setTimeout(() => history.replaceState(null, '', '/replaces-state?view=home'), 20));
      </script>`,
    );
    const finished = await pool.run(async (lease) => {
      await lease.page.goto(`${server.origin}/replaces-state`);
      return finishAnimations(lease.page, { ...ANIMATION_BUDGET, wallMs: 60_000 });
    });
    expect(finished).toMatchObject({ settled: true, requestsPending: 0, imagesPending: 0 });
  }, 60_000);

  it('shows the scroll-revealed sections in the viewport', async () => {
    const settled = await shoot('reveal.html?static');
    const shot = await shoot('reveal.html');
    expect(shot.warnings).toEqual([]);
    expect(await difference(shot.png, settled.png)).toBeLessThan(TOLERANCE);
  });

  for (const dpr of [1, 2]) {
    it(`shows every scroll-revealed section and count-up of a full page (dpr ${dpr})`, async () => {
      const settled = await shoot('reveal.html?static', { fullPage: true, deviceScaleFactor: dpr });
      const shot = await shoot('reveal.html', { fullPage: true, deviceScaleFactor: dpr });
      expect(shot.height).toBe(640 * 5 * dpr);
      expect(shot.warnings).toEqual([]);
      expect(await difference(shot.png, settled.png)).toBeLessThan(TOLERANCE);
    });
  }

  it('scrolls a smoothly scrolling page at once: every section revealed, one sticky header at the top', async () => {
    // A root with `scroll-behavior: smooth` made every scroll of the capture an animation in real
    // time: the way down revealed nothing and the shot came mid-way back up.
    const settled = await shoot('reveal.html?static&smooth', { fullPage: true });
    const shot = await shoot('reveal.html?smooth', { fullPage: true });
    expect(shot.height).toBe(48 + 640 * 5);
    expect(shot.warnings).toEqual([]);
    expect(await difference(shot.png, settled.png)).toBeLessThan(TOLERANCE);
    const pixels = await decode(shot.png);
    expect(near(pixels.at(400, 24), [17, 17, 17])).toBe(true);
    // The header once, at the top: not again where the shot was taken mid-scroll.
    for (let y = 48; y < shot.height; y += 20)
      expect(near(pixels.at(400, y), [17, 17, 17]), `y ${y}`).toBe(false);
  });

  it('captures a page that never settles at a bounded point, with a warning', async () => {
    const started = performance.now();
    const shot = await shoot('never-settles.html');
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(shot.warnings).toEqual([expect.stringMatching(/kept animating .* captured at that point/)]);
  });

  it('does not fail when callbacks of the page throw, and still finishes its animation', async () => {
    const shot = await shoot('throws.html');
    expect(shot.warnings).toEqual([]);
    expect(near((await decode(shot.png)).at(100, 100), [0, 255, 0])).toBe(true);
  });

  it('settles a carousel that rests between slides on its first slide', async () => {
    const shot = await shoot('carousel.html');
    expect(shot.warnings).toEqual([]);
    expect(near((await decode(shot.png)).at(400, 150), [0, 0, 255])).toBe(true);
  });

  it('adds wait_for on top: a capture waited for shows the page later, still settled', async () => {
    // After about 3.5 s the carousel has moved to its second slide and finished the move.
    const shot = await shoot('carousel.html', { waitFor: 3500 });
    expect(shot.warnings).toEqual([]);
    expect(near((await decode(shot.png)).at(400, 150), [255, 128, 0])).toBe(true);
  });

  it('scrolls through a full page only when the page could notice', async () => {
    const watches = (path: string) =>
      pool.run(async (lease) => {
        await lease.page.goto(`${server.origin}/${path}`);
        return pageWatchesScrolling(lease.page);
      });
    expect(await watches('bench/long.html')).toBe(false);
    expect(await watches('capture/simple.html')).toBe(false);
    expect(await watches('capture/lazy.html')).toBe(true); // an IntersectionObserver
    expect(await watches('animations/reveal.html')).toBe(true); // AOS listens to scroll
    servePage('/lazy-img', '<img loading="lazy" src="/capture/red.svg" style="margin-top:3000px">');
    expect(await watches('lazy-img')).toBe(true);
    servePage('/onscroll', '<body onscroll="void 0" style="height:3000px">');
    expect(await watches('onscroll')).toBe(true);
  });

  it('follows a redirect made by a timer while the clock runs ahead, and captures the next page', async () => {
    const shot = await shoot('redirects.html');
    expect(shot.finalUrl).toBe(`${server.origin}/capture/simple.html`);
    expect(shot.warnings).toEqual([]);
  });

  it('runs an animation driven by its frames to its end in frames of 100 ms, then gives the page its 60 Hz back', async () => {
    // A time-based animation over 1 s, started at load: at 60 Hz it draws about 60 frames.
    servePage(
      '/frames',
      `<div id="bar" style="height:20px;background:red;width:0"></div><script>
        window.drawn = [];
        addEventListener('load', () => {
          let start;
          const step = (t) => {
            start ??= t;
            window.drawn.push(t);
            const progress = Math.min(1, (t - start) / 1000);
            document.getElementById('bar').style.width = progress * 500 + 'px';
            if (progress < 1) requestAnimationFrame(step);
          };
          requestAnimationFrame(step);
        });
      </script>`,
    );
    await pool.run(async (lease) => {
      await lease.page.goto(`${server.origin}/frames`);
      const finished = await finishAnimations(lease.page);
      expect(finished.settled).toBe(true);
      const state = await lease.page.evaluate(() => ({
        width: (document.getElementById('bar') as HTMLElement).style.width,
        frames: (window as unknown as { drawn: number[] }).drawn.length,
      }));
      expect(state.width).toBe('500px');
      // 1 s of page time in frames of 100 ms, plus those drawn in real time before the run.
      expect(state.frames).toBeLessThan(30);
      // Real time again: frames at the page's own rate, not at the run's spacing.
      const gaps = await lease.page.evaluate(
        () =>
          new Promise<number[]>((resolve) => {
            const times: number[] = [];
            const frame = (t: number) => {
              times.push(t);
              if (times.length < 4) requestAnimationFrame(frame);
              else resolve(times.slice(1).map((time, i) => time - (times[i] as number)));
            };
            requestAnimationFrame(frame);
          }),
      );
      expect(Math.min(...gaps)).toBeLessThan(ANIMATION_BUDGET.frameMs);
    });
  });

  it('counts a counter that moves a step per frame to its end (240 frames), with no warning', async () => {
    servePage(
      '/per-frame',
      `<b id="count">0</b><script>
        let count = 0;
        const step = () => {
          count += 1;
          document.getElementById('count').textContent = count;
          if (count < 240) requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      </script>`,
    );
    await pool.run(async (lease) => {
      await lease.page.goto(`${server.origin}/per-frame`);
      const finished = await finishAnimations(lease.page);
      expect(finished.settled).toBe(true);
      expect(await lease.page.textContent('#count')).toBe('240');
    });
  });

  it('costs a static page no page time and no warning', async () => {
    const shot = await shoot('../capture/simple.html');
    expect(shot.warnings).toEqual([]);
  });
});
