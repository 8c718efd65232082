import type { CaptureResult, OutputFormat } from '@vitrine/contract';
import type { Principal } from '../auth/authenticate.ts';
import type { Credits, Reservation } from '../billing/credits.ts';
import { type Clock, isoNow } from '../clock.ts';
import type { CaptureRow, CapturesRepository } from '../db/captures-repository.ts';
import { AppError } from '../errors/app-error.ts';
import { newId } from '../ids.ts';
import { cacheKeyOf } from './cache-key.ts';
import { type RenderJob, type RenderStages, runRender } from './run-render.ts';

export interface RenderRequest {
  kind: 'raw' | 'capture';
  principal: Principal;
  projectId: string | null;
  /** Effective parameters: hashed for the cache, returned as `resolved_params` when asked. */
  resolvedParams: Record<string, unknown>;
  cacheTtlSeconds: number;
  showResolvedParams: boolean;
  cost: number;
  /** Builds the job once an id is assigned. */
  job: Omit<RenderJob, 'id'>;
  /** Extra cache scope (e.g. auth profile id and version). */
  cacheScope?: string;
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

export interface RenderServiceDeps {
  captures: CapturesRepository;
  credits: Credits;
  stages: RenderStages;
  clock: Clock;
  publicUrl: string;
  /** Hard deadline of a whole render. */
  deadlineMs: number;
  /** Called after every fresh render with its phase timings (logs and metrics). */
  onRendered?: (info: { kind: string; timings: Record<string, number>; durationMs: number }) => void;
}

function resultOf(row: CaptureRow, publicUrl: string, cached: boolean, showResolved: boolean): CaptureResult {
  return {
    id: row.id,
    url: `${publicUrl}/cdn/r/${row.id}.${row.format}`,
    width: row.width,
    height: row.height,
    format: row.format as OutputFormat,
    duration_ms: cached ? 0 : row.duration_ms,
    credits_used: cached ? 0 : row.credits_used,
    cached,
    warnings: JSON.parse(row.warnings) as string[],
    created_at: row.created_at,
    resolved_params: showResolved ? (JSON.parse(row.resolved_params) as Record<string, unknown>) : {},
    ai_decisions: JSON.parse(row.ai_decisions) as Record<string, unknown>,
    element_resolved: JSON.parse(row.element_resolved) as Record<string, unknown>,
  };
}

/**
 * Everything around the pipeline that a client pays for: the result cache, the credit
 * reservation (402 before any work), the render under a deadline, the refund on failure, and
 * the record that the CDN and the cache serve from.
 */
export function createRenderService(deps: RenderServiceDeps) {
  const { captures, credits, stages, clock, publicUrl } = deps;

  async function render(request: RenderRequest, signal?: AbortSignal): Promise<CaptureResult> {
    if (request.captureId !== undefined) {
      const done = await captures.find(request.principal.userId, request.captureId);
      if (done) {
        await request.reservation?.commit();
        return resultOf(done, publicUrl, false, request.showResolvedParams);
      }
    }
    const cacheKey = cacheKeyOf(request.kind, request.resolvedParams, request.cacheScope);
    if (request.cacheTtlSeconds > 0) {
      const hit = await captures.findReusable(request.principal.userId, cacheKey, isoNow(clock));
      if (hit) {
        await request.reservation?.refund();
        await (await credits.reserve(request.principal, `${request.kind}_cached`, 0)).commit();
        return resultOf(hit, publicUrl, true, request.showResolvedParams);
      }
    }

    const reservation =
      request.reservation ?? (await credits.reserve(request.principal, request.kind, request.cost));
    const started = performance.now();
    const deadline = AbortSignal.timeout(deps.deadlineMs);
    const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
    try {
      const id = request.captureId ?? newId('capture');
      const output = await runRender({ ...request.job, id }, stages, combined);
      const durationMs = Math.round(performance.now() - started);
      const now = clock();
      const row: CaptureRow = {
        id,
        user_id: request.principal.userId,
        api_key_id: request.principal.keyId,
        project_id: request.projectId,
        kind: request.kind,
        cache_key: cacheKey,
        blob_key: output.blobKey,
        format: output.image.format,
        width: output.image.width,
        height: output.image.height,
        bytes: output.image.data.length,
        duration_ms: durationMs,
        credits_used: reservation.amount,
        warnings: JSON.stringify(output.warnings),
        resolved_params: JSON.stringify({ ...request.resolvedParams, ...output.resolved }),
        ai_decisions: '{}',
        element_resolved: '{}',
        created_at: now.toISOString(),
        cache_expires_at: new Date(now.getTime() + request.cacheTtlSeconds * 1000).toISOString(),
      };
      await captures.insert(row);
      await reservation.commit();
      deps.onRendered?.({ kind: request.kind, timings: output.timings, durationMs });
      return resultOf(row, publicUrl, false, request.showResolvedParams);
    } catch (error) {
      if (!request.reservation) await reservation.refund();
      if (deadline.aborted && !(error instanceof AppError && error.code !== 'capture_failed')) {
        throw new AppError(
          'capture_failed',
          `The capture did not finish within ${deps.deadlineMs / 1000} s`,
          {
            details: { reason: 'navigation_timeout' },
            cause: error,
          },
        );
      }
      throw error;
    }
  }

  return { render };
}

export type RenderService = ReturnType<typeof createRenderService>;
