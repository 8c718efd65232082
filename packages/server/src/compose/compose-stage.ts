import type { AspectRatio, Device, SceneAlignment, SceneLayoutName } from '@vitrine/contract';
import type { RawImage } from '../image/raw-image.ts';
import { pageTopColor, pageTopRows } from './page-top-color.ts';
import type { BrowserFonts } from './renderers/browser/fonts.ts';
import type { PageRunner } from './renderers/browser/render-in-browser.ts';
import { renderInBrowser } from './renderers/browser/render-in-browser.ts';
import type { BrowserTextDrawer } from './renderers/browser/text-in-browser.ts';
import type { ComposeCache } from './renderers/compose-cache.ts';
import { renderRaster } from './renderers/raster/render-raster.ts';
import { buildScene, sceneGeometry } from './scene.ts';
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
