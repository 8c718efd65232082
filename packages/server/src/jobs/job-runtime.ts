import type { Clock } from '../clock.ts';
import type { Config } from '../config/load-config.ts';
import { createJobsRepository, createWebhookDeliveriesRepository } from '../db/jobs-repository.ts';
import type { Db } from '../db/tables.ts';
import type { GuardedFetch } from '../netpolicy/guarded-fetch.ts';
import { type JobConsumer, startJobConsumer } from '../queue/job-consumer.ts';
import type { JobQueue, JobQueueSettings } from '../queue/job-queue.ts';
import type { CaptureJobPayload, JobService } from './job-service.ts';
import { createJobWorker, type FailQueuedCapture, type RunQueuedCapture } from './job-worker.ts';
import {
  createWebhookDeliverer,
  recoverWebhookDeliveries,
  type WebhookJobPayload,
} from './webhook-delivery.ts';
import { WEBHOOK_RETRY_DELAYS_MS, webhookBackoff, webhookMaxAttempts } from './webhook-schedule.ts';
import type { WebhookSecretLookup } from './webhook-secret.ts';

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
  captureQueue: JobQueue<CaptureJobPayload>;
  webhookQueue: JobQueue<WebhookJobPayload>;
  render: RunQueuedCapture;
  /** Reports a job that failed for good (the capture runner refunds its credits). */
  failed: FailQueuedCapture;
  guardedFetch: GuardedFetch;
  signingSecret: WebhookSecretLookup;
  userAgent: string;
  onError: (error: unknown, context: string) => void;
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

  return {
    service,
    async start({ consume }) {
      await service.recover();
      await recoverWebhookDeliveries(deliveries, webhookQueue);
      if (!consume) return;
      const worker = createJobWorker({
        jobs,
        render: deps.render,
        failed: deps.failed,
        webhooks: webhookQueue,
        clock: deps.clock,
      });
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
          { ...common, concurrency: 4, shutdownGraceMs: config.queue.webhookTimeoutMs },
        ),
      );
    },
    async close() {
      await Promise.all(consumers.splice(0).map((consumer) => consumer.close()));
      await captureQueue.close();
      await webhookQueue.close();
    },
  };
}
