import type { OutputFormat, RequestFormat } from '@vitrine/contract';
import type { AiPlan } from '../ai/ai-plan.ts';
import type { AiChoices } from '../ai/ai-step.ts';
import type { PageAuth } from '../browser/page-auth.ts';
import type { PageCaptureCache } from '../browser/page-capture-cache.ts';
import type { PageCapture, PageCaptureOptions } from '../browser/page-capture-options.ts';
import type {
  AnimatedVideo,
  ComposeSceneInput,
  ComposeStage,
  MotionInput,
  MotionShot,
  ResolvedStyle,
  ShotFrame,
} from '../compose/index.ts';
import type { EncodedImage } from '../encode/encode-image.ts';
import { AppError } from '../errors/app-error.ts';
import type { OutputSettings } from '../image/output-settings.ts';
import type { RawImage } from '../image/raw-image.ts';
import type { MotionPlan } from '../motion/motion-plan.ts';

/** The stages `runRender` chains; app.ts supplies the concrete ones. */
export interface RenderStages {
  /**
   * `afterwards` settles when the render is done with its captures (compose, encode and store
   * after them): the pool prepares its next page then, not beside them.
   */
  capture(
    options: PageCaptureOptions,
    signal: AbortSignal,
    auth?: PageAuth,
    afterwards?: Promise<unknown>,
  ): Promise<PageCapture>;
  /** The compose stage (compose/index.ts): a resolved scene in, pixels out. */
  compose: ComposeStage;
  encode(input: Buffer | RawImage, output: OutputSettings): Promise<EncodedImage>;
  /** Stores the file; `signal` (the capture's deadline) bounds a store that stopped answering. */
  store(key: string, file: RenderedFile, signal?: AbortSignal): Promise<void>;
  blobKey(id: string, format: RequestFormat): string;
  /** The motion stage: a styled video from the capture (absent: motion is not available here). */
  animate?(input: MotionInput, shot: MotionShot, signal: AbortSignal): Promise<AnimatedVideo>;
  /**
   * The AI step (after capture, before compose): its choices from the page's signals and the
   * plan. Absent: a plan is an error (app.ts always supplies it).
   */
  decide?(plan: AiPlan, capture: PageCapture, signal: AbortSignal): Promise<AiChoices>;
  /** Screenshots of pages already loaded (the capture-level cache); absent: always capture. */
  pageCache?: PageCaptureCache;
}

/** The style the AI's choices give, and what the result reports of them. */
export interface AiOutcome {
  style: ResolvedStyle;
  decisions: Record<string, unknown>;
  warnings: string[];
}

/** What a render stores and records: an encoded image, or a video. */
export interface RenderedFile {
  data: Buffer;
  width: number;
  height: number;
  format: RequestFormat;
  contentType: string;
}

/** A video's own figures, recorded with the capture (`video` of the result). */
export interface RenderedVideo {
  durationMs: number;
  fps: number;
  frames: number;
  codec: string;
  /** The poster's format: stored beside the video under the same id. */
  posterFormat: OutputFormat;
}

/** The poster of a video: the first frame, as a JPEG (a video has no transparency either). */
const POSTER_FORMAT: OutputFormat = 'jpg';

/**
 * One render: what to capture, how to style it (null: unstyled), how to encode it; the parts of
 * a capture's plan the pipeline reads, plus the run's own (id, page reuse, login).
 */
