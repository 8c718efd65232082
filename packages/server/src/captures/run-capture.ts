import type { CaptureResult, PageMetadata, RequestFormat } from '@vitrine/contract';
import type { Principal } from '../auth/authenticate.ts';
import type { Credits, Reservation } from '../billing/credits.ts';
import type { PageAuth } from '../browser/page-auth.ts';
import { type Clock, isoNow } from '../clock.ts';
import { ComposeError } from '../compose/index.ts';
import type { CaptureRow, CapturesRepository } from '../db/captures-repository.ts';
import { AppError, invalidParam } from '../errors/app-error.ts';
import { newId } from '../ids.ts';
import { frameCount, type MotionPlan } from '../motion/motion-plan.ts';
import { type RenderedVideo, type RenderStages, type RenderTask, runRender } from '../render/run-render.ts';
import { cacheKeyOf, pageKeyOf } from './cache-key.ts';
import { applyAiChoices } from './resolve/resolve-capture.ts';
import { shotLoadKey } from './resolve/resolve-scene.ts';
import { type ResolvedCapture, resolvedParamsOf } from './resolved-capture.ts';

/** One capture to run: what (resolved), for whom, and the async job's bookkeeping. */
export interface CaptureRun {
  capture: ResolvedCapture;
  principal: Principal;
  /**
   * Async jobs: the credits reserved at enqueue (by `reserve`). Committed on success (refunded on
   * a cache hit, which costs nothing); left reserved on failure, for the job to retry with, or
   * refunded by `refundQueued` when the job worker reports that it failed for good.
   */
  reservation?: ReservationRef;
  /**
   * Async jobs: the capture id fixed at enqueue. When a capture with this id already exists (an
   * earlier delivery of the job got that far before its worker died), its result is returned,
   * the reservation committed (a no-op if it already was), and nothing is rendered again.
   */
  captureId?: string;
}

/** A reservation as a queued job keeps it: plain data, settled by the runner. */
export interface ReservationRef {
  id: string;
  amount: number;
}

/** A capture run: its result, and the encoded image when it was rendered now (not cached). */
export interface CaptureRunOutcome {
  result: CaptureResult;
  /** The bytes just stored, for a caller that answers with the image; absent for a cached result. */
  image?: { data: Buffer; contentType: string };
}

/** Where a run gets an auth profile's login (authprofiles/auth-profile-service.ts). */
export interface AuthProfileLoader {
  /** The current state by id; a profile deleted meanwhile is a 404 (final for a job). */
  loadForRun(
    userId: string,
    ref: { id: string; version: number },
  ): Promise<{ version: number; state: PageAuth }>;
  markUsed(userId: string, id: string): Promise<void>;
}

export interface CaptureRunnerDeps {
  captures: CapturesRepository;
  credits: Credits;
  stages: RenderStages;
  clock: Clock;
  publicUrl: string;
  /** Hard deadline of a whole render of a still (`VITRINE_CAPTURE_TIMEOUT_MS`). */
  deadlineMs: number;
  /** A video's render gets this much more per frame (`VITRINE_VIDEO_FRAME_MS`, `renderDeadlineMs`). */
  videoFrameMs: number;
  /** Called after every fresh render with its phase timings (logs and metrics). */
  onRendered?: (info: { kind: string; timings: Record<string, number>; durationMs: number }) => void;
  /** Absent: a capture with an auth profile fails (the service refuses them before). */
  authProfiles?: AuthProfileLoader;
}

function resultOf(row: CaptureRow, publicUrl: string, cached: boolean, showResolved: boolean): CaptureResult {
  return {
    id: row.id,
    url: `${publicUrl}/cdn/r/${row.id}.${row.format}`,
    width: row.width,
    height: row.height,
    format: row.format as RequestFormat,
    duration_ms: cached ? 0 : row.duration_ms,
    credits_used: cached ? 0 : row.credits_used,
    cached,
    warnings: JSON.parse(row.warnings) as string[],
    created_at: row.created_at,
    resolved_params: showResolved ? (JSON.parse(row.resolved_params) as Record<string, unknown>) : {},
    ai_decisions: JSON.parse(row.ai_decisions) as Record<string, unknown>,
    element_resolved: JSON.parse(row.element_resolved) as Record<string, unknown>,
    ...(row.metadata ? { metadata: JSON.parse(row.metadata) as PageMetadata } : {}),
    ...(row.video ? { video: videoResultOf(row.id, JSON.parse(row.video) as RenderedVideo, publicUrl) } : {}),
  };
}

