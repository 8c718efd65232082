import type { AspectRatio, Device, SceneAlignment, SceneLayoutName } from '@vitrine/contract';
import type { RawImage } from '../image/raw-image.ts';
import { warpOnto } from './effects/homography-warp.ts';
import { pageTopColor, pageTopRows } from './page-top-color.ts';
import type { BrowserFonts } from './renderers/browser/fonts.ts';
import type { PageRunner } from './renderers/browser/render-in-browser.ts';
import { renderInBrowser } from './renderers/browser/render-in-browser.ts';
import type { BrowserTextDrawer } from './renderers/browser/text-in-browser.ts';
import type { ComposeCache } from './renderers/compose-cache.ts';
import { drawFrameLayer } from './renderers/raster/frame-layer.ts';
import { renderRaster } from './renderers/raster/render-raster.ts';
import { buildScene, sceneGeometry } from './scene.ts';
import { buildSceneGroup, sceneGroupGeometry } from './scene-group.ts';
import type { Scene, SceneText } from './scene-types.ts';
import type { ResolvedStyle } from './style-types.ts';
import type { FontCatalogue } from './text/font-catalogue.ts';

/** The screenshot a scene is composed around, as the capture stage took it. */
export interface ComposeScreenshot {
  /** The page's PNG. */
  png: Buffer;
  /** The device scale factor the page was captured at. */
  dpr: number;
  /** The page's final URL and title (a browser frame's address bar and tab). */
  url: string;
  title: string;
}

/** How one shot of a scene is framed (the plan's resolved shot frame). */
export interface ShotFrame {
  device: Device | null;
  device_color: string | null;
  device_scale: number;
  frame_ratio: AspectRatio;
}

/** A scene's arrangement and its shots, each with its screenshot, in the request's order. */
export interface ComposeSceneInput {
  layout: SceneLayoutName;
  spacing: number;
  alignment: SceneAlignment;
  shots: { frame: ShotFrame; screenshot: ComposeScreenshot }[];
}

/**
 * What the compose stage is given: the look (resolved) and the screenshot; for a scene, its
 * shots too (`screenshot` is then the first shot's).
 */
export interface ComposeInput {
  style: ResolvedStyle;
  screenshot: ComposeScreenshot;
  scene?: ComposeSceneInput;
}

/** What the compose stage hands on: the canvas, and what it adds to the result. */
export interface ComposedImage {
  image: RawImage;
  /** E.g. a compose mode that was not available. */
  warnings: string[];
  /** Added to `resolved_params` (the computed canvas geometry). */
  resolved: Record<string, unknown>;
}

/** Supplies the image behind an image background (a catalogue asset or a fetched URL). */
export type BackgroundImageLoader = (scene: Scene, signal: AbortSignal) => Promise<RawImage | undefined>;

/** The compose stage: a resolved scene in, pixels out. */
export type ComposeStage = (input: ComposeInput, signal: AbortSignal) => Promise<ComposedImage>;

/**
 * A renderer of the Scene: the raster renderer (compose mode `satori`, no browser) or the
 * browser renderer (compose mode `browser`, Chromium draws it).
 */
export type SceneRenderer = (
  scene: Scene,
  screenshot: RawImage,
  signal: AbortSignal,
  backgroundImage: RawImage | undefined,
) => Promise<RawImage>;

export interface ComposeStageDeps {
  /** The bundled fonts (their measurer wraps titles), loaded when the first styled capture needs them. */
  fonts: () => Promise<FontCatalogue>;
  decode(encoded: Buffer): Promise<RawImage>;
  /** The image behind an image background (render/background-images.ts). */
  loadBackground: BackgroundImageLoader;
  /** Renderers by compose mode; `satori` (the raster renderer) is always present. */
  renderers: { satori: SceneRenderer; browser?: SceneRenderer };
  /**
   * Whether the raster renderer hands text satori cannot draw to Chromium (rasterRenderer's
   * `browserText`): then only characters no face at all has are worth a warning.
   */
  scriptsInBrowser?: boolean;
}

