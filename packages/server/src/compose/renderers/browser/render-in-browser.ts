import { createHash } from 'node:crypto';
import type { CDPSession, Page } from 'playwright-core';
import sharp from 'sharp';
import { captureScreenshot } from '../../../chromium/capture-screenshot.ts';
import type { RawPixels } from '../../../image/raw-image.ts';
import { layerScene } from '../../camera/scene-layer.ts';
import type { Scene, SceneLayer } from '../../scene-types.ts';
import { coverImage } from '../cover-image.ts';
import { drawFrameLayer } from '../raster/frame-layer.ts';
import type { RawImage } from '../raster/pixels.ts';
import type { ComposeCache } from '../raster/render-raster.ts';
import { edgeColor, fittedScreenshot } from '../screenshot-fit.ts';
import { buildLayerPlaneHtml } from './camera-html.ts';
import type { BrowserFonts } from './fonts.ts';
import { compositeOver, pasteScreenshot } from './pixels.ts';
import { buildSceneHtml, type ScreenshotSource } from './scene-html.ts';

/** Runs `fn` on a prepared page and its CDP session (app.ts: the browser pool's `run`). */
export type PageRunner = <T>(fn: (page: Page, cdp: CDPSession) => Promise<T>) => Promise<T>;

export interface BrowserComposeDeps {
  withPage: PageRunner;
  fonts: BrowserFonts;
  /** The decoded background image when the scene's background is an image (fetched by the caller). */
  backgroundImage?: RawPixels;
  /**
   * `composite` (default): the screenshot is pasted in Node between the page's layers;
   * `inline`: Chromium draws it from a data: URL (slower: every MB crosses the DevTools pipe).
   */
  screenshotMode?: 'composite' | 'inline';
  /**
   * Where rendered pages are kept, by their document (the raster renderer's cache). In
   * `composite` mode the document holds everything but the screenshot, so the same look around
   * the same page size renders once; Chromium's blur of a large shadow is most of its cost.
   */
  cache?: ComposeCache;
}

/** Time per phase of one browser composition, in ms (for the bench and logs). */
export interface BrowserComposeTimings {
  /** Screenshot fitting and the document. */
  prepare: number;
  /** Page set-up, load and Chromium's capture. */
  page: number;
  /** PNG decode. */
  decode: number;
  /** Pasting the screenshot and the overlay. */
  finish: number;
}

/** The capture as PNG for `inline` mode: level 1 without filtering (bytes cost more than zlib time here). */
async function inlineSource(input: RawPixels): Promise<ScreenshotSource> {
  const png = await sharp(input.data, {
    raw: { width: input.width, height: input.height, channels: input.channels },
  })
    .png({ compressionLevel: 1, adaptiveFiltering: false })
    .toBuffer();
  return {
    mode: 'inline',
    url: `data:image/png;base64,${png.toString('base64')}`,
    width: input.width,
    height: input.height,
  };
}

/**
 * Loads the document into the page with the compose stage's lock-down (security.md 1.6):
 * JavaScript off, the document's CSP enforced even when the pool's contexts bypass CSP for
 * captures, every request that still got out aborted (data: URLs never reach the network), a
 * transparent default background, the viewport at the document's size at device scale factor 1.
 * Returns Chromium's PNG of the page (alpha kept).
 */
