import type { CaptureResult, WebhookPayload } from '@vitrine/contract';
import type { Principal } from '../auth/authenticate.ts';
import type { QueuedCapture } from '../captures/capture-service.ts';
import { parseResolvedCapture } from '../captures/resolved-capture.ts';
import type { ReservationRef } from '../captures/run-capture.ts';
import { type Clock, isoNow } from '../clock.ts';
import type { JobOutcome, JobRow, JobsRepository, WebhookDeliveryRow } from '../db/jobs-repository.ts';
import { AppError } from '../errors/app-error.ts';
import type { JobHandler } from '../queue/job-consumer.ts';
import type { JobLease, JobQueue } from '../queue/job-queue.ts';
import type { CaptureJobPayload } from './job-service.ts';
import type { WebhookJobPayload } from './webhook-delivery.ts';

/** Renders a queued capture: the capture service's `runQueued`, the path sync captures take too. */
export type RunQueuedCapture = (input: QueuedCapture, signal: AbortSignal) => Promise<CaptureResult>;

/** Reports a queued capture that failed for good: the capture service's `failQueued` (it refunds). */
export type FailQueuedCapture = (reservation: ReservationRef) => Promise<void>;

export interface JobWorkerDeps {
  jobs: JobsRepository;
  render: RunQueuedCapture;
  failed: FailQueuedCapture;
  webhooks: JobQueue<WebhookJobPayload>;
  clock: Clock;
  /** A job ended (or was found ended): its batch, if any, moves along (jobs/batch-service.ts). */
  ended?: (row: JobRow) => Promise<void>;
}

const GENERIC_FAILURE = 'The capture could not be completed';
const GAVE_UP = 'The capture could not be completed: its workers stopped repeatedly';
const UNAVAILABLE =
  'The capture could not be completed: a service it needs (database, queue or storage) was unavailable during every attempt';

/** The outbox id of a job's event: one per job, stable across retries (`webhook-id`). */
export function webhookIdOf(jobId: string): string {
  return `msg_${jobId.replace(/^job_/, '')}`;
}

/**
 * Page failures that say more about the moment than about the page: a load that ran out of time,
 * a browser that died or a capture past its deadline (both `render_failed`). A loaded worker
 * produces these; another attempt on a calmer worker usually succeeds.
 */
const TRANSIENT_CAPTURE_REASONS = new Set(['navigation_timeout', 'render_failed']);

/**
 * Worth another attempt: infrastructure trouble and transient page failures. An unreachable
 * target, a missing selector, an oversized page and invalid input are final.
 */
export function isRetryableRenderError(error: unknown): boolean {
  if (!(error instanceof AppError)) return true;
  if (error.code === 'capture_failed') {
    return TRANSIENT_CAPTURE_REASONS.has(String(error.details?.reason));
  }
  return error.code === 'overloaded' || error.code === 'internal_error';
}

function publicMessage(error: unknown): string {
  return error instanceof AppError && error.code !== 'internal_error' ? error.message : GENERIC_FAILURE;
}

function reservationOf(row: JobRow): ReservationRef {
  return { id: row.reservation_id, amount: row.reservation_amount };
}

function principalOf(row: JobRow): Principal {
  return { userId: row.user_id, keyId: row.api_key_id, mode: row.api_key_mode, scopes: [] };
}

/**
 * The capture queue's handler: load the job, render it with the reservation made at enqueue,
 * record the result or the error, and put the webhook event in the outbox in the same
 * transaction. Idempotent: a job already finished is skipped (its webhook re-queued), and a
 * re-delivered job finds the capture an earlier attempt stored. Credits are the capture runner's:
 * it commits them on success; the worker only reports a job that failed for good (`failed`),
 * and the runner refunds it. The ledger settles each reservation once, so a re-delivery can
 * never charge twice.
 */
export function createJobWorker(deps: JobWorkerDeps) {
  const { jobs, clock } = deps;

  async function queueWebhook(row: JobRow): Promise<void> {
    const deliveryId = webhookIdOf(row.id);
    await deps.webhooks.enqueue(deliveryId, { deliveryId });
  }

  async function finish(row: JobRow, outcome: JobOutcome): Promise<void> {
    let delivery: WebhookDeliveryRow | undefined;
    if (row.webhook_url !== null) {
      const body: WebhookPayload =
        outcome.status === 'completed'
          ? {
              job_id: row.id as WebhookPayload['job_id'],
              status: 'completed',
              result: JSON.parse(outcome.result),
            }
          : { job_id: row.id as WebhookPayload['job_id'], status: 'failed', error: outcome.error };
      delivery = {
        id: webhookIdOf(row.id),
        job_id: row.id,
        user_id: row.user_id,
        project_id: row.project_id,
        url: row.webhook_url,
        body: JSON.stringify(body),
        status: 'pending',
        attempts: 0,
        last_status_code: null,
        last_error: null,
        created_at: outcome.completedAt,
        updated_at: outcome.completedAt,
        finished_at: null,
      };
    }
    const finished = await jobs.finish(row.id, outcome, delivery);
    if (finished && delivery) await queueWebhook(row);
    await deps.ended?.(row);
  }

  async function fail(row: JobRow, message: string): Promise<void> {
    await deps.failed(reservationOf(row));
    await finish(row, { status: 'failed', error: message, completedAt: isoNow(clock) });
  }

  const handle: JobHandler<CaptureJobPayload> = async (lease, signal) => {
    const row = await jobs.findById(lease.payload.jobId);
    if (!row) return;
    if (row.status !== 'pending') {
      if (row.webhook_status === 'pending') await queueWebhook(row);
      await deps.ended?.(row);
      return;
    }
    let result: CaptureResult;
    try {
      result = await deps.render(
        {
          principal: principalOf(row),
          capture: parseResolvedCapture(row.request),
          captureId: row.capture_id,
          reservation: reservationOf(row),
        },
        signal,
      );
    } catch (error) {
      if (signal.aborted) throw error;
      if (isRetryableRenderError(error) && lease.attempt < lease.maxAttempts) throw error;
      await fail(row, publicMessage(error));
      return;
    }
    await finish(row, { status: 'completed', result: JSON.stringify(result), completedAt: isoNow(clock) });
  };

  /** A job whose workers kept dying: fails it for good (its credits go back). */
  async function onExhausted(lease: JobLease<CaptureJobPayload>): Promise<void> {
    await settleAbandoned(lease.payload.jobId, GAVE_UP);
  }

  /**
   * A pending job its queue gave up on: failed for good, credits refunded. From the sweep
   * (job-sweeper.ts) the queue gave up while the job's failure could not be recorded, which
   * means the database was down: the message says a service was unavailable.
   */
  async function settleAbandoned(jobId: string, message = UNAVAILABLE): Promise<void> {
    const row = await jobs.findById(jobId);
    if (row?.status !== 'pending') return;
    await fail(row, message);
  }

  return { handle, onExhausted, settleAbandoned };
}

export type JobWorker = ReturnType<typeof createJobWorker>;
