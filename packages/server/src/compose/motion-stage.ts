/**
 * The motion stage (issue 37): one capture in, a video out. Every frame is the same scene model
 * drawn by the raster renderer (frame, background, shadow, camera, depth blur, texts), with the
 * frame's screen content (a scroll) or camera (a reveal, a float, a drift) of that moment; each
 * frame goes into ffmpeg as soon as it is drawn, so no more than one frame is held.
 */

import type { ScrollCapture } from '../image/page-scroll.ts';
import { isOpaque, type RawImage } from '../image/raw-image.ts';
import { cameraAt, type MotionCamera, scrollAt } from '../motion/motion-camera.ts';
import { frameCount, type MotionPlan, videoSideLimit } from '../motion/motion-plan.ts';
import { type DecodedLayer, prepareScrollFrames, type ScrollFrames } from '../motion/scroll-frames.ts';
import type { EncodedVideo, VideoSettings, VideoSink } from '../motion/video-encoder.ts';
import type { BackgroundImageLoader, SceneRenderer } from './compose-stage.ts';
import { pageTopColor, pageTopRows } from './page-top-color.ts';
import { buildScene } from './scene.ts';
import type { Scene } from './scene-types.ts';
import type { ResolvedStyle } from './style-types.ts';
import type { FontCatalogue } from './text/font-catalogue.ts';

export interface MotionStageDeps {
  fonts: () => Promise<FontCatalogue>;
  decode(encoded: Buffer): Promise<RawImage>;
  loadBackground: BackgroundImageLoader;
  /** The raster renderer: a video's frames are always drawn without a browser. */
  renderer: SceneRenderer;
  /** Opens ffmpeg for one clip (motion/video-encoder.ts). */
  openSink(settings: VideoSettings, signal: AbortSignal): Promise<VideoSink>;
}

/**
 * The capture a video is drawn from, as plain data: the browser stage's screenshot (at the top,
 * the full page for a scroll) and, for a scroll, its scroll data (image/page-scroll.ts).
 */
export interface MotionShot {
  png: Buffer;
  finalUrl: string;
  title: string;
  scroll?: ScrollCapture;
}

export interface MotionInput {
  style: ResolvedStyle;
  captureDpr: number;
  /** The viewport of the capture (CSS px): a scroll shows one viewport of the page at a time. */
  viewport: { width: number; height: number };
  motion: MotionPlan;
}

export interface AnimatedVideo {
  video: EncodedVideo;
  /** The first frame: the still of the start position, stored beside the video as its poster. */
  poster: RawImage;
  frames: number;
  warnings: string[];
  resolved: Record<string, unknown>;
  /** Milliseconds drawing frames, waiting for ffmpeg to take them, and for it to finish. */
  timings: { animate_compose: number; animate_encode_wait: number; animate_finish: number };
}

const cameraOf = (s: ResolvedStyle): MotionCamera => ({
  tilt_x: s.tilt_x,
  tilt_y: s.tilt_y,
  roll: s.roll,
  zoom: s.zoom,
  offset_x: s.offset_x,
  offset_y: s.offset_y,
});

/** A viewport-sized piece of a decoded capture (the still of a scroll's start). */
function viewportOf(capture: RawImage, width: number, height: number): RawImage {
  const h = Math.min(height, capture.height);
  const w = Math.min(width, capture.width);
  if (w === capture.width && h === capture.height) return capture;
  const data = Buffer.alloc(w * h * 4);
  for (let row = 0; row < h; row++)
    capture.data.copy(data, row * w * 4, row * capture.width * 4, row * capture.width * 4 + w * 4);
  return { data, width: w, height: h, channels: 4 };
}

/** The scroll's frames, prepared once from the capture (or null for other motions). */
async function scrollFramesOf(
  capture: MotionShot,
  full: RawImage,
  scene: Scene,
  dpr: number,
  decode: MotionStageDeps['decode'],
): Promise<ScrollFrames | null> {
  if (!capture.scroll || capture.scroll.endY <= 0) return null;
  const page = capture.scroll.unpinnedPng ? await decode(capture.scroll.unpinnedPng) : full;
  const layers: DecodedLayer[] = [];
  for (const layer of capture.scroll.layers) {
    layers.push({
      image: await decode(layer.png),
      rect: layer.rect,
      position: layer.position,
      stickTop: layer.stickTop,
      shownFrom: layer.shownFrom,
      shownUntil: layer.shownUntil,
    });
  }
  const { crop, rect } = scene.screenshot;
  return prepareScrollFrames(page, layers, dpr, { crop, rect: { width: rect.width, height: rect.height } });
}