/** `video` of a result: the recorded figures and the poster stored under the same id. */
function videoResultOf(
  id: string,
  video: RenderedVideo,
  publicUrl: string,
): NonNullable<CaptureResult['video']> {
  return {
    duration_ms: video.durationMs,
    fps: video.fps,
    frames: video.frames,
    codec: video.codec,
    poster_url: `${publicUrl}/cdn/r/${id}.${video.posterFormat}`,
  };
}

/**
 * The deadline of one render: the capture deadline (`VITRINE_CAPTURE_TIMEOUT_MS`: load, settle,
 * shoot, compose a still), and for a video `frameMs` (`VITRINE_VIDEO_FRAME_MS`) more per frame
 * of the clip, for drawing and encoding it (docs/decisions.md, "Motion").
 */
export function renderDeadlineMs(
  captureDeadlineMs: number,
  motion: Pick<MotionPlan, 'duration' | 'fps'> | null | undefined,
  frameMs: number,
): number {
  return captureDeadlineMs + (motion ? frameCount(motion) * frameMs : 0);
}

/**
 * The request was valid and the render pipeline failed: a look that does not fit the output is
 * the contract's error for it (compose raises its own ComposeError); whatever a stage threw that is not
 * already a contract error (a browser that went away during a compose, a library refusing an
 * image, a timeout of a page operation) is a 422 `capture_failed` with reason `render_failed`,
 * never a 500. The cause is kept for the log; the client gets no internals.
 */
export function asRenderFailure(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ComposeError) {
    // The look does not fit the output: a 400 naming the field to change; over the size
    // limits: a 422 `too_large` with the limits.
    return error.reason === 'no_room'
      ? invalidParam('padding', error.message)
      : new AppError('capture_failed', error.message, {
          details: { reason: 'too_large', ...error.details },
        });
  }
  return new AppError('capture_failed', 'The image could not be rendered', {
    details: { reason: 'render_failed' },
    cause: error,
  });
}

/**
 * The AI part of a render: the plan, and how its choices are laid onto the plan (the resolver's
 * overlay rules: the only place a style is resolved after the capture was accepted).
 */
function aiOf(capture: ResolvedCapture): RenderTask['ai'] {
  const { ai, style, output } = capture;
  if (!ai || !style) return null;
  return { plan: ai, applyChoices: (choices) => applyAiChoices({ style, output, ai }, choices) };
}

/**
 * Everything around the pipeline that a client pays for: the result cache, the credits, the
 * render under a deadline, and the record that the CDN and the cache serve from. Sync captures
 * and queued jobs both run here. The runner is the one owner of a capture's credits: it reserves
 * them when the capture is accepted (`reserve` for a queued one, before it is queued; in `run`
 * for a sync one, after the result cache, as a cached result costs nothing), and it alone
 * commits or refunds them.
 */