export interface RenderTask {
  id: string;
  page: PageCaptureOptions;
  output: OutputSettings;
  style: ResolvedStyle | null;
  /**
   * AI assistance to decide after the capture, or null; `applyChoices` lays the AI step's choices
   * onto the plan (the capture service's resolver) and gives the style that is composed.
   */
  ai?: { plan: AiPlan; applyChoices: (choices: AiChoices) => AiOutcome } | null;
  /**
   * Where the page's screenshot may be reused from and kept for (the capture-level cache), or
   * null when it must be captured anew (`cache_ttl: 0`).
   */
  pageReuse: { key: string; ttlMs: number } | null;
  /** An auth profile's login, loaded at run time (never stored with the job). */
  auth?: PageAuth;
  /** Render a video of the styled look instead of one image (issue 37); needs a style. */
  motion?: MotionPlan | null;
  /**
   * A scene (issue 38): its shots' pages and frames, composed with `style` into one image.
   * Shots with the same `loadKey` share one page load; `reuseKey` is the page's key in the
   * capture-level cache (null: captured anew).
   */
  scene?: RenderScene | null;
}

/** A scene as the pipeline renders it. */
export interface RenderScene {
  layout: ComposeSceneInput['layout'];
  spacing: number;
  alignment: ComposeSceneInput['alignment'];
  shots: { page: PageCaptureOptions; frame: ShotFrame; loadKey: string; reuseKey: string | null }[];
}

export interface RenderOutput {
  image: RenderedFile;
  /** Present when the render is a video. */
  video?: RenderedVideo;
  blobKey: string;
  warnings: string[];
  resolved: Record<string, unknown>;
  /** Milliseconds per phase: the capture stage's own phases, then compose, encode, store. */
  timings: Record<string, number>;
  finalUrl: string;
  /** How `element` was resolved, for `element_resolved` (absent without `element`). */
  element?: PageCapture['element'];
  /** The style the AI step decided (shown in resolved_params), when there was one. */
  style?: ResolvedStyle;
  /** `ai_decisions` of the result: empty without AI assistance. */
  aiDecisions: Record<string, unknown>;
  /** The page's metadata, when the page options asked for it. */
  metadata?: PageCapture['metadata'];
}

async function timed<T>(timings: Record<string, number>, phase: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await work();
  } finally {
    timings[phase] = Math.round((performance.now() - start) * 10) / 10;
  }
}

/**
 * capture -> compose -> encode -> store: the one pipeline behind sync captures, async jobs and
 * unstyled captures. The image is encoded exactly once, at the end.
 */
export async function runRender(
  job: RenderTask,
  stages: RenderStages,
  signal: AbortSignal,
): Promise<RenderOutput> {
  const done = Promise.withResolvers<void>();
  const captureStages: RenderStages = {
    ...stages,
    capture: (options, captureSignal, auth) => stages.capture(options, captureSignal, auth, done.promise),
  };
  try {
    return await renderOnce(job, captureStages, signal);
  } finally {
    done.resolve();
  }
}

async function renderOnce(job: RenderTask, stages: RenderStages, signal: AbortSignal): Promise<RenderOutput> {
  const timings: Record<string, number> = {};
  if (job.scene && job.style) return sceneRender(job, job.scene, job.style, stages, signal, timings);
  const reused = job.pageReuse ? stages.pageCache?.get(job.pageReuse.key) : undefined;
  let capture: PageCapture;
  if (reused) {
    // Another look of a page already loaded: no navigation, the kept screenshot as is.
    capture = reused;
    timings.page_reused = 0;
  } else {
    capture = await timed(timings, 'capture_total', () => stages.capture(job.page, signal, job.auth));
    Object.assign(timings, capture.timings);
    if (job.pageReuse) stages.pageCache?.set(job.pageReuse.key, capture, job.pageReuse.ttlMs);
  }
  signal.throwIfAborted();
  let decided: AiOutcome | undefined;
  if (job.ai && job.style) {
    const { plan, applyChoices } = job.ai;
    const decide = stages.decide;
    if (!decide) throw new Error('AI assistance was asked for but no AI step is configured');
    decided = await timed(timings, 'ai', async () => applyChoices(await decide(plan, capture, signal)));
  }
  const style = decided?.style ?? job.style;
  signal.throwIfAborted();
  if (job.motion && style)
    return animateRender(job, job.motion, style, capture, decided, stages, signal, timings);
  const composed = style
    ? await timed(timings, 'compose', () =>
        stages.compose(
          {
            style,
            screenshot: {
              png: capture.png,
              dpr: job.page.deviceScaleFactor,
              url: capture.finalUrl,
              title: capture.title,
            },
          },
          signal,
        ),
      )
    : undefined;
  signal.throwIfAborted();
  const image = await timed(timings, 'encode', () =>
    stages.encode(composed?.image ?? capture.png, job.output),
  );
  const blobKey = stages.blobKey(job.id, image.format);
  await timed(timings, 'store', () => stages.store(blobKey, image, signal));
  return {
    image,
    blobKey,
    warnings: [...capture.warnings, ...(decided?.warnings ?? []), ...(composed?.warnings ?? [])],
    resolved: composed?.resolved ?? {},
    timings,
    finalUrl: capture.finalUrl,
    ...(capture.element ? { element: capture.element } : {}),
    ...(decided ? { style: decided.style } : {}),
    aiDecisions: decided?.decisions ?? {},
    ...(capture.metadata ? { metadata: capture.metadata } : {}),
  };
}

