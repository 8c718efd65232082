import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserPool } from '../../packages/server/src/browser/browser-pool.ts';
import { capture } from '../../packages/server/src/browser/capture-page.ts';
import { pageOptions, testPool } from '../support/capture-test-kit.ts';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';

/*
 * The scroll data of a capture (issue 37) in real Chromium: pinned parts shot as the page shows
 * them scrolled down, stop by stop, and a sticky bar below the first screen kept between stops.
 */

const VIEWPORT = { width: 480, height: 320 };

/**
 * A 3000 px page: a fixed header that turns from navy to orange once the page is scrolled (as
 * landing pages' navbars do), and a green sticky bar whose place is 900 px down.
 */
const PAGE = `<!doctype html><html><head><style>
  body { margin: 0; height: 3000px; background: linear-gradient(#fff, #ccc); }
  header { position: fixed; top: 0; left: 0; right: 0; height: 40px; background: #1e3a8a; }
  header.scrolled { background: #f97316; height: 30px; }
  .spacer { height: 900px; }
  .bar { position: sticky; top: 40px; height: 20px; background: #16a34a; }
</style></head><body>
  <header></header><div class="spacer"></div><div class="bar"></div>
  <script>
    document.addEventListener('scroll', () => {
      document.querySelector('header').classList.toggle('scrolled', window.scrollY > 0);
    });
  </script>
</body></html>`;

let server: RunningServer;
let pool: BrowserPool;

beforeAll(async () => {
  server = await startFixtureServer();
  server.route('/scroll-stops.html', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  pool = testPool({ captureTimeoutMs: 90_000 });
});

afterAll(async () => {
  await pool?.close();
  await server?.close();
});

async function colourOf(png: Buffer): Promise<[number, number, number]> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * 3;
  return [data[i] as number, data[i + 1] as number, data[i + 2] as number];
}

describe('scroll capture', () => {
  it('shoots the pinned parts as the page shows them scrolled, and keeps a sticky bar between stops', async () => {
    const shot = await capture(
      pool,
      pageOptions(`${server.origin}/scroll-stops.html`, {
        viewport: VIEWPORT,
        fullPage: true,
        scroll: { kind: 'end' },
      }),
      { navigationTimeoutMs: 30_000 },
    );
    const scroll = shot.scroll;
    expect(scroll?.endY).toBe(3000 - VIEWPORT.height);
    if (!scroll) return;
    // The page without its pinned parts, shot at the top.
    expect(scroll.unpinnedPng).toBeDefined();
    const headers = scroll.layers.filter((layer) => layer.position === 'fixed');
    // One shot per stop (six, down to the end), each the scrolled look: orange and shorter.
    expect(headers).toHaveLength(6);
    for (const header of headers) {
      expect(header.rect).toMatchObject({ top: 0, height: 30 });
      const [r, , b] = await colourOf(header.png);
      expect(r).toBeGreaterThan(200);
      expect(b).toBeLessThan(60);
    }
    // Every scroll position from the first scrolled pixel to the end has exactly one header.
    for (const y of [1, 500, 1337, 2000, 2680])
      expect(headers.filter((layer) => y > layer.shownFrom && y <= layer.shownUntil)).toHaveLength(1);
    // The sticky bar (its place 900 px down) has a shot for every position too: where a stop
    // did not show it (the first stops, it is below the screen), its shot at the top stands in.
    const bars = scroll.layers.filter((layer) => layer.position === 'sticky');
    for (const bar of bars) expect(bar.rect).toMatchObject({ top: 900, height: 20 });
    for (const y of [1, 600, 1337, 2680])
      expect(bars.filter((layer) => y > layer.shownFrom && y <= layer.shownUntil)).toHaveLength(1);
    const [r, g] = await colourOf((bars[0] as (typeof bars)[number]).png);
    expect(g).toBeGreaterThan(120);
    expect(r).toBeLessThan(60);
  }, 180_000);
});
