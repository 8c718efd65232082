import { setTimeout as sleep } from 'node:timers/promises';
import type { CaptureResult, Job, JobAccepted } from '@vitrine/contract';
import type { Principal } from '../auth/authenticate.ts';
import { type ResolvedCapture, serialiseResolvedCapture } from '../captures/resolved-capture.ts';
import type { ReservationRef } from '../captures/run-capture.ts';
import { type Clock, isoNow } from '../clock.ts';
import type { JobRow, JobsRepository } from '../db/jobs-repository.ts';
import { notFound } from '../errors/app-error.ts';
import { newId } from '../ids.ts';
import type { JobQueue } from '../queue/job-queue.ts';

/** Longest wait for the queue to take a new job before the 202 goes out anyway. */
const ENQUEUE_WAIT_MS = 2000;

/** What the capture queue carries: just the id; the job record holds the rest. */
export interface CaptureJobPayload {
  jobId: string;
}

export interface JobServiceDeps {
  jobs: JobsRepository;
  queue: JobQueue<CaptureJobPayload>;
  clock: Clock;
  /** A queue that refused the job (e.g. Redis down): the job stays pending until `recover`. */
  onEnqueueError?: (error: unknown, jobId: string) => void;
}

/** The API shape of a job record (docs/api-decisions.md section 5). */
export function toJob(row: JobRow): Job {
  return {
    id: row.id,
    status: row.status,
    result: row.result === null ? null : (JSON.parse(row.result) as CaptureResult),
    error: row.error,
    webhook_url: row.webhook_url,
    webhook_status: row.webhook_status,
    created_at: row.created_at,
    completed_at: row.completed_at,
  };
}

/**
 * The row of a job accepted and not yet run: its payload is the plan, its credits the reservation.
 * One shape for a single async capture and each render of a batch (which adds its own columns).
 */
export function pendingJobRow(
  principal: Principal,
  capture: ResolvedCapture,
  reservation: ReservationRef,
  webhookUrl: string | null,
  now: string,
) {
  return {
    id: newId('job'),
    user_id: principal.userId,
    api_key_id: principal.keyId,
    api_key_mode: principal.mode,
    project_id: capture.projectId,
    status: 'pending' as const,
    request: serialiseResolvedCapture(capture),
    result: null,
    error: null,
    webhook_url: webhookUrl,
    webhook_status: null,
    reservation_id: reservation.id,
    reservation_amount: reservation.amount,
    capture_id: newId('capture'),
    created_at: now,
    completed_at: null,
  };
}

/** Async captures: accept (record + queue), read back, and re-queue unfinished ones at start. */
export function createJobService(deps: JobServiceDeps) {
  const { jobs, queue, clock } = deps;

  /**
   * Records the job and queues it. The job's payload is the ResolvedCapture, rendered as is by
   * the worker. `reservation` holds the credits (reserved before, so a 402 comes before any
   * work); the capture runner commits or refunds it once. The record is durable before the 202, so a
   * queue failure only delays the job until `recover` runs.
   */
  async function enqueue(
    principal: Principal,
    capture: ResolvedCapture,
    reservation: ReservationRef,
    webhookUrl: string | null,
  ): Promise<JobAccepted> {
    const row = pendingJobRow(principal, capture, reservation, webhookUrl, isoNow(clock));
    const { id } = row;
    await jobs.insert(row);
    // A queue that is down (Redis restarting) must not hold the 202: the record is the job, and
    // the sweeper (job-sweeper.ts) queues it again if this enqueue never lands.
    const enqueued = queue.enqueue(id, { jobId: id });
    enqueued.catch((error: unknown) => deps.onEnqueueError?.(error, id));
    await Promise.race([enqueued.catch(() => undefined), sleep(ENQUEUE_WAIT_MS)]);
    return { job_id: id as JobAccepted['job_id'], status: 'pending' };
  }

  /** A job of this account; 404 for unknown ids and other accounts' jobs alike. */
  async function get(userId: string, id: string): Promise<Job> {
    const row = await jobs.find(userId, id);
    if (!row) throw notFound(`Job ${id}`);
    return toJob(row);
  }

  /** Queues every pending job again (idempotent: queued ones are left alone). Run at start. */
  async function recover(batch = 1000): Promise<number> {
    const ids = await jobs.pendingIds(batch);
    for (const id of ids) await queue.enqueue(id, { jobId: id });
    return ids.length;
  }

  /**
   * The sweep (job-sweeper.ts): every pending job the queue does not hold is queued again (Redis
   * restarted without persistence, an enqueue that never landed), and every pending job the queue
   * gave up on is handed to `settle` (its failure could not be recorded then, e.g. the database
   * was down). Returns how many of each.
   */
  async function sweep(
    settle: (jobId: string) => Promise<void>,
    batch = 1000,
  ): Promise<{ requeued: number; settled: number }> {
    const ids = await jobs.pendingIds(batch);
    let requeued = 0;
    let settled = 0;
    for (const id of ids) {
      const state = await queue.state(id);
      if (state === 'missing') {
        await queue.enqueue(id, { jobId: id });
        requeued++;
      } else if (state === 'failed') {
        await settle(id);
        settled++;
      }
    }
    return { requeued, settled };
  }

  return { enqueue, get, recover, sweep };
}

export type JobService = ReturnType<typeof createJobService>;