/** The raster renderer as a SceneRenderer. */
export function rasterRenderer(deps: {
  fonts: () => Promise<FontCatalogue>;
  cache: ComposeCache;
  /** Chromium's drawing of text in scripts satori cannot shape or order right to left. */
  browserText?: BrowserTextDrawer;
}): SceneRenderer {
  return async (scene, screenshot, _signal, backgroundImage) =>
    renderRaster(scene, screenshot, {
      fonts: await deps.fonts(),
      cache: deps.cache,
      ...(deps.browserText ? { browserText: deps.browserText } : {}),
      ...(backgroundImage ? { backgroundImage } : {}),
    });
}

/**
 * The browser renderer as a SceneRenderer: Chromium draws the same scene on a page of its own
 * (JavaScript off, strict CSP), from `withPage`.
 */
export function browserRenderer(deps: {
  withPage: PageRunner;
  fonts: () => Promise<BrowserFonts>;
  cache: ComposeCache;
}): SceneRenderer {
  return async (scene, screenshot, _signal, backgroundImage) =>
    renderInBrowser(scene, screenshot, {
      withPage: deps.withPage,
      fonts: await deps.fonts(),
      cache: deps.cache,
      ...(backgroundImage ? { backgroundImage } : {}),
    });
}

/** The request field each kind of scene text comes from. */
const TEXT_FIELDS: Record<SceneText['role'], string> = {
  title: 'title',
  subtitle: 'subtitle',
  badge: 'badge',
  watermark: 'watermark',
  text: 'text_content',
  device: 'device (the page title in its frame)',
};

/** How many of the characters no face has a warning lists. */
const LISTED_CHARACTERS = 12;

/**
 * Warnings for text the raster renderer cannot draw: characters that neither the bundled faces,
 * the system's CJK faces nor the emoji cover (nor the script faces, when such text goes to
 * Chromium) come out as empty boxes, and the user should know.
 */
async function unrenderableText(
  scene: Scene,
  fonts: FontCatalogue,
  scriptsInBrowser: boolean,
): Promise<string[]> {
  const missingByField = new Map<string, Set<string>>();
  for (const text of scene.texts) {
    const faces = await fonts.facesFor(text.lines.join(''), text.font);
    const missing = scriptsInBrowser ? faces.uncovered : faces.missing;
    if (missing.length === 0) continue;
    const field = TEXT_FIELDS[text.role];
    missingByField.set(field, new Set([...(missingByField.get(field) ?? []), ...missing]));
  }
  return [...missingByField].map(([field, characters]) => {
    const missing = [...characters];
    const listed = missing.slice(0, LISTED_CHARACTERS).join('');
    const more = missing.length > LISTED_CHARACTERS ? ` and ${missing.length - LISTED_CHARACTERS} more` : '';
    return `${field}: no font has the characters "${listed}"${more}; compose_mode satori draws them as empty boxes`;
  });
}

/**
 * The compose stage of a styled capture: the scene from the resolved style and the screenshot's
 * real size, drawn by the requested mode.
 */
export function createComposeStage(deps: ComposeStageDeps): ComposeStage {
  return async (input, signal) => {
    if (input.scene) return composeSceneGroup(deps, input.style, input.scene, signal);
    const { style } = input;
    const captureDpr = input.screenshot.dpr;
    const [screenshot, fonts] = await Promise.all([deps.decode(input.screenshot.png), deps.fonts()]);
    const scene = buildScene(
      style,
      {
        width: screenshot.width,
        height: screenshot.height,
        dpr: captureDpr,
        url: input.screenshot.url,
        title: input.screenshot.title,
        topColor: style.device ? pageTopColor(screenshot, pageTopRows(captureDpr)) : null,
      },
      { measurer: fonts.measurer },
    );
    const backgroundImage = await deps.loadBackground(scene, signal);
    const warnings = scene.unrendered
      .filter((field) => !(field === 'background' && backgroundImage))
      .map((field) => `${field} is accepted but not rendered by this server yet`);
    const renderer = deps.renderers[style.compose_mode] ?? deps.renderers.satori;
    if (renderer !== deps.renderers[style.compose_mode]) {
      warnings.push(`compose_mode ${style.compose_mode} is not available; rendered with satori`);
    }
    if (renderer === deps.renderers.satori)
      warnings.push(...(await unrenderableText(scene, fonts, deps.scriptsInBrowser === true)));
    const image = await renderer(scene, screenshot, signal, backgroundImage);
    return { image, warnings, resolved: { canvas: sceneGeometry(scene) } };
  };
}

