import type { CaptureResult, RequestFormat } from '@vitrine/contract';
import type { Principal } from '../auth/authenticate.ts';
import type { Credits, Reservation } from '../billing/credits.ts';
import type { PageAuth } from '../capture/page-auth.ts';
import { type Clock, isoNow } from '../clock.ts';
import type { CaptureRow, CapturesRepository } from '../db/captures-repository.ts';
import { AppError } from '../errors/app-error.ts';
import { newId } from '../ids.ts';
import { frameCount } from '../motion/motion-plan.ts';
import { type RenderedVideo, type RenderStages, runRender } from '../render/run-render.ts';
import { cacheKeyOf, pageKeyOf } from './cache-key.ts';
import { type ResolvedCapture, resolvedParamsOf } from './resolved-capture.ts';

/** One capture to run: what (resolved), for whom, and the async job's bookkeeping. */
export interface CaptureRun {
  capture: ResolvedCapture;
  principal: Principal;
  /**
   * Async jobs: the credits reserved at enqueue. Committed on success (refunded on a cache hit,
   * which costs nothing); left reserved on failure, for the job worker to retry with or refund.
   */
  reservation?: Reservation;
  /**
   * Async jobs: the capture id fixed at enqueue. When a capture with this id already exists (an
   * earlier delivery of the job got that far before its worker died), its result is returned,
   * the reservation committed (a no-op if it already was), and nothing is rendered again.
   */
  captureId?: string;
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
  /** Hard deadline of a whole render. */
  deadlineMs: number;
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
 * Extra time a video's render may take beyond a still's deadline, per frame: drawing and
 * encoding a 1920x1080 frame takes about 50 ms on two loaded cores, four times that is allowed.
 */
const MOTION_MS_PER_FRAME = 200;

/**
 * The request was valid and the render pipeline failed: whatever a stage threw that is not
 * already a contract error (a browser that went away during a compose, a library refusing an
 * image, a timeout of a page operation) is a 422 `capture_failed` with reason `render_failed`,
 * never a 500. The cause is kept for the log; the client gets no internals.
 */
export function asRenderFailure(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return new AppError('capture_failed', 'The image could not be rendered', {
    details: { reason: 'render_failed' },
    cause: error,
  });
}

/**
 * Everything around the pipeline that a client pays for: the result cache, the credit
 * reservation (402 before any work), the render under a deadline, the refund on failure, and
 * the record that the CDN and the cache serve from. Sync captures and queued jobs both run here.
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

  async function run(request: CaptureRun, signal?: AbortSignal): Promise<CaptureResult> {
    const { principal } = request;
    if (request.captureId !== undefined) {
      const done = await captures.find(principal.userId, request.captureId);
      if (done) {
        await request.reservation?.commit();
        return resultOf(done, publicUrl, false, request.capture.showResolvedParams);
      }
    }
    const { capture, auth } = await loadAuth(request.capture, principal.userId);
    const cacheKey = cacheKeyOf(capture);
    if (capture.cacheTtlSeconds > 0) {
      const hit = await captures.findReusable(principal.userId, cacheKey, isoNow(clock));
      if (hit) {
        await request.reservation?.refund();
        await (await credits.reserve(principal, `${capture.kind}_cached`, 0)).commit();
        return resultOf(hit, publicUrl, true, capture.showResolvedParams);
      }
    }

    const reservation = request.reservation ?? (await credits.reserve(principal, capture.kind, capture.cost));
    const started = performance.now();
    const deadlineMs =
      deps.deadlineMs + (capture.motion ? frameCount(capture.motion) * MOTION_MS_PER_FRAME : 0);
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
          ai: capture.ai ?? null,
          pageReuse,
          auth,
          motion: capture.motion ?? null,
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
        video: output.video ? JSON.stringify(output.video) : null,
        created_at: now.toISOString(),
        cache_expires_at: new Date(now.getTime() + capture.cacheTtlSeconds * 1000).toISOString(),
      };
      await captures.insert(row);
      await reservation.commit();
      deps.onRendered?.({ kind: capture.kind, timings: output.timings, durationMs });
      return resultOf(row, publicUrl, false, capture.showResolvedParams);
    } catch (error) {
      if (!request.reservation) await reservation.refund();
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

  return { run };
}

export type CaptureRunner = ReturnType<typeof createCaptureRunner>;
