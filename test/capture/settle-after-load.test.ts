import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserPool } from '../../packages/server/src/browser/browser-pool.ts';
import { capture, capturePage } from '../../packages/server/src/browser/capture-page.ts';
import type { PageCaptureOptions } from '../../packages/server/src/browser/page-capture-options.ts';
import { decode, near, pageOptions, testPool } from '../support/capture-test-kit.ts';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';

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

function servePage(pathname: string, html: string): void {
  server.route(pathname, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(html);
  });
}

/** Serves a script after `delayMs`: code that arrives well after `load`. */
function serveLateScript(pathname: string, code: string, delayMs: number): void {
  server.route(pathname, (_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(code);
    }, delayMs);
  });
}

function shoot(pathname: string, overrides: Partial<PageCaptureOptions> = {}) {
  return capture(pool, pageOptions(`${server.origin}${pathname}`, overrides), settings);
}

/**
 * A chart drawn by code that arrives late: a red bar grows across the 600 x 300 canvas over 1 s
 * of animation frames, as chart libraries animate their first draw. Only its end fills x = 590.
 */
const DRAW_BAR = `function drawBar() {
  const context = document.getElementById('chart').getContext('2d');
  const start = performance.now();
  const frame = (now) => {
    const t = Math.min(1, (now - start) / 1000);
    context.fillStyle = '#ff0000';
    context.fillRect(0, 0, 600 * t, 300);
    if (t < 1) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}`;
const CHART_CARD = `<body style="margin:0;background:#fff">
  <div style="width:600px;height:300px;background:#ddd"><canvas id="chart" width="600" height="300"></canvas></div>`;

async function barDrawn(png: Buffer): Promise<boolean> {
  const pixels = await decode(png);
  return near(pixels.at(590, 150), [255, 0, 0]) && near(pixels.at(10, 150), [255, 0, 0]);
}

