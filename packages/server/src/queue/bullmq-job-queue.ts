import crypto from 'node:crypto';
import { type Job, type MinimalJob, Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { FailOutcome, JobLease, JobQueue, JobQueueSettings, JobState } from './job-queue.ts';
import { createWakeUp } from './wake-up.ts';

export interface BullmqJobQueueOptions extends JobQueueSettings {
  redisUrl: string;
  name: string;
  /** Key prefix in Redis (tests isolate themselves with one each). */
  prefix?: string;
  /** How long finished jobs are kept, so a late duplicate enqueue stays a no-op (default 7 days). */
  keepFinishedSeconds?: number;
}

const DAY_SECONDS = 86_400;

/**
 * The distributed queue: BullMQ on Redis, driven by hand (no processor function) so that it
 * offers the same lease API as the embedded queue. Our job id is the BullMQ job id, which makes
 * enqueue idempotent; BullMQ's lock is the lease and its stalled-job check re-delivers the jobs
 * of dead workers.
 */
export function createBullmqJobQueue<T>(options: BullmqJobQueueOptions): JobQueue<T> {
  const { name } = options;
  const prefix = options.prefix ?? 'vitrine';
  const keep = { age: options.keepFinishedSeconds ?? 7 * DAY_SECONDS };
  const queueConnection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const workerConnection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(name, { connection: queueConnection, prefix });
  const worker = new Worker(name, null, {
    connection: workerConnection,
    prefix,
    autorun: false,
    lockDuration: options.leaseMs,
    stalledInterval: Math.max(50, Math.floor(options.leaseMs / 2)),
    // Re-deliveries after a crash are bounded by our attempt count, not BullMQ's stall count.
    maxStalledCount: Number.MAX_SAFE_INTEGER,
    settings: {
      backoffStrategy: (made: number, _type?: string, _error?: Error, job?: MinimalJob) =>
        options.backoffMs((job as Job | undefined)?.attemptsStarted ?? made),
    },
  });
  const held = new Map<string, Job>();
  const wakeUp = createWakeUp();
  const stalledCheck = worker.startStalledCheckTimer();

  function jobOf(lease: JobLease<T>): Job | undefined {
    return held.get(lease.token);
  }

  return {
    name,

    async enqueue(id, payload) {
      await queue.add(name, payload, {
        jobId: id,
        attempts: options.maxAttempts,
        backoff: { type: 'custom' },
        removeOnComplete: keep,
        removeOnFail: keep,
      });
      wakeUp.notify();
    },

    async take() {
      const token = crypto.randomUUID();
      const job = (await worker.getNextJob(token, { block: false })) as Job | undefined;
      if (!job?.id) return undefined;
      held.set(token, job);
      return {
        id: job.id,
        payload: job.data as T,
        attempt: job.attemptsStarted,
        maxAttempts: options.maxAttempts,
        token,
      };
    },

    async renew(lease) {
      const job = jobOf(lease);
      if (!job) return false;
      try {
        return (await job.extendLock(lease.token, options.leaseMs)) === 1;
      } catch {
        return false;
      }
    },

    async complete(lease) {
      const job = jobOf(lease);
      if (!job) return false;
      held.delete(lease.token);
      try {
        await job.moveToCompleted(null, lease.token, false);
        return true;
      } catch {
        return false;
      }
    },

    async fail(lease, reason, { retry }): Promise<FailOutcome> {
      const job = jobOf(lease);
      if (!job) return 'lost';
      held.delete(lease.token);
      const again = retry && lease.attempt < lease.maxAttempts;
      try {
        await job.moveToFailed(
          again ? new Error(reason) : new UnrecoverableError(reason),
          lease.token,
          false,
        );
        return again ? 'retrying' : 'failed';
      } catch {
        return 'lost';
      }
    },

    async release(lease) {
      const job = jobOf(lease);
      if (!job) return;
      held.delete(lease.token);
      await job.moveToWait(lease.token).catch(() => undefined);
      wakeUp.notify();
    },

    waitForWork: (timeoutMs, signal) => wakeUp.wait(timeoutMs, signal),

    async state(id): Promise<JobState> {
      const state = await queue.getJobState(id);
      if (state === 'completed' || state === 'failed' || state === 'active') return state;
      if (state === 'unknown') return 'missing';
      return 'waiting';
    },

    async close() {
      wakeUp.notify();
      try {
        await worker.close();
        await stalledCheck.catch(() => undefined);
        await queue.close();
      } finally {
        queueConnection.disconnect();
        workerConnection.disconnect();
      }
    },
  };
}