/** The video branch of `runRender`: the motion stage, then the video and its poster stored. */
async function animateRender(
  job: RenderTask,
  motion: MotionPlan,
  style: ResolvedStyle,
  capture: PageCapture,
  decided: AiOutcome | undefined,
  stages: RenderStages,
  signal: AbortSignal,
  timings: Record<string, number>,
): Promise<RenderOutput> {
  const animate = stages.animate;
  if (!animate) throw new Error('A video was asked for but no motion stage is configured');
  const animated = await timed(timings, 'animate', () =>
    animate(
      { style, captureDpr: job.page.deviceScaleFactor, viewport: job.page.viewport, motion },
      // Plain data: the motion stage does not know the browser stage's types.
      {
        png: capture.png,
        finalUrl: capture.finalUrl,
        title: capture.title,
        ...(capture.scroll ? { scroll: capture.scroll } : {}),
      },
      signal,
    ),
  );
  Object.assign(timings, animated.timings);
  signal.throwIfAborted();
  const poster = await timed(timings, 'encode', () =>
    stages.encode(animated.poster, {
      ...job.output,
      format: POSTER_FORMAT,
      width: null,
      height: null,
    }),
  );
  const { video } = animated;
  const file: RenderedFile = {
    data: video.data,
    width: video.width,
    height: video.height,
    format: motion.format,
    contentType: video.contentType,
  };
  const blobKey = stages.blobKey(job.id, motion.format);
  await timed(timings, 'store', async () => {
    // The poster first: a stored video always has its poster.
    await stages.store(stages.blobKey(job.id, POSTER_FORMAT), poster, signal);
    await stages.store(blobKey, file, signal);
  });
  return {
    image: file,
    video: {
      durationMs: Math.round((animated.frames / motion.fps) * 1000),
      fps: motion.fps,
      frames: animated.frames,
      codec: video.codec,
      posterFormat: POSTER_FORMAT,
    },
    blobKey,
    warnings: [...capture.warnings, ...(decided?.warnings ?? []), ...animated.warnings],
    resolved: animated.resolved,
    timings,
    finalUrl: capture.finalUrl,
    ...(decided ? { style: decided.style } : {}),
    aiDecisions: decided?.decisions ?? {},
    ...(capture.metadata ? { metadata: capture.metadata } : {}),
  };
}

/**
 * A page of a scene: from the capture-level cache, or loaded now (and kept). Its failure fails
 * the capture, naming the shot (the first that shows the page) and why.
 */
