import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlockListsLoader } from '../../packages/server/src/browser/block-lists.ts';
import type { BrowserPool } from '../../packages/server/src/browser/browser-pool.ts';
import {
  capture,
  capturePage,
  type PageCaptureSettings,
} from '../../packages/server/src/browser/capture-page.ts';
import type { PageCaptureOptions } from '../../packages/server/src/browser/page-capture-options.ts';
import { AppError } from '../../packages/server/src/errors/app-error.ts';
import { decode, near, pageOptions, testPool } from '../support/capture-test-kit.ts';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';

const RED: [number, number, number] = [255, 0, 0];
const GREEN: [number, number, number] = [0, 255, 0];
const BLUE: [number, number, number] = [0, 0, 255];
const WHITE: [number, number, number] = [255, 255, 255];
const AD_HOST = 'securepubads.g.doubleclick.net';

let server: RunningServer;
let pool: BrowserPool;
// Generous: a tiny fixture page can take seconds to load on a loaded two-core machine. The
// navigation timeout test sets its own short one.
const settings: PageCaptureSettings = {
  navigationTimeoutMs: 20_000,
  selectorWaitMs: 1000,
  blockLists: createBlockListsLoader(),
};

function url(path: string): string {
  return `${server.origin}/capture/${path}`;
}

function shoot(options: PageCaptureOptions) {
  return capture(pool, options, settings);
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

beforeAll(async () => {
  server = await startFixtureServer();
  server.route('/slow', () => undefined);
  server.route('/missing', (_req, res) => {
    res
      .writeHead(404, { 'content-type': 'text/html' })
      .end('<body style="margin:0;background:rgb(0,0,255)">gone</body>');
  });
  // A page whose script comes from a host of the ad lists, mapped to the fixture server below.
  server.route('/capture/ad-page.html', (_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        `<body style="margin:0;background:#fff"><script src="http://${AD_HOST}:${server.port}/tag/js/gpt.js"></script></body>`,
      );
  });
  server.route('/tag/js/gpt.js', (_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/javascript' })
      .end("document.body.style.background = 'rgb(255,0,0)';");
  });
  // Host rules keep every name on loopback: the ad host goes to the fixture server, the rest nowhere.
  pool = testPool({
    args: [`--host-resolver-rules=MAP ${AD_HOST} ${server.host}, MAP * ~NOTFOUND, EXCLUDE ${server.host}`],
  });
});

afterAll(async () => {
  await pool?.close();
  await server?.close();
});