/** The renderer of a compose mode, and the warning when it had to fall back to the raster one. */
function rendererFor(deps: ComposeStageDeps, mode: ResolvedStyle['compose_mode']) {
  const renderer = deps.renderers[mode] ?? deps.renderers.satori;
  const warnings =
    renderer !== deps.renderers[mode] ? [`compose_mode ${mode} is not available; rendered with satori`] : [];
  return { renderer, warnings };
}

/**
 * A scene of several shots (issue 38): the backdrop (one background, one set of titles) and each
 * shot (its frame, device and shadow on a transparent canvas) drawn by the requested mode's
 * renderer, side by side; then the shots placed over the backdrop, back to front.
 */
async function composeSceneGroup(
  deps: ComposeStageDeps,
  style: ResolvedStyle,
  scene: ComposeSceneInput,
  signal: AbortSignal,
): Promise<ComposedImage> {
  const fonts = await deps.fonts();
  // Shots of one page load share their screenshot: decoded once.
  const decoded = new Map<Buffer, Promise<RawImage>>();
  const decode = (png: Buffer) => {
    let pending = decoded.get(png);
    if (!pending) {
      pending = deps.decode(png);
      decoded.set(png, pending);
    }
    return pending;
  };
  const screenshots = await Promise.all(scene.shots.map((shot) => decode(shot.screenshot.png)));
  const group = buildSceneGroup(
    style,
    scene,
    scene.shots.map((shot, index) => {
      const pixels = screenshots[index] as RawImage;
      return {
        frame: shot.frame,
        info: {
          width: pixels.width,
          height: pixels.height,
          dpr: shot.screenshot.dpr,
          url: shot.screenshot.url,
          title: shot.screenshot.title,
          topColor: shot.frame.device ? pageTopColor(pixels, pageTopRows(shot.screenshot.dpr)) : null,
        },
      };
    }),
    { measurer: fonts.measurer },
  );
  const backgroundImage = await deps.loadBackground(group.backdrop, signal);
  const warnings = group.backdrop.unrendered
    .filter((field) => !(field === 'background' && backgroundImage))
    .map((field) => `${field} is accepted but not rendered by this server yet`);
  if (style.title_position === 'overlay-bottom' && style.title)
    warnings.push('title_position overlay-bottom: a scene has no one screenshot to lay it over; drawn below');
  const { renderer, warnings: fallback } = rendererFor(deps, style.compose_mode);
  warnings.push(...fallback);
  if (renderer === deps.renderers.satori) {
    for (const drawn of [
      group.backdrop,
      ...group.shots.map((shot) => shot.scene),
      ...(group.overlay ? [group.overlay] : []),
    ])
      warnings.push(...(await unrenderableText(drawn, fonts, deps.scriptsInBrowser === true)));
  }
  const [canvas, overlay, ...layers] = await Promise.all([
    renderer(group.backdrop, screenshots[0] as RawImage, signal, backgroundImage),
    group.overlay ? renderer(group.overlay, screenshots[0] as RawImage, signal, undefined) : null,
    ...group.shots.map((shot) =>
      renderer(shot.scene, screenshots[shot.index] as RawImage, signal, undefined),
    ),
  ]);
  signal.throwIfAborted();
  const image = canvas as RawImage;
  // Without a camera or depth blur the shots go straight onto the canvas; with them, flat into
  // the group layer, which is then blurred and turned as one (the same code as a shot's frame layer).
  const plane = group.layer;
  const under: RawImage = plane
    ? {
        data: Buffer.alloc(plane.rect.width * plane.rect.height * 4),
        width: plane.rect.width,
        height: plane.rect.height,
        channels: 4,
      }
    : image;
  const origin = plane ? plane.rect : { x: 0, y: 0 };
  group.shots.forEach((shot, i) => {
    const layer = layers[i] as RawImage;
    warpOnto(
      under,
      {
        data: layer.data,
        width: layer.width,
        height: layer.height,
        x: shot.x - origin.x,
        y: shot.y - origin.y,
      },
      [1, 0, 0, 0, 1, 0, 0, 0, 1],
    );
  });
  if (plane) await drawFrameLayer(image, under, plane);
  if (overlay) warpOnto(image, { ...overlay, x: 0, y: 0 }, [1, 0, 0, 0, 1, 0, 0, 0, 1]);
  return { image, warnings: [...new Set(warnings)], resolved: { canvas: sceneGroupGeometry(group) } };
}