async function shotPage(
  job: RenderTask,
  shot: RenderScene['shots'][number],
  index: number,
  stages: RenderStages,
  signal: AbortSignal,
  timings: Record<string, number>,
): Promise<PageCapture> {
  const reused = shot.reuseKey ? stages.pageCache?.get(shot.reuseKey) : undefined;
  if (reused) {
    timings.page_reused = 0;
    return reused;
  }
  try {
    const started = performance.now();
    const capture = await stages.capture(shot.page, signal, job.auth);
    // Phases of several loads add up (they ran side by side, so the sum can exceed the total).
    for (const [phase, ms] of Object.entries(capture.timings)) timings[phase] = (timings[phase] ?? 0) + ms;
    timings.capture_total = Math.max(
      timings.capture_total ?? 0,
      Math.round((performance.now() - started) * 10) / 10,
    );
    if (shot.reuseKey && job.pageReuse) stages.pageCache?.set(shot.reuseKey, capture, job.pageReuse.ttlMs);
    return capture;
  } catch (error) {
    throw shotFailure(error, index, shot.page.url);
  }
}

/** A shot's page failing, as the capture's error: which shot, which page, and why. */
function shotFailure(error: unknown, index: number, url: string): AppError {
  const why = error instanceof AppError ? error.message : 'The page could not be captured';
  const message = `shots[${index}] (${url}): ${why}`;
  if (error instanceof AppError) {
    return new AppError(error.code, message, {
      details: { ...(error.details ?? { reason: 'render_failed' }), shot: index },
      ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}),
      cause: error,
    });
  }
  return new AppError('capture_failed', message, {
    details: { reason: 'render_failed', shot: index },
    cause: error,
  });
}

/**
 * A scene: every distinct page loaded once (shots with equal page options share a load, side by
 * side on the browser pool), then one compose of all shots, one encode, one store.
 */
async function sceneRender(
  job: RenderTask,
  scene: RenderScene,
  style: ResolvedStyle,
  stages: RenderStages,
  signal: AbortSignal,
  timings: Record<string, number>,
): Promise<RenderOutput> {
  const loads = new Map<string, Promise<PageCapture>>();
  scene.shots.forEach((shot, index) => {
    if (!loads.has(shot.loadKey))
      loads.set(shot.loadKey, shotPage(job, shot, index, stages, signal, timings));
  });
  // Every load settles before the first failure is reported: none is left running unobserved.
  const settled = await Promise.allSettled(loads.values());
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  const captures = await Promise.all(
    scene.shots.map((shot) => loads.get(shot.loadKey) as Promise<PageCapture>),
  );
  signal.throwIfAborted();
  const screenshots = captures.map((capture, index) => ({
    png: capture.png,
    dpr: (scene.shots[index] as RenderScene['shots'][number]).page.deviceScaleFactor,
    url: capture.finalUrl,
    title: capture.title,
  }));
  const first = captures[0] as PageCapture;
  const composed = await timed(timings, 'compose', () =>
    stages.compose(
      {
        style,
        screenshot: screenshots[0] as ComposeSceneInput['shots'][number]['screenshot'],
        scene: {
          layout: scene.layout,
          spacing: scene.spacing,
          alignment: scene.alignment,
          shots: scene.shots.map((shot, index) => ({
            frame: shot.frame,
            screenshot: screenshots[index] as ComposeSceneInput['shots'][number]['screenshot'],
          })),
        },
      },
      signal,
    ),
  );
  signal.throwIfAborted();
  const image = await timed(timings, 'encode', () => stages.encode(composed.image, job.output));
  const blobKey = stages.blobKey(job.id, image.format);
  await timed(timings, 'store', () => stages.store(blobKey, image, signal));
  const warnings = captures.flatMap((capture, index) =>
    capture.warnings.map((w) => (captures.length > 1 ? `shots[${index}]: ${w}` : w)),
  );
  return {
    image,
    blobKey,
    warnings: [...new Set([...warnings, ...composed.warnings])],
    resolved: composed.resolved,
    timings,
    finalUrl: first.finalUrl,
    ...(first.element ? { element: first.element } : {}),
    aiDecisions: {},
    ...(first.metadata ? { metadata: first.metadata } : {}),
  };
}