export async function renderComposePage(
  page: Page,
  cdp: CDPSession,
  doc: { html: string; width: number; height: number },
): Promise<Buffer> {
  await Promise.all([
    cdp.send('Page.setBypassCSP', { enabled: false }),
    cdp.send('Emulation.setScriptExecutionDisabled', { value: true }),
    cdp.send('Emulation.setDeviceMetricsOverride', {
      width: doc.width,
      height: doc.height,
      deviceScaleFactor: 1,
      mobile: false,
    }),
    cdp.send('Emulation.setDefaultBackgroundColorOverride', { color: { r: 0, g: 0, b: 0, a: 0 } }),
    cdp.send('Page.enable'),
    page.route('**/*', (route) => route.abort('blockedbyclient')),
  ]);
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const frameId = frameTree.frame.id;
  const loaded = new Promise<void>((resolve) => cdp.once('Page.loadEventFired', () => resolve()));
  await cdp.send('Page.setDocumentContent', { frameId, html: doc.html });
  await loaded;
  // Page scripts are off; an isolated world still runs this one wait for the embedded fonts.
  const world = await cdp.send('Page.createIsolatedWorld', { frameId, worldName: 'vitrine-compose' });
  await cdp.send('Runtime.evaluate', {
    contextId: world.executionContextId,
    expression: 'document.fonts.ready.then(() => document.fonts.status)',
    awaitPromise: true,
    returnByValue: true,
  });
  const shot = await captureScreenshot(cdp, {
    format: 'png',
    optimizeForSpeed: true,
    fromSurface: true,
    captureBeyondViewport: false,
  });
  return Buffer.from(shot.data, 'base64');
}

/**
 * Draws a Scene with Chromium: the scene as an HTML/CSS document (browser-html.ts) rendered on a
 * warm page and captured through CDP. By default the screenshot itself is pasted in Node between
 * the layers under it (background, shadows, frame) and over it (rim, scrim, texts), which the
 * page renders side by side in one capture. Returns straight RGBA at the scene's canvas size,
 * like the raster renderer.
 */
export async function renderInBrowser(
  scene: Scene,
  screenshot: RawPixels,
  deps: BrowserComposeDeps,
  timings?: BrowserComposeTimings,
): Promise<RawImage> {
  if (scene.layer) return renderLayeredInBrowser(scene, scene.layer, screenshot, deps);
  const t0 = performance.now();
  const mode = deps.screenshotMode ?? 'composite';
  // No screenshot (the backdrop of a scene of several shots): nothing to fit or paste.
  const noShot = scene.screenshot.rect.width <= 0 || scene.screenshot.rect.height <= 0;
  const needPixels = !noShot && (mode === 'composite' || scene.frame.fill === 'auto');
  const [fitted, source, under] = await Promise.all([
    needPixels ? fittedScreenshot(screenshot, scene.screenshot) : null,
    mode === 'inline' && !noShot ? inlineSource(screenshot) : ({ mode: 'composite' } as const),
    scene.background.kind === 'image' && deps.backgroundImage
      ? coverImage(deps.backgroundImage, scene.canvas.width, scene.canvas.height)
      : null,
  ]);
  const { rect } = scene.screenshot;
  const edge = fitted ? edgeColor(fitted, rect.width, rect.height) : null;
  const doc = buildSceneHtml(scene, {
    fonts: deps.fonts,
    screenshot: source,
    ...(edge && scene.frame.fill === 'auto' ? { autoMat: edge } : {}),
    ...(edge && mode === 'composite' ? { holeFill: edge } : {}),
  });
  const built = performance.now();
  const stepTimes = { page: 0, decode: 0 };
  const rendered = await renderedPage(doc, mode === 'composite' ? deps.cache : undefined, deps, stepTimes);
  const drawn = performance.now();
  const { data, width: stride } = rendered;
  const { width, height } = scene.canvas;
  const pageRows = { data, width, stride, height };
  let canvas: RawImage;
  if (stride === width && !doc.overlay && !under) {
    // A copy: the rendered page may be the cache's, and the screenshot is pasted into the canvas.
    canvas = { data: Buffer.from(data.subarray(0, width * height * 4)), width, height, channels: 4 };
  } else {
    canvas = under ?? { data: Buffer.alloc(width * height * 4), width, height, channels: 4 };
    if (under) compositeOver(canvas, pageRows, { x: 0, y: 0 });
    else
      for (let y = 0; y < height; y++)
        data.copy(canvas.data, y * width * 4, y * stride * 4, (y * stride + width) * 4);
  }
  if (fitted && mode === 'composite') {
    pasteScreenshot(canvas, fitted, scene.screenshot);
    const o = doc.overlay;
    if (o) {
      const layer = {
        data: data.subarray((o.y * stride + o.x) * 4),
        width: o.width,
        stride,
        height: o.height,
      };
      compositeOver(canvas, layer, rect);
    }
  }
  if (timings) {
    timings.prepare = built - t0;
    timings.page = stepTimes.page;
    timings.decode = stepTimes.decode;
    timings.finish = performance.now() - drawn;
  }
  return canvas;
}