describe('capturePage', () => {
  it('captures the viewport at exact device pixel sizes, with timings per phase', async () => {
    const one = await shoot(pageOptions(url('simple.html'), { viewport: { width: 1280, height: 800 } }));
    expect([one.width, one.height]).toEqual([1280, 800]);
    expect((await decode(one.png)).width).toBe(1280);
    expect(Object.keys(one.timings).sort()).toEqual(['capture', 'context', 'navigation', 'waits']);
    expect(one.finalUrl).toBe(url('simple.html'));
    const two = await shoot(
      pageOptions(url('simple.html'), { viewport: { width: 400, height: 300 }, deviceScaleFactor: 2 }),
    );
    expect([two.width, two.height]).toEqual([800, 600]);
  });

  it('reports the document title, and no title for a page that redefines it', async () => {
    expect((await shoot(pageOptions(url('simple.html')))).title).toBe('Simple');
    const hostile = await shoot(
      pageOptions(
        `data:text/html,<title>x</title><script>Object.defineProperty(document, 'title', { get() { return { toString: 1 }; } })</script>`,
      ),
    );
    expect(hostile.title).toBe('');
  });

  it('emulates the user agent and touch', async () => {
    const plain = await decode((await shoot(pageOptions(url('device.html')))).png);
    expect(near(plain.at(10, 10), RED)).toBe(true);
    expect(near(plain.at(10, 500), RED)).toBe(true);
    const mobile = await decode(
      (
        await shoot(
          pageOptions(url('device.html'), {
            userAgent: 'Mozilla/5.0 VitrineTestAgent',
            hasTouch: true,
            isMobile: true,
          }),
        )
      ).png,
    );
    expect(near(mobile.at(10, 10), GREEN)).toBe(true);
    expect(near(mobile.at(10, 500), GREEN)).toBe(true);
  });

  it('dark_mode switches prefers-color-scheme', async () => {
    const light = await decode((await shoot(pageOptions(url('dark.html')))).png);
    const dark = await decode((await shoot(pageOptions(url('dark.html'), { darkMode: true }))).png);
    expect(near(light.at(100, 100), WHITE)).toBe(true);
    expect(near(dark.at(100, 100), [0, 0, 0])).toBe(true);
  });

  it('blocks images by resource type', async () => {
    const shown = await decode((await shoot(pageOptions(url('image.html')))).png);
    const blocked = await decode((await shoot(pageOptions(url('image.html'), { block: ['image'] }))).png);
    expect(near(shown.at(200, 200), RED)).toBe(true);
    expect(near(blocked.at(200, 200), RED)).toBe(false);
  });

  it('blocks scripts by URL glob', async () => {
    const ran = await decode((await shoot(pageOptions(url('script.html')))).png);
    const blocked = await decode(
      (await shoot(pageOptions(url('script.html'), { block: ['*/capture/paint-*.js'] }))).png,
    );
    expect(near(ran.at(50, 50), GREEN)).toBe(true);
    expect(near(blocked.at(50, 50), WHITE)).toBe(true);
  });

  it('blocks the ads category from the maintained lists', async () => {
    const ran = await decode((await shoot(pageOptions(url('ad-page.html')))).png);
    const blocked = await decode((await shoot(pageOptions(url('ad-page.html'), { block: ['ads'] }))).png);
    const other = await decode(
      (await shoot(pageOptions(url('ad-page.html'), { block: ['chat-widgets'] }))).png,
    );
    expect(near(ran.at(50, 50), RED)).toBe(true);
    expect(near(blocked.at(50, 50), WHITE)).toBe(true);
    expect(near(other.at(50, 50), RED)).toBe(true);
  });

  it('applies inject_css and hide_selectors', async () => {
    const injected = await decode(
      (
        await shoot(
          pageOptions(url('hide.html'), { injectCss: 'html { background: rgb(0, 0, 255) !important; }' }),
        )
      ).png,
    );
    expect(near(injected.at(50, 50), RED)).toBe(true);
    expect(near(injected.at(50, 400), BLUE)).toBe(true);
    const hidden = await decode(
      (await shoot(pageOptions(url('hide.html'), { hideSelectors: ['#banner', 'p:::bad'] }))).png,
    );
    expect(near(hidden.at(50, 50), WHITE)).toBe(true);
  });

  it('freezes animations', async () => {
    const shot = await decode((await shoot(pageOptions(url('animated.html')))).png);
    expect(near(shot.at(50, 50), BLUE)).toBe(true);
    expect(near(shot.at(50, 150), GREEN)).toBe(true);
  });

  it('waits for a number of milliseconds or for a selector', async () => {
    const byTime = await decode((await shoot(pageOptions(url('delayed.html'), { waitFor: 2500 }))).png);
    expect(near(byTime.at(50, 50), GREEN)).toBe(true);
    const bySelector = await decode(
      (
        await capture(pool, pageOptions(url('delayed.html'), { waitFor: '#ready' }), {
          ...settings,
          selectorWaitMs: 10_000,
        })
      ).png,
    );
    expect(near(bySelector.at(50, 50), GREEN)).toBe(true);
  });

  it('full_page scrolls lazy content in and does not repeat the sticky header', async () => {
    const shot = await shoot(pageOptions(url('lazy.html'), { fullPage: true }));
    expect([shot.width, shot.height]).toEqual([800, 5000]);
    expect(shot.warnings).toEqual([]);
    const pixels = await decode(shot.png);
    expect(near(pixels.at(10, 4600), GREEN)).toBe(true);
    let redRows = 0;
    for (let y = 0; y < pixels.height; y += 1) if (near(pixels.at(10, y), RED)) redRows += 1;
    expect(redRows).toBe(60);
    let blueRows = 0;
    for (let y = 0; y < pixels.height; y += 1) if (near(pixels.at(795, y), BLUE)) blueRows += 1;
    expect(blueRows).toBe(20);
  });

  it('prepares the next page after the shot of a full page, after the load of a viewport', async () => {
    // A spare renderer starting during a full page's scroll and shot slows both (P7): the pool is
    // told `loaded` only once the shot is taken. A viewport capture tells it at the load.
    const order = async (options: PageCaptureOptions) => {
      const events: string[] = [];
      await pool.run((lease) => {
        const send = lease.cdp.send.bind(lease.cdp);
        const cdp = Object.create(lease.cdp) as typeof lease.cdp;
        cdp.send = ((method: string, params?: object) => {
          if (method === 'Page.captureScreenshot') events.push('shot');
          return send(method as never, params as never);
        }) as typeof cdp.send;
        const loaded = () => {
          events.push('loaded');
          lease.loaded();
        };
        return capturePage({ ...lease, cdp, loaded }, options, settings);
      });
      return events;
    };
    expect(await order(pageOptions(url('lazy.html'), { fullPage: true }))).toEqual(['shot', 'loaded']);
    expect(await order(pageOptions(url('simple.html')))).toEqual(['loaded', 'shot']);
  });

  it('measures a full page with inject_css applied (a page not scrolled through)', async () => {
    // simple.html watches no scrolling, so it is not scrolled; the injected CSS makes it taller.
    const shot = await shoot(
      pageOptions(url('simple.html'), {
        fullPage: true,
        injectCss: 'html { height: 2000px; border-bottom: 40px solid rgb(0, 0, 255); }',
      }),
    );
    expect([shot.width, shot.height]).toEqual([800, 2040]);
    const pixels = await decode(shot.png);
    expect(near(pixels.at(400, 2030), BLUE)).toBe(true);
    expect(near(pixels.at(400, 1990), WHITE)).toBe(true);
  });

  it('cuts a full page at 16384 CSS px with a warning', async () => {
    const shot = await shoot(pageOptions(url('tall.html'), { fullPage: true }));
    expect([shot.width, shot.height]).toEqual([800, 16384]);
    expect(shot.warnings).toHaveLength(1);
    expect(shot.warnings[0]).toContain('16384');
  });

  it("captures an element's box", async () => {
    const one = await shoot(pageOptions(url('element.html'), { selector: '#card' }));
    expect([one.width, one.height]).toEqual([300, 150]);
    const pixels = await decode(one.png);
    expect(near(pixels.at(150, 75), BLUE)).toBe(true);
    const two = await shoot(pageOptions(url('element.html'), { selector: '#card', deviceScaleFactor: 2 }));
    expect([two.width, two.height]).toEqual([600, 300]);
  });

  it('fails with selector_not_found for a missing element or wait_for selector', async () => {
    const missing = await failure(shoot(pageOptions(url('element.html'), { selector: '#nope' })));
    expect(missing.status).toBe(422);
    expect(missing.details).toMatchObject({ reason: 'selector_not_found' });
    const waited = await failure(shoot(pageOptions(url('simple.html'), { waitFor: '#never' })));
    expect(waited.details).toMatchObject({ reason: 'selector_not_found' });
  });

  it('fails with navigation_timeout when load does not come', async () => {
    const error = await failure(
      capture(pool, pageOptions(`${server.origin}/slow`), { ...settings, navigationTimeoutMs: 2000 }),
    );
    expect(error.code).toBe('capture_failed');
    expect(error.details).toMatchObject({ reason: 'navigation_timeout' });
  });

  it('fails with target_unreachable on a closed port, without net:: details', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, server.host, () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const error = await failure(shoot(pageOptions(`http://${server.host}:${port}/`)));
    expect(error.details).toMatchObject({ reason: 'target_unreachable' });
    expect(error.message).not.toMatch(/net::|ERR_/);
  });

  it('captures an HTTP error page like any other', async () => {
    const shot = await decode((await shoot(pageOptions(`${server.origin}/missing`))).png);
    expect(near(shot.at(50, 50), BLUE)).toBe(true);
  });
});
