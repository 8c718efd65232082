import { createHash } from 'node:crypto';
import type { CDPSession, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { resolveStyle } from '../../../captures/resolve/resolve-style.ts';
import type { RawPixels } from '../../../image/raw-image.ts';
import { buildScene } from '../../scene.ts';
import type { RawImage } from '../raster/pixels.ts';
import { createComposeCache } from '../raster/render-raster.ts';
import type { BrowserFonts } from './fonts.ts';
import { renderInBrowser } from './render-in-browser.ts';

const fonts: BrowserFonts = {
  faceCss: () => [],
  scriptFamilies: () => [],
  satoriBaselineShifts: () => [],
  metrics: () => ({ ascent: 0.97, descent: 0.24 }),
};

/** A stand-in for Chromium: answers every document with a flat grey PNG of the page's size. */
function fakeChromium() {
  const documents: string[] = [];
  const withPage = async <T>(fn: (page: Page, cdp: CDPSession) => Promise<T>): Promise<T> => {
    // This page's document: renders run side by side, each on a page of its own.
    let html = '';
    const cdp = {
      send: async (method: string, params: Record<string, unknown>) => {
        if (method === 'Page.getFrameTree') return { frameTree: { frame: { id: 'f' } } };
        if (method === 'Page.setDocumentContent') {
          html = String(params.html);
          documents.push(html);
        }
        if (method === 'Page.createIsolatedWorld') return { executionContextId: 1 };
        if (method === 'Page.captureScreenshot') {
          const size = /width:(\d+)px;height:(\d+)px/.exec(html);
          const png = await sharp({
            create: {
              width: Number(size?.[1]),
              height: Number(size?.[2]),
              channels: 4,
              background: '#808080',
            },
          })
            .png()
            .toBuffer();
          return { data: png.toString('base64') };
        }
        return {};
      },
      once: (_event: string, listener: () => void) => setTimeout(listener, 0),
    };
    const page = { route: async () => undefined };
    return fn(page as unknown as Page, cdp as unknown as CDPSession);
  };
  return { withPage, documents };
}

function screenshot(colour: [number, number, number]): RawPixels {
  const data = Buffer.alloc(640 * 400 * 4);
  for (let i = 0; i < data.length; i += 4) data.set([...colour, 255], i);
  return { data, width: 640, height: 400, channels: 4 };
}

describe('browser renderer: rendered pages are cached by document', () => {
  const scene = buildScene(resolveStyle({ background: 'solid', background_color: '#808080' }), {
    width: 640,
    height: 400,
  });

  it('renders one document once, and the cached page is never drawn into', async () => {
    const chromium = fakeChromium();
    const cache = createComposeCache();
    const deps = { withPage: chromium.withPage, fonts, cache };
    const red = await renderInBrowser(scene, screenshot([255, 0, 0]), deps);
    const redAgain = await renderInBrowser(scene, screenshot([255, 0, 0]), deps);
    expect(chromium.documents).toHaveLength(1);
    expect(redAgain.data.equals(red.data)).toBe(true);
    const centre = ((scene.canvas.height >> 1) * scene.canvas.width + (scene.canvas.width >> 1)) * 4;
    expect([...red.data.subarray(centre, centre + 3)]).toEqual([255, 0, 0]);
    // The cached page itself stays as Chromium drew it: grey where the screenshot was pasted.
    const key = `browser-page:${createHash('sha256')
      .update(chromium.documents[0] ?? '')
      .digest('base64url')}`;
    const page = await cache.get<RawImage>(key);
    expect(page && [...page.data.subarray(centre, centre + 3)]).toEqual([128, 128, 128]);
  });

  it('renders again when the document differs (another edge colour under the screenshot)', async () => {
    const chromium = fakeChromium();
    const deps = { withPage: chromium.withPage, fonts, cache: createComposeCache() };
    await renderInBrowser(scene, screenshot([255, 0, 0]), deps);
    await renderInBrowser(scene, screenshot([0, 0, 255]), deps);
    expect(chromium.documents).toHaveLength(2);
  });

  it('renders every time without a cache', async () => {
    const chromium = fakeChromium();
    const deps = { withPage: chromium.withPage, fonts };
    await renderInBrowser(scene, screenshot([255, 0, 0]), deps);
    await renderInBrowser(scene, screenshot([255, 0, 0]), deps);
    expect(chromium.documents).toHaveLength(2);
  });

  it('draws a camera look from three cached planes (the camera parity tests check its pixels)', async () => {
    const camera = buildScene(
      resolveStyle({
        background: 'solid',
        background_color: '#808080',
        perspective: 'tilt-left',
        title: 'Hi',
      }),
      { width: 640, height: 400 },
    );
    const chromium = fakeChromium();
    const deps = { withPage: chromium.withPage, fonts, cache: createComposeCache() };
    const red = await renderInBrowser(camera, screenshot([255, 0, 0]), deps);
    // The flat frame layer, the backdrop (background and shadows) and the flat title: none
    // holds the screenshot's pixels, so the same look renders no page again.
    expect(chromium.documents).toHaveLength(3);
    expect(chromium.documents.filter((d) => d.includes('matrix3d'))).toHaveLength(1);
    await renderInBrowser(camera, screenshot([255, 0, 0]), deps);
    expect(chromium.documents).toHaveLength(3);
    expect([red.width, red.height]).toEqual([camera.canvas.width, camera.canvas.height]);
  });
});