/**
 * A scene with a frame layer (camera or depth blur). Chromium draws three planes, and none of
 * their documents holds the screenshot's pixels (so each is kept in the compose cache like a
 * composite-mode page): the frame layer flat (frame, device and the texts on the frame, the
 * screenshot pasted in Node), the backdrop (background and the shadows through their camera),
 * and the texts that stay flat. The layer's depth blur and camera warp are the raster renderer's
 * (WebAssembly, the same code and so the same pixels): Chromium blurring and resampling a 3D-
 * transformed layer in software took 350-470 ms at dpr 1 and 1.4-2 s at dpr 2 (P10 asks for
 * 240 / 800), most of it the blur filters and the 3D transform of every level's copy.
 */
async function renderLayeredInBrowser(
  scene: Scene,
  layer: SceneLayer,
  screenshot: RawPixels,
  deps: BrowserComposeDeps,
): Promise<RawImage> {
  const times = { page: 0, decode: 0 };
  const docs = buildLayerPlaneHtml(scene, { fonts: deps.fonts });
  const [flat, backdrop, texts, under] = await Promise.all([
    renderInBrowser(layerScene(scene, layer), screenshot, deps),
    renderedPage(docs.backdrop, deps.cache, deps, times),
    docs.texts ? renderedPage(docs.texts, deps.cache, deps, times) : null,
    scene.background.kind === 'image' && deps.backgroundImage
      ? coverImage(deps.backgroundImage, scene.canvas.width, scene.canvas.height)
      : null,
  ]);
  const { width, height } = scene.canvas;
  const canvas = under ?? { data: Buffer.alloc(width * height * 4), width, height, channels: 4 as const };
  const plane = (page: RawImage) => ({ data: page.data, width, stride: page.width, height });
  if (under) compositeOver(canvas, plane(backdrop), { x: 0, y: 0 });
  else
    for (let y = 0; y < height; y++)
      backdrop.data.copy(
        canvas.data,
        y * width * 4,
        y * backdrop.width * 4,
        (y * backdrop.width + width) * 4,
      );
  await drawFrameLayer(canvas, flat, layer);
  if (texts) compositeOver(canvas, plane(texts), { x: 0, y: 0 });
  return canvas;
}

/**
 * The document rendered by Chromium and decoded to straight RGBA, from `cache` when the same
 * document was rendered before (keyed by its SHA-256: documents are self-contained). The
 * returned pixels are shared with the cache: read them, never write.
 */
async function renderedPage(
  doc: { html: string; width: number; height: number },
  cache: ComposeCache | undefined,
  deps: BrowserComposeDeps,
  times: { page: number; decode: number },
): Promise<RawImage> {
  const render = async (): Promise<RawImage> => {
    const started = performance.now();
    const png = await deps.withPage((page, cdp) => renderComposePage(page, cdp, doc));
    const decodeStarted = performance.now();
    const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    times.page = decodeStarted - started;
    times.decode = performance.now() - decodeStarted;
    return { data, width: info.width, height: info.height, channels: 4 };
  };
  if (!cache) return render();
  const key = `browser-page:${createHash('sha256').update(doc.html).digest('base64url')}`;
  const cached = cache.get<RawImage>(key);
  if (cached) return cached;
  const rendering = render();
  cache.set(key, rendering);
  return rendering;
}
