import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type JobConsumerOptions, startJobConsumer } from '../../packages/server/src/queue/job-consumer.ts';
import type { JobLease, JobQueue, JobQueueSettings } from '../../packages/server/src/queue/job-queue.ts';
import { eventually, QUEUE_BACKENDS, type QueueBackend } from './queue-backends.ts';

interface Payload {
  n: number;
}

const SETTINGS: JobQueueSettings = { leaseMs: 400, maxAttempts: 3, backoffMs: () => 20 };
const CONSUMER: JobConsumerOptions<Payload> = {
  concurrency: 2,
  pollIntervalMs: 25,
  renewEveryMs: 100,
  shutdownGraceMs: 5_000,
};

/** The one contract every queue adapter passes (architecture.md: one suite, each real engine). */
describe.each(QUEUE_BACKENDS.map((make) => [make().label, make] as const))(
  'JobQueue contract: %s',
  (_label, make) => {
    let backend: QueueBackend;
    const closers: (() => Promise<void>)[] = [];

    async function open(settings: JobQueueSettings = SETTINGS): Promise<JobQueue<Payload>> {
      const opened = await backend.open<Payload>('contract', settings);
      closers.push(opened.close);
      return opened.queue;
    }

    async function openAndKeepCloser(): Promise<{ queue: JobQueue<Payload>; close(): Promise<void> }> {
      return backend.open<Payload>('contract', SETTINGS);
    }

    beforeEach(() => {
      backend = make();
    });

    afterEach(async () => {
      for (const close of closers.splice(0).reverse()) await close();
      await backend.destroy();
    });

    it('delivers every enqueued job once and completes it; a duplicate enqueue is a no-op', async () => {
      const queue = await open();
      const seen: number[] = [];
      for (const n of [1, 2, 3]) await queue.enqueue(`job-${n}`, { n });
      await queue.enqueue('job-2', { n: 99 });
      const consumer = startJobConsumer(queue, async (lease) => void seen.push(lease.payload.n), CONSUMER);
      closers.push(() => consumer.close());
      await eventually('three jobs handled', () => seen.length >= 3);
      await eventually('all completed', async () =>
        (await Promise.all(['job-1', 'job-2', 'job-3'].map((id) => queue.state(id)))).every(
          (s) => s === 'completed',
        ),
      );
      await queue.enqueue('job-1', { n: 1 });
      expect(await queue.state('job-1')).toBe('completed');
      await consumer.close();
      expect(seen.sort()).toEqual([1, 2, 3]);
    });

    it('never runs more jobs at once than its concurrency', async () => {
      const queue = await open();
      let running = 0;
      let peak = 0;
      let done = 0;
      for (let n = 0; n < 6; n++) await queue.enqueue(`c-${n}`, { n });
      const consumer = startJobConsumer(
        queue,
        async () => {
          running++;
          peak = Math.max(peak, running);
          // Hold the slot until a second job runs (or the others are done), so both slots fill.
          await eventually('a second job in flight', () => running >= 2 || done >= 5);
          running--;
          done++;
        },
        CONSUMER,
      );
      closers.push(() => consumer.close());
      await eventually('six jobs handled', () => done === 6);
      expect(peak).toBe(2);
    });

    it('retries a failed job with backoff and fails it for good after maxAttempts', async () => {
      const queue = await open();
      const attempts: Record<string, number[]> = { flaky: [], broken: [], fatal: [] };
      await queue.enqueue('flaky', { n: 1 });
      await queue.enqueue('broken', { n: 2 });
      await queue.enqueue('fatal', { n: 3 });
      const consumer = startJobConsumer(
        queue,
        async (lease) => {
          attempts[lease.id]?.push(lease.attempt);
          if (lease.id === 'flaky' && lease.attempt === 1) throw new Error('transient');
          if (lease.id === 'broken') throw new Error('always');
          if (lease.id === 'fatal') throw new Error('not retryable');
        },
        { ...CONSUMER, isRetryable: (error) => (error as Error).message !== 'not retryable' },
      );
      closers.push(() => consumer.close());
      await eventually('flaky completed', async () => (await queue.state('flaky')) === 'completed');
      await eventually('broken failed', async () => (await queue.state('broken')) === 'failed');
      await eventually('fatal failed', async () => (await queue.state('fatal')) === 'failed');
      expect(attempts).toEqual({ flaky: [1, 2], broken: [1, 2, 3], fatal: [1] });
    });

    it('delivers again a job whose worker took it and died (lease expiry); the dead lease cannot settle it', async () => {
      const crashed = await openAndKeepCloser();
      await crashed.queue.enqueue('orphan', { n: 7 });
      const abandoned = (await crashed.queue.take()) as JobLease<Payload>;
      expect(abandoned.id).toBe('orphan');
      expect(abandoned.attempt).toBe(1);

      const survivor = await open();
      const seen: JobLease<Payload>[] = [];
      const consumer = startJobConsumer(survivor, async (lease) => void seen.push(lease), CONSUMER);
      closers.push(() => consumer.close());
      await eventually(
        're-delivered and completed',
        async () => (await survivor.state('orphan')) === 'completed',
      );
      expect(seen.map((l) => [l.id, l.attempt, l.payload.n])).toEqual([['orphan', 2, 7]]);

      expect(await crashed.queue.complete(abandoned)).toBe(false);
      expect(await crashed.queue.fail(abandoned, 'late', { retry: true })).toBe('lost');
      expect(await survivor.state('orphan')).toBe('completed');
      await crashed.close();
    });

    it('keeps jobs across a restart: queued ones and ones in flight when the process went away', async () => {
      const first = await openAndKeepCloser();
      await first.queue.enqueue('queued', { n: 1 });
      await first.queue.enqueue('in-flight', { n: 2 });
      // One of the two is taken and never settled: the process goes away mid-job.
      expect(await first.queue.take()).toBeDefined();
      await first.close();

      const second = await open();
      const seen: string[] = [];
      const consumer = startJobConsumer(second, async (lease) => void seen.push(lease.id), CONSUMER);
      closers.push(() => consumer.close());
      await eventually('both jobs completed', async () =>
        (await Promise.all([second.state('queued'), second.state('in-flight')])).every(
          (s) => s === 'completed',
        ),
      );
      expect(seen.sort()).toEqual(['in-flight', 'queued']);
    });

    it('settles a job once: a second complete, or a complete after fail, is refused', async () => {
      const queue = await open();
      await queue.enqueue('once', { n: 1 });
      const lease = (await queue.take()) as JobLease<Payload>;
      expect(await queue.renew(lease)).toBe(true);
      expect(await queue.complete(lease)).toBe(true);
      expect(await queue.complete(lease)).toBe(false);
      expect(await queue.renew(lease)).toBe(false);
      expect(await queue.take()).toBeUndefined();

      await queue.enqueue('failed-once', { n: 2 });
      const other = (await queue.take()) as JobLease<Payload>;
      expect(await queue.fail(other, 'nope', { retry: false })).toBe('failed');
      expect(await queue.complete(other)).toBe(false);
      expect(await queue.state('failed-once')).toBe('failed');
    });

    it('on close lets in-flight jobs finish within the grace, and gives back the ones that do not', async () => {
      // A lease far longer than the test: on two loaded cores a renewal can come later than
      // SETTINGS' 400 ms lease, and a lost lease (rightly) leaves the job to expire instead of
      // releasing it, which is not what this test is about.
      const queue = await open({ ...SETTINGS, leaseMs: 60_000 });
      await queue.enqueue('finishes', { n: 1 });
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let started = false;
      const graceful = startJobConsumer(
        queue,
        async () => {
          started = true;
          await gate;
        },
        CONSUMER,
      );
      await eventually('job started', () => started);
      const closing = graceful.close();
      release();
      await closing;
      expect(await queue.state('finishes')).toBe('completed');

      await queue.enqueue('stuck', { n: 2 });
      let stuckStarted = false;
      const impatient = startJobConsumer(
        queue,
        async (_lease, signal) => {
          stuckStarted = true;
          await new Promise((_resolve, reject) =>
            signal.addEventListener('abort', () => reject(signal.reason)),
          );
        },
        { ...CONSUMER, shutdownGraceMs: 20 },
      );
      await eventually('stuck job started', () => stuckStarted);
      await impatient.close();
      expect(await queue.state('stuck')).toBe('waiting');

      const seen: number[] = [];
      const next = startJobConsumer(queue, async (lease) => void seen.push(lease.attempt), CONSUMER);
      closers.push(() => next.close());
      await eventually(
        'released job completed by another worker',
        async () => (await queue.state('stuck')) === 'completed',
      );
      expect(seen.length).toBe(1);
    });

    it('hands a job delivered more often than allowed to onExhausted and fails it', async () => {
      const settings = { ...SETTINGS, maxAttempts: 1 };
      const dying = await backend.open<Payload>('contract', settings);
      await dying.queue.enqueue('poison', { n: 1 });
      expect((await dying.queue.take())?.attempt).toBe(1);
      const queue = await open(settings);
      const exhausted: string[] = [];
      const handled: string[] = [];
      const consumer = startJobConsumer(queue, async (lease) => void handled.push(lease.id), {
        ...CONSUMER,
        onExhausted: async (lease) => void exhausted.push(lease.id),
      });
      closers.push(() => consumer.close());
      await eventually('poison failed', async () => (await queue.state('poison')) === 'failed');
      expect(exhausted).toEqual(['poison']);
      expect(handled).toEqual([]);
      await dying.close();
    });

    it('hands a job whose handler threw on its last attempt to onExhausted', async () => {
      const settings = { ...SETTINGS, maxAttempts: 2, backoffMs: () => 0 };
      const queue = await open(settings);
      await queue.enqueue('unsettled', { n: 1 });
      const exhausted: string[] = [];
      let attempts = 0;
      const consumer = startJobConsumer(
        queue,
        async () => {
          attempts += 1;
          throw new Error('the database is away');
        },
        { ...CONSUMER, onExhausted: async (lease) => void exhausted.push(lease.id) },
      );
      closers.push(() => consumer.close());
      await eventually('unsettled failed', async () => (await queue.state('unsettled')) === 'failed');
      await eventually('owner told', async () => exhausted.length === 1);
      expect({ attempts, exhausted }).toEqual({ attempts: 2, exhausted: ['unsettled'] });
    });
  },
);