export function createCaptureRunner(deps: CaptureRunnerDeps) {
  const { captures, credits, stages, clock, publicUrl } = deps;

  /**
   * The login of a capture with an auth profile, fetched by id now (a queued job holds only the
   * reference). When the profile changed since the capture was accepted, its current version is
   * what renders, and what the cache keys name.
   */
  async function loadAuth(
    capture: ResolvedCapture,
    userId: string,
  ): Promise<{ capture: ResolvedCapture; auth: PageAuth | undefined }> {
    const ref = capture.authProfile;
    if (!ref) return { capture, auth: undefined };
    if (!deps.authProfiles) throw new AppError('internal_error', 'Auth profiles are not configured');
    const loaded = await deps.authProfiles.loadForRun(userId, ref);
    await deps.authProfiles.markUsed(userId, ref.id);
    return {
      capture:
        loaded.version === ref.version
          ? capture
          : { ...capture, authProfile: { ...ref, version: loaded.version } },
      auth: loaded.state,
    };
  }

  /** Reserves a capture's credits when it is accepted: a 402 before any work. */
  function reserve(principal: Principal, capture: ResolvedCapture): Promise<Reservation> {
    return credits.reserve(principal, capture.kind, capture.cost);
  }

  /** Gives back the credits of a queued capture that will not run (failed for good, or never queued). */
  async function refundQueued(reservation: ReservationRef): Promise<void> {
    await credits.resume(reservation.id, reservation.amount).refund();
  }

  async function run(request: CaptureRun, signal?: AbortSignal): Promise<CaptureRunOutcome> {
    const { principal } = request;
    const reserved = request.reservation
      ? credits.resume(request.reservation.id, request.reservation.amount)
      : undefined;
    if (request.captureId !== undefined) {
      const done = await captures.find(principal.userId, request.captureId);
      if (done) {
        await reserved?.commit();
        return { result: resultOf(done, publicUrl, false, request.capture.showResolvedParams) };
      }
    }
    const { capture, auth } = await loadAuth(request.capture, principal.userId);
    const cacheKey = cacheKeyOf(capture);
    if (capture.cacheTtlSeconds > 0) {
      const hit = await captures.findReusable(principal.userId, cacheKey, isoNow(clock));
      if (hit) {
        await reserved?.refund();
        await (await credits.reserve(principal, `${capture.kind}_cached`, 0)).commit();
        return { result: resultOf(hit, publicUrl, true, capture.showResolvedParams) };
      }
    }

    const reservation = reserved ?? (await reserve(principal, capture));
    const started = performance.now();
    const deadlineMs = renderDeadlineMs(deps.deadlineMs, capture.motion, deps.videoFrameMs);
    const deadline = AbortSignal.timeout(deadlineMs);
    const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
    try {
      const id = request.captureId ?? newId('capture');
      const pageReuse =
        capture.cacheTtlSeconds > 0
          ? { key: pageKeyOf(capture, principal.userId), ttlMs: capture.cacheTtlSeconds * 1000 }
          : null;
      const output = await runRender(
        {
          id,
          page: capture.page,
          output: capture.output,
          style: capture.style,
          ai: aiOf(capture),
          pageReuse,
          auth,
          motion: capture.motion ?? null,
          scene: capture.scene
            ? {
                layout: capture.scene.layout,
                spacing: capture.scene.spacing,
                alignment: capture.scene.alignment,
                shots: capture.scene.shots.map((shot) => ({
                  page: shot.page,
                  frame: shot.frame,
                  loadKey: shotLoadKey(shot.page),
                  reuseKey: pageReuse ? pageKeyOf({ ...capture, page: shot.page }, principal.userId) : null,
                })),
              }
            : null,
        },
        stages,
        combined,
      ).catch((error: unknown) => {
        throw asRenderFailure(error);
      });
      const durationMs = Math.round(performance.now() - started);
      const now = clock();
      const row: CaptureRow = {
        id,
        user_id: principal.userId,
        api_key_id: principal.keyId,
        project_id: capture.projectId,
        kind: capture.kind,
        cache_key: cacheKey,
        blob_key: output.blobKey,
        format: output.image.format,
        width: output.image.width,
        height: output.image.height,
        bytes: output.image.data.length,
        duration_ms: durationMs,
        credits_used: reservation.amount,
        warnings: JSON.stringify([...capture.warnings, ...output.warnings]),
        resolved_params: JSON.stringify({
          ...resolvedParamsOf(capture),
          ...(output.style ?? {}),
          ...output.resolved,
        }),
        ai_decisions: JSON.stringify(output.aiDecisions),
        element_resolved: JSON.stringify(output.element ?? {}),
        metadata: output.metadata ? JSON.stringify(output.metadata) : null,
        video: output.video ? JSON.stringify(output.video) : null,
        created_at: now.toISOString(),
        cache_expires_at: new Date(now.getTime() + capture.cacheTtlSeconds * 1000).toISOString(),
      };
      await captures.insert(row);
      await reservation.commit();
      deps.onRendered?.({ kind: capture.kind, timings: output.timings, durationMs });
      return {
        result: resultOf(row, publicUrl, false, capture.showResolvedParams),
        image: { data: output.image.data, contentType: output.image.contentType },
      };
    } catch (error) {
      // A sync capture's credits go back now; a job's stay reserved for its next attempt.
      if (!reserved) await reservation.refund();
      if (deadline.aborted && !(error instanceof AppError && error.code !== 'capture_failed')) {
        throw new AppError(
          'capture_failed',
          `The capture did not finish within ${Math.round(deadlineMs / 1000)} s`,
          {
            details: { reason: 'navigation_timeout' },
            cause: error,
          },
        );
      }
      throw error;
    }
  }

  return { reserve, run, refundQueued };
}

export type CaptureRunner = ReturnType<typeof createCaptureRunner>;
