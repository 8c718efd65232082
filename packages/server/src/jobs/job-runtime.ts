import { refundStaleReservations } from '../billing/stale-reservations.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config/load-config.ts';
import { createCreditLedgerRepository } from '../db/credit-ledger-repository.ts';
import { createJobsRepository, createWebhookDeliveriesRepository } from '../db/jobs-repository.ts';
import type { Db } from '../db/tables.ts';
import type { GuardedFetch } from '../netpolicy/guarded-fetch.ts';
import { type JobConsumer, startJobConsumer } from '../queue/job-consumer.ts';
import type { FailOutcome, JobQueue, JobQueueSettings } from '../queue/job-queue.ts';
import type { BatchService } from './batch-service.ts';
import type { CaptureJobPayload, JobService } from './job-service.ts';
import { type JobSweeper, startJobSweeper } from './job-sweeper.ts';
import { createJobWorker, type FailQueuedCapture, type RunQueuedCapture } from './job-worker.ts';
import {
  createWebhookDeliverer,
  recoverWebhookDeliveries,
  sweepWebhookDeliveries,
  type WebhookJobPayload,
} from './webhook-delivery.ts';
import { WEBHOOK_RETRY_DELAYS_MS, webhookBackoff, webhookMaxAttempts } from './webhook-schedule.ts';
import type { WebhookSecretLookup } from './webhook-secret.ts';

/** A reservation unsettled this long after the capture deadline is refunded by the sweep. */
const STALE_RESERVATION_MARGIN_MS = 60_000;

/** Queue settings of the two queues; the adapter (embedded or BullMQ) is picked by app.ts. */
export function captureQueueSettings(config: Config): JobQueueSettings {
  return { leaseMs: config.queue.jobLeaseMs, maxAttempts: 3, backoffMs: (attempt) => 2000 * 2 ** attempt };
}

export function webhookQueueSettings(config: Config): JobQueueSettings {
  return {
    leaseMs: Math.max(config.queue.jobLeaseMs, 2 * config.queue.webhookTimeoutMs),
    maxAttempts: webhookMaxAttempts(WEBHOOK_RETRY_DELAYS_MS),
    backoffMs: webhookBackoff(WEBHOOK_RETRY_DELAYS_MS),
  };
}

export interface JobRuntimeDeps {
  config: Config;
  db: Db;
  clock: Clock;
  /** The job service the API enqueues with (over `captureQueue`). */
  service: JobService;
  /** Batches (issue 39): moved along when one of their jobs ends, and by the sweep. */
  batches?: Pick<BatchService, 'jobEnded' | 'sweep'>;
  captureQueue: JobQueue<CaptureJobPayload>;
  webhookQueue: JobQueue<WebhookJobPayload>;
  render: RunQueuedCapture;
  /** Reports a job that failed for good (the capture runner refunds its credits). */
  failed: FailQueuedCapture;
  guardedFetch: GuardedFetch;
  signingSecret: WebhookSecretLookup;
  userAgent: string;
  onError: (error: unknown, context: string) => void;
  /** A failed attempt of a job (`captures`) or a webhook delivery (`webhooks`), for the metrics. */
  onFailure?: (queue: 'captures' | 'webhooks', error: unknown, outcome: FailOutcome) => void;
  /** What a sweep re-queued or settled (job-sweeper.ts), for the metrics and the log. */
  onSwept?: (counts: Record<string, number>) => void;
}

export interface JobRuntime {
  service: JobService;
  /** Re-queues unfinished jobs and deliveries, then (worker role) starts consuming. */
  start(options: { consume: boolean }): Promise<void>;
  /** Stops consuming (in-flight jobs finish within the grace or go back), then closes the queues. */
  close(): Promise<void>;
}

/**
 * Async captures and their webhooks: recovery at start and the consumers a worker process runs.
 * Sync and async captures share the capture service; this only schedules.
 */
export function createJobRuntime(deps: JobRuntimeDeps): JobRuntime {
  const { config, captureQueue, webhookQueue } = deps;
  const jobs = createJobsRepository(deps.db);
  const deliveries = createWebhookDeliveriesRepository(deps.db);
  const { service } = deps;
  const consumers: JobConsumer[] = [];
  let sweeper: JobSweeper | undefined;

  return {
    service,
    async start({ consume }) {
      await service.recover();
      await recoverWebhookDeliveries(deliveries, webhookQueue);
      const worker = createJobWorker({
        jobs,
        render: deps.render,
        failed: deps.failed,
        webhooks: webhookQueue,
        clock: deps.clock,
        ended: deps.batches ? (row) => deps.batches!.jobEnded(row) : undefined,
      });
      // Every process sweeps (idempotent): an API-only deployment's reservations too.
      const ledger = createCreditLedgerRepository(deps.db);
      const staleAfterMs = config.browser.captureTimeoutMs + STALE_RESERVATION_MARGIN_MS;
      sweeper = startJobSweeper({
        everyMs: config.queue.jobSweepMs,
        sweep: async () => {
          const jobsSwept = await service.sweep((jobId) => worker.settleAbandoned(jobId));
          // Running batches moved along (not counted: moving them is routine, nothing was lost).
          await deps.batches?.sweep();
          const webhooks = await sweepWebhookDeliveries(deliveries, webhookQueue);
          const now = deps.clock();
          const reservations = await refundStaleReservations(
            deps.db,
            (id) => ledger.refund(id, now.toISOString()),
            new Date(now.getTime() - staleAfterMs).toISOString(),
          );
          return {
            captures: jobsSwept.requeued,
            captures_settled: jobsSwept.settled,
            webhooks,
            stale_reservations: reservations,
          };
        },
        onSwept: deps.onSwept,
        onError: (error) => deps.onError(error, 'job sweep'),
      });
      if (!consume) return;
      const common = {
        pollIntervalMs: config.queue.pollIntervalMs,
        renewEveryMs: Math.floor(config.queue.jobLeaseMs / 3),
        onError: (error: unknown) => deps.onError(error, 'job'),
      };
      consumers.push(
        startJobConsumer(captureQueue, worker.handle, {
          ...common,
          concurrency: config.queue.workerConcurrency,
          shutdownGraceMs: config.browser.captureTimeoutMs,
          onExhausted: worker.onExhausted,
          onFailure: (error, outcome) => deps.onFailure?.('captures', error, outcome),
        }),
        startJobConsumer(
          webhookQueue,
          createWebhookDeliverer({
            deliveries,
            guardedFetch: deps.guardedFetch,
            clock: deps.clock,
            timeoutMs: config.queue.webhookTimeoutMs,
            userAgent: deps.userAgent,
            signingSecret: deps.signingSecret,
          }),
          {
            ...common,
            concurrency: 4,
            shutdownGraceMs: config.queue.webhookTimeoutMs,
            onFailure: (error, outcome) => deps.onFailure?.('webhooks', error, outcome),
          },
        ),
      );
    },
    async close() {
      await sweeper?.close();
      await Promise.all(consumers.splice(0).map((consumer) => consumer.close()));
      await captureQueue.close();
      await webhookQueue.close();
    },
  };
}
