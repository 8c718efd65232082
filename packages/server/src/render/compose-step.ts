import type { PageCapture } from '../capture/page-capture-options.ts';
import { pageTopColor, pageTopRows } from '../compose/page-top-color.ts';
import type { FontCatalogue } from '../compose/text/font-catalogue.ts';
import { type ComposeCache, renderRaster } from '../compose/renderers/raster/render-raster.ts';
import type { ResolvedStyle } from '../compose/resolve-style.ts';
import { buildScene, sceneGeometry } from '../compose/scene.ts';
import type { Scene } from '../compose/scene-types.ts';
import type { RawImage } from '../image/raw-image.ts';
import type { BackgroundImages } from './background-images.ts';
import type { ComposedImage } from './run-render.ts';

/** A renderer of the Scene: `satori` (raster, no browser) or `browser` (Chromium draws it). */
export type SceneRenderer = (
  scene: Scene,
  screenshot: RawImage,
  signal: AbortSignal,
  backgroundImage: RawImage | undefined,
) => Promise<RawImage>;

export interface ComposeStepDeps {
  fonts: FontCatalogue;
  cache: ComposeCache;
  decode(encoded: Buffer): Promise<RawImage>;
  backgroundImages: BackgroundImages;
  /** Renderers by compose mode; `satori` is always present. */
  renderers: { satori: SceneRenderer; browser?: SceneRenderer };
}

/** The raster renderer as a SceneRenderer. */
export function rasterRenderer(deps: { fonts: FontCatalogue; cache: ComposeCache }): SceneRenderer {
  return (scene, screenshot, _signal, backgroundImage) =>
    renderRaster(scene, screenshot, { ...deps, ...(backgroundImage ? { backgroundImage } : {}) });
}

/**
 * The compose step of a styled capture: the scene from the resolved style and the screenshot's
 * real size, drawn by the requested mode. Fields the scene carries but no renderer draws yet are
 * reported as warnings rather than silently dropped.
 */
export function composeStep(style: ResolvedStyle, captureDpr: number, deps: ComposeStepDeps) {
  return async (capture: PageCapture, signal: AbortSignal): Promise<ComposedImage> => {
    const screenshot = await deps.decode(capture.png);
    const scene = buildScene(
      style,
      {
        width: screenshot.width,
        height: screenshot.height,
        dpr: captureDpr,
        url: capture.finalUrl,
        title: capture.title,
        topColor: style.device ? pageTopColor(screenshot, pageTopRows(captureDpr)) : null,
      },
      { measurer: deps.fonts.measurer },
    );
    const backgroundImage = await deps.backgroundImages.load(scene, signal);
    const warnings = scene.unrendered
      .filter((field) => !(field === 'background' && backgroundImage))
      .map((field) => `${field} is accepted but not rendered by this server yet`);
    const renderer = deps.renderers[style.compose_mode] ?? deps.renderers.satori;
    if (renderer !== deps.renderers[style.compose_mode]) {
      warnings.push(`compose_mode ${style.compose_mode} is not available; rendered with satori`);
    }
    const image = await renderer(scene, screenshot, signal, backgroundImage);
    return { image, warnings, resolved: { canvas: sceneGeometry(scene) } };
  };
}
