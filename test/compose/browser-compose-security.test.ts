import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CDPSession, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserPool } from '../../packages/server/src/browser/browser-pool.ts';
import { resolveStyle } from '../../packages/server/src/captures/resolve/resolve-style.ts';
import {
  type BrowserFonts,
  loadBrowserFonts,
} from '../../packages/server/src/compose/renderers/browser/fonts.ts';
import {
  renderComposePage,
  renderInBrowser,
} from '../../packages/server/src/compose/renderers/browser/render-in-browser.ts';
import { COMPOSE_CSP } from '../../packages/server/src/compose/renderers/browser/scene-html.ts';
import { buildScene } from '../../packages/server/src/compose/scene.ts';
import {
  type FontCatalogue,
  loadFontCatalogue,
} from '../../packages/server/src/compose/text/font-catalogue.ts';
import type { RawPixels } from '../../packages/server/src/image/raw-image.ts';
import { testPool } from '../support/capture-test-kit.ts';
import { fakeAppScreenshot } from '../support/fake-screenshot.ts';
import { half } from './gallery-scenes.ts';

/**
 * security.md 1.6: the compose page loads nothing from the network. The pool's contexts bypass
 * CSP for captures, so the compose page turns enforcement back on. Chromium reports every
 * attempted request, blocked or not, so each must have failed with the reason `csp` (the
 * route's abort, the second line of defence, reports `net::ERR_BLOCKED_BY_CLIENT`); a canary
 * server on 127.0.0.1 counts what would have got through.
 */
describe('browser compose page lock-down', () => {
  let pool: BrowserPool;
  let fonts: FontCatalogue;
  let browserFonts: BrowserFonts;
  let shot: RawPixels;
  let canary: Server;
  let canaryHits = 0;
  let base = '';

  beforeAll(async () => {
    canary = createServer((_req, res) => {
      canaryHits++;
      res.end('x');
    });
    await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
    // The capture pool as the service runs it: its contexts bypass CSP.
    pool = testPool({ concurrency: 1 });
    [fonts, browserFonts, shot] = await Promise.all([
      loadFontCatalogue(),
      loadBrowserFonts(),
      fakeAppScreenshot(360, 225),
    ]);
  });
  afterAll(async () => {
    await pool?.close();
    await new Promise((resolve) => canary?.close(resolve));
  });

  /** Runs `fn` on a pool page, recording every non-data: request Chromium attempts and how it ended. */
  const watched = async <T>(fn: (page: Page, cdp: CDPSession) => Promise<T>) => {
    const requests: string[] = [];
    const result = await pool.run(async ({ page, cdp }) => {
      const record = (r: Request, end: string) => {
        if (!r.url().startsWith('data:')) requests.push(`${new URL(r.url()).pathname} ${end}`);
      };
      page.on('requestfailed', (r) => record(r, r.failure()?.errorText ?? 'failed'));
      page.on('requestfinished', (r) => record(r, 'finished'));
      const out = await fn(page, cdp);
      // The document's text as Chromium parsed it, read from an isolated world (page scripts are off).
      const { frameTree } = await cdp.send('Page.getFrameTree');
      const world = await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id });
      const read = await cdp.send('Runtime.evaluate', {
        contextId: world.executionContextId,
        expression: 'JSON.stringify({ text: document.body.innerText, imgs: document.images.length })',
        returnByValue: true,
      });
      return { out, dom: JSON.parse(read.result.value as string) as { text: string; imgs: number } };
    });
    return { ...result, requests };
  };

  it('renders markup in a title literally and requests nothing', async () => {
    const title = `<img src=${base}/x> <style>body{background:url(${base}/y)}</style>`;
    const scene = buildScene(resolveStyle(half({ title, title_size: 12 })), shot, {
      measurer: fonts.measurer,
    });
    const { out, dom, requests } = await watched((page, cdp) =>
      renderInBrowser(scene, shot, {
        withPage: (fn) => fn(page, cdp) as never,
        fonts: browserFonts,
      }),
    );
    expect(out.width).toBe(scene.canvas.width);
    expect(dom.imgs).toBe(0);
    expect(dom.text.replace(/\s+/g, ' ')).toContain(`<img src=${base}/x>`);
    expect(requests).toEqual([]);
    expect(canaryHits).toBe(0);
  });

  const injected = () =>
    '<!doctype html><html><head>' +
    `<meta http-equiv="Content-Security-Policy" content="${COMPOSE_CSP}">` +
    `<style>body{background:url(${base}/css)}@font-face{font-family:x;src:url(${base}/font)}</style>` +
    `<link rel="stylesheet" href="${base}/link"></head>` +
    `<body><img src="${base}/img"><div style="font-family:x;background-image:url(${base}/inline)">a</div>` +
    `<iframe src="${base}/frame"></iframe></body></html>`;

  it('enforces the CSP on a capture context: markup that got into the document is blocked by it', async () => {
    const { requests } = await watched((page, cdp) =>
      renderComposePage(page, cdp, { html: injected(), width: 200, height: 100 }),
    );
    expect(requests.sort()).toEqual(['/css csp', '/font csp', '/img csp', '/inline csp', '/link csp']);
    expect(canaryHits).toBe(0);
  });
});