describe('settled on what the page does after load', () => {
  it('waits for a chunk loaded with import() after load, then finishes the chart it draws', async () => {
    serveLateScript('/late/chart-chunk.js', `${DRAW_BAR}\nexport { drawBar };`, 800);
    servePage(
      '/dynamic-import',
      `${CHART_CARD}<script type="module">
        addEventListener('load', () => setTimeout(async () => {
          const { drawBar } = await import('/late/chart-chunk.js');
          drawBar();
        }, 30));
      </script></body>`,
    );
    for (const fullPage of [false, true]) {
      const shot = await shoot('/dynamic-import', { fullPage });
      expect(shot.warnings).toEqual([]);
      expect(await barDrawn(shot.png), `fullPage ${fullPage}`).toBe(true);
    }
  });

  it('waits for script tags inserted after load, wave after wave (a loader that loads a library)', async () => {
    // The loader arrives late and inserts the chart code, which arrives late too: two waves.
    serveLateScript('/late/bar-library.js', `${DRAW_BAR}\nwindow.drawBar = drawBar;`, 600);
    serveLateScript(
      '/late/loader.js',
      `const library = document.createElement('script');
       library.src = '/late/bar-library.js';
       library.onload = () => window.drawBar();
       document.head.append(library);`,
      600,
    );
    servePage(
      '/inserted-scripts',
      `${CHART_CARD}<script>
        addEventListener('load', () => {
          const loader = document.createElement('script');
          loader.src = '/late/loader.js';
          document.head.append(loader);
        });
      </script></body>`,
    );
    const shot = await shoot('/inserted-scripts');
    expect(shot.warnings).toEqual([]);
    expect(await barDrawn(shot.png)).toBe(true);
  });

  it("does not run the page's clock past a loader's own timeout while its script loads (require.js gives up after 7 s)", async () => {
    serveLateScript('/late/module.js', `${DRAW_BAR}\nwindow.drawBar = drawBar;`, 800);
    servePage(
      '/loader-timeout',
      `${CHART_CARD}<script>
        addEventListener('load', () => setTimeout(() => {
          // require.js's way: it looks every 50 ms whether its modules came, and gives up on
          // them after its waitSeconds (here 2 s).
          let state = 'loading';
          const module = Object.assign(document.createElement('script'), { src: '/late/module.js' });
          module.onload = () => { if (state === 'loading') { state = 'loaded'; window.drawBar(); } };
          document.head.append(module);
          const started = Date.now();
          const check = () => {
            if (state !== 'loading') return;
            if (Date.now() - started > 2000) state = 'gave up';
            else setTimeout(check, 50);
          };
          check();
        }, 20));
      </script></body>`,
    );
    const shot = await shoot('/loader-timeout');
    expect(shot.warnings).toEqual([]);
    expect(await barDrawn(shot.png)).toBe(true);
  });

  it('measures a full page after a late script changed its height (a table paged down to 10 rows)', async () => {
    serveLateScript(
      '/late/pager.js',
      `for (const row of [...document.querySelectorAll('tr')].slice(10)) row.remove();`,
      700,
    );
    const rows = Array.from({ length: 16 }, (_, i) => `<tr style="height:100px"><td>Row ${i + 1}</td></tr>`);
    servePage(
      '/late-pager',
      `<body style="margin:0"><table style="border-collapse:collapse">${rows.join('')}</table>
      <footer style="height:200px;background:#00f"></footer>
      <script>addEventListener('load', () => {
        document.head.append(Object.assign(document.createElement('script'), { src: '/late/pager.js' }));
      });</script></body>`,
    );
    const shot = await shoot('/late-pager', { fullPage: true, viewport: { width: 800, height: 600 } });
    expect(shot.warnings).toEqual([]);
    expect(shot.height).toBe(10 * 100 + 200);
    expect(near((await decode(shot.png)).at(400, shot.height - 10), [0, 0, 255])).toBe(true);
  });

  it('captures a page whose late script never arrives at the cap, and names it in a warning', async () => {
    server.route('/late/never.js', () => undefined);
    servePage(
      '/never-arrives',
      `<p>Waiting</p><script>addEventListener('load', () => {
        document.head.append(Object.assign(document.createElement('script'), { src: '/late/never.js' }));
      });</script>`,
    );
    const shot = await shoot('/never-arrives');
    expect(shot.warnings).toEqual([
      'The page was still loading 1 script or stylesheet after 10000 ms (never.js); captured without them',
    ]);
  }, 60_000);

  it('waits for an image a lazy-loading library fills in when it shows', async () => {
    server.route('/late/photo.svg', (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'image/svg+xml' });
        res.end(
          '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#f00"/></svg>',
        );
      }, 700);
    });
    // vanilla-lazyload's way: no src until an IntersectionObserver copies data-src, then a fade.
    servePage(
      '/lazy-library',
      `<body style="margin:0"><style>img{opacity:0;transition:opacity .5s}img.loaded{opacity:1}</style>
      <img data-src="/late/photo.svg" width="400" height="300">
      <script>
        const observer = new IntersectionObserver((entries) => {
          for (const entry of entries) {
            if (!entry.isIntersecting) continue;
            const image = entry.target;
            image.onload = () => image.classList.add('loaded');
            image.src = image.dataset.src;
            observer.unobserve(image);
          }
        });
        // Started from a timer, as libraries that wait for an idle moment do.
        addEventListener('load', () =>
          setTimeout(() => document.querySelectorAll('img[data-src]').forEach((image) => observer.observe(image)), 50),
        );
      </script></body>`,
    );
    const shot = await shoot('/lazy-library');
    expect(shot.warnings).toEqual([]);
    expect(near((await decode(shot.png)).at(200, 150), [255, 0, 0])).toBe(true);
  });
});