export function createMotionStage(deps: MotionStageDeps) {
  return async (input: MotionInput, capture: MotionShot, signal: AbortSignal): Promise<AnimatedVideo> => {
    const { style, captureDpr, motion } = input;
    const [full, fonts] = await Promise.all([deps.decode(capture.png), deps.fonts()]);
    const top = viewportOf(
      full,
      Math.round(input.viewport.width * captureDpr),
      Math.round(input.viewport.height * captureDpr),
    );
    // Scanned once: every frame that shows it then skips the renderer's own check.
    const start: RawImage = { ...top, opaque: isOpaque(top.data) };
    const info = {
      width: start.width,
      height: start.height,
      dpr: captureDpr,
      url: capture.finalUrl,
      title: capture.title,
      topColor: style.device ? pageTopColor(start, pageTopRows(captureDpr)) : null,
    };
    const base = cameraOf(style);
    // A moving camera changes the natural canvas (a tilted frame is laid out in its projected
    // box): every frame is laid out on the canvas of the look as requested, the clip's last
    // state, so the clip keeps one size.
    const still = buildScene(style, info, { measurer: fonts.measurer });
    const steady = motion.type === 'scroll' && !motion.drift;
    const pinned: ResolvedStyle = steady
      ? style
      : {
          ...style,
          output: {
            ...style.output,
            width: still.canvas.width / still.canvas.dpr,
            height: still.canvas.height / still.canvas.dpr,
          },
        };
    const sceneAt = (camera: MotionCamera) =>
      buildScene({ ...pinned, ...camera }, info, { measurer: fonts.measurer });
    const firstScene = steady ? still : sceneAt(cameraAt(motion, base, 0));
    const backgroundImage = await deps.loadBackground(firstScene, signal);
    const scroll =
      motion.type === 'scroll'
        ? await scrollFramesOf(capture, full, firstScene, captureDpr, deps.decode)
        : null;
    const warnings = firstScene.unrendered
      .filter((field) => !(field === 'background' && backgroundImage))
      .map((field) => `${field} is accepted but not rendered by this server yet`);
    if (style.compose_mode === 'browser') warnings.push('motion frames are drawn by compose_mode satori');
    if (motion.type === 'scroll' && !scroll)
      warnings.push('The page is no taller than the viewport: nothing to scroll');

    const { width, height } = firstScene.canvas;
    const frames = frameCount(motion);
    const sink = await deps.openSink(
      {
        format: motion.format,
        width,
        height,
        fps: motion.fps,
        quality: motion.quality,
        loop: motion.type === 'float',
        maxSide: videoSideLimit(motion.format),
      },
      signal,
    );
    try {
      let poster: RawImage | undefined;
      const timings = { animate_compose: 0, animate_encode_wait: 0, animate_finish: 0 };
      const since = (start: number) => performance.now() - start;
      for (let index = 0; index < frames; index++) {
        const drawing = performance.now();
        signal.throwIfAborted();
        const scene = index === 0 || steady ? firstScene : sceneAt(cameraAt(motion, base, index));
        const y = scroll ? scrollAt(motion, capture.scroll?.endY ?? 0, index) : 0;
        let image: RawImage;
        if (scroll && y > 0) {
          // The screen is already fitted to its rect: the scene takes it whole.
          const fitted = scroll.frameAt(y);
          const screen = { x: 0, y: 0, width: fitted.width, height: fitted.height };
          image = await deps.renderer(
            { ...scene, screenshot: { ...scene.screenshot, crop: screen } },
            fitted,
            signal,
            backgroundImage,
          );
        } else {
          image = await deps.renderer(scene, start, signal, backgroundImage);
        }
        if (image.width !== width || image.height !== height) {
          throw new Error(`frame ${index} is ${image.width}x${image.height}, the clip ${width}x${height}`);
        }
        if (index === 0) poster = { ...image, data: Buffer.from(image.data) };
        timings.animate_compose += since(drawing);
        const writing = performance.now();
        await sink.write(image.data);
        timings.animate_encode_wait += since(writing);
      }
      const finishing = performance.now();
      const video = await sink.finish();
      timings.animate_finish = since(finishing);
      for (const key of Object.keys(timings) as (keyof typeof timings)[])
        timings[key] = Math.round(timings[key] * 10) / 10;
      return {
        video,
        poster: poster as RawImage,
        frames,
        warnings,
        timings,
        resolved: {
          canvas: { width, height },
          motion: { ...motion, frames, ...(scroll ? { scroll_end_y: capture.scroll?.endY } : {}) },
        },
      };
    } catch (error) {
      await sink.abort();
      throw error;
    }
  };
}

export type MotionStage = ReturnType<typeof createMotionStage>;