describe('a full page as it looks at the top', () => {
  const hero = [20, 40, 90] as [number, number, number];
  const NAVBAR_PAGE = `<!doctype html><html><head><link rel="stylesheet" href="/vendor/aos.css">
    <style>
      body { margin: 0; font: 18px sans-serif; }
      nav { position: fixed; top: 0; left: 0; right: 0; height: 80px; background: transparent; z-index: 10; }
      nav.scrolled { height: 56px; background: rgb(255, 255, 255); }
      .hero { height: 600px; background: rgb(20, 40, 90); }
      section { height: 500px; padding: 40px; box-sizing: border-box; }
      .block { height: 300px; background: rgb(0, 160, 0); }
    </style></head><body>
    <nav id="nav">Brand</nav>
    <div class="hero"></div>
    <section><div class="block" data-aos="fade-up"></div></section>
    <section><div class="block" data-aos="fade-up"></div></section>
    <section><div class="block" data-aos="zoom-in"></div></section>
    <script src="/vendor/aos.js"></script>
    <script>
      // The landing-page pattern: the navbar turns white and smaller once the page is scrolled.
      const nav = document.getElementById('nav');
      const update = () => nav.classList.toggle('scrolled', window.scrollY > 50);
      addEventListener('scroll', () => setTimeout(update, 10));
      update();
      AOS.init({ once: false });
    </script></body></html>`;

  it('shows the navbar in its top state and keeps every section revealed below', async () => {
    servePage('/navbar-on-scroll', NAVBAR_PAGE);
    const shot = await shoot('/navbar-on-scroll', { fullPage: true, viewport: { width: 800, height: 600 } });
    expect(shot.warnings).toEqual([]);
    expect(shot.height).toBe(600 + 3 * 500);
    const pixels = await decode(shot.png);
    // The navbar is transparent over the hero at the top (white once scrolled).
    expect(near(pixels.at(400, 20), hero), 'navbar at the top').toBe(true);
    // Every section below the first screen is revealed (AOS with once: false hid them again
    // when the page saw the scroll back up).
    for (const y of [600 + 40 + 150, 1100 + 40 + 150, 1600 + 40 + 150]) {
      expect(near(pixels.at(400, y), [0, 160, 0]), `section at ${y}`).toBe(true);
    }
  });

  it('lets a scroll spy let go at the top, and keeps toggled reveals and a reset count-up below', async () => {
    servePage(
      '/spy-and-toggles',
      `<body style="margin:0"><style>
        nav { position: fixed; top: 0; height: 60px; width: 100%; }
        nav a.active { color: red; }
        .hero { height: 700px; }
        section { height: 700px; opacity: 0; }
        section.shown { opacity: 1; }
      </style>
      <nav><a id="link" href="#last">Last</a></nav>
      <div class="hero"></div>
      <section id="first"><span id="counter">0</span></section>
      <section id="last">Last section</section>
      <script>
        // Both ways, as Bootstrap's ScrollSpy and toggling reveal libraries do.
        const spy = new IntersectionObserver((entries) => {
          for (const entry of entries) {
            entry.target.classList.toggle('shown', entry.isIntersecting);
            if (entry.target.id === 'last') document.getElementById('link').classList.toggle('active', entry.isIntersecting);
          }
        });
        document.querySelectorAll('section').forEach((section) => spy.observe(section));
        // A count-up that counts when it comes into view and resets when the page goes back
        // above it (as AOS hides a section again without "mirror").
        const counter = document.getElementById('counter');
        addEventListener('scroll', () => {
          const top = counter.getBoundingClientRect().top;
          if (top < innerHeight && top > 0) counter.textContent = '12500';
          else if (top >= innerHeight) counter.textContent = '0';
        });
      </script></body>`,
    );
    const state = await pool.run(async (lease) => {
      const options = pageOptions(`${server.origin}/spy-and-toggles`, {
        fullPage: true,
        viewport: { width: 800, height: 600 },
      });
      const shot = await capturePage(lease, options, settings);
      const dom = await lease.page.evaluate(() => ({
        active: document.getElementById('link')?.classList.contains('active'),
        shown: [...document.querySelectorAll('section')].map((section) =>
          section.classList.contains('shown'),
        ),
        counter: document.getElementById('counter')?.textContent,
      }));
      return { warnings: shot.warnings, ...dom };
    });
    expect(state).toEqual({ warnings: [], active: false, shown: [true, true], counter: '12500' });
  });

  it('captures a feed that never stops growing at a bounded point, with what it revealed drawn', async () => {
    servePage(
      '/endless-feed',
      `<body style="margin:0"><style>
        .tile { height: 200px; margin: 0 0 20px; background: rgb(200, 0, 120); opacity: 0; transition: opacity .4s; }
        .tile.shown { opacity: 1; }
      </style><main id="feed"></main><script>
        const feed = document.getElementById('feed');
        const observer = new IntersectionObserver((entries) => {
          for (const entry of entries) if (entry.isIntersecting) entry.target.classList.add('shown');
        });
        const add = () => {
          const tile = document.createElement('div');
          tile.className = 'tile';
          feed.append(tile);
          observer.observe(tile);
        };
        for (let i = 0; i < 4; i += 1) add();
        setInterval(add, 300);
      </script></body>`,
    );
    const shot = await shoot('/endless-feed', { fullPage: true, viewport: { width: 800, height: 600 } });
    expect(shot.warnings).toContainEqual(
      expect.stringMatching(/kept adding content .* captured the first \d+ px/),
    );
    const pixels = await decode(shot.png);
    // Every tile inside the captured height is drawn (none left at opacity 0).
    for (let top = 0; top + 200 <= shot.height; top += 220) {
      expect(near(pixels.at(400, top + 100), [200, 0, 120]), `tile at ${top}`).toBe(true);
    }
  }, 90_000);
});
