import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../packages/server/src/clock.ts';
import {
  createJobsRepository,
  createWebhookDeliveriesRepository,
} from '../../packages/server/src/db/jobs-repository.ts';
import type { OpenedDatabase } from '../../packages/server/src/db/open-database.ts';
import { AppError } from '../../packages/server/src/errors/app-error.ts';
import { type CaptureJobPayload, createJobService } from '../../packages/server/src/jobs/job-service.ts';
import { createJobWorker, type RunQueuedCapture } from '../../packages/server/src/jobs/job-worker.ts';
import {
  createWebhookDeliverer,
  recoverWebhookDeliveries,
  type WebhookJobPayload,
} from '../../packages/server/src/jobs/webhook-delivery.ts';
import { createGuardedFetch } from '../../packages/server/src/netpolicy/guarded-fetch.ts';
import { createTargetPolicy } from '../../packages/server/src/netpolicy/target-policy.ts';
import { createEmbeddedJobQueue } from '../../packages/server/src/queue/embedded-job-queue.ts';
import { type JobConsumer, startJobConsumer } from '../../packages/server/src/queue/job-consumer.ts';
import type { JobQueue } from '../../packages/server/src/queue/job-queue.ts';
import { ENGINES } from '../support/test-app.ts';
import {
  CAPTURE,
  captureOf,
  creditsOf,
  insertUser,
  renderKit,
  startReceiver,
  verifyStandardWebhook,
} from './job-kit.ts';
import { eventually, type TestDatabase, testDatabase } from './queue-backends.ts';

const SECRET = 'vss_webhook-test-secret-0123456789abcdefghijklmn';
const WHSEC = `whsec_${Buffer.from(SECRET, 'utf8').toString('base64')}`;
const CONSUMER = { concurrency: 2, pollIntervalMs: 20, renewEveryMs: 100, shutdownGraceMs: 2_000 };

describe.each(ENGINES)('async jobs and webhooks on %s', (engine) => {
  let database: TestDatabase;
  const cleanups: (() => Promise<void>)[] = [];
  /** Host name -> addresses, changed by tests to script DNS rebinding. */
  let dns: Record<string, string[]>;

  async function openStack(
    render: (kit: ReturnType<typeof renderKit>) => RunQueuedCapture = (kit) => kit.render,
    opts: { delays?: number[] } = {},
  ) {
    const opened: OpenedDatabase = await database.open();
    const { db } = opened;
    const delays = opts.delays ?? [10, 10];
    const captureQueue = createEmbeddedJobQueue<CaptureJobPayload>({
      db,
      engine: opened.engine,
      name: 'captures',
      leaseMs: 300,
      maxAttempts: 3,
      backoffMs: () => 10,
    });
    const webhookQueue = createEmbeddedJobQueue<WebhookJobPayload>({
      db,
      engine: opened.engine,
      name: 'webhooks',
      leaseMs: 2_000,
      maxAttempts: delays.length + 1,
      backoffMs: (attempt) => delays[attempt - 1] ?? 10,
    });
    const kit = renderKit(db);
    const jobs = createJobsRepository(db);
    const deliveries = createWebhookDeliveriesRepository(db);
    const service = createJobService({ jobs, queue: captureQueue, clock: systemClock });
    const worker = createJobWorker({
      jobs,
      render: render(kit),
      failed: kit.failed,
      webhooks: webhookQueue,
      clock: systemClock,
    });
    const policy = createTargetPolicy({
      allowTargets: ['127.0.0.2'],
      allowedPorts: [80, 443],
      resolver: { resolve: async (host) => dns[host] ?? [] },
    });
    const deliver = createWebhookDeliverer({
      deliveries,
      guardedFetch: createGuardedFetch(policy),
      signingSecret: async () => SECRET,
      clock: systemClock,
      timeoutMs: 2_000,
    });
    const consumers: JobConsumer[] = [];
    const stack = {
      db,
      kit,
      service,
      worker,
      deliveries,
      captureQueue: captureQueue as JobQueue<CaptureJobPayload>,
      startWorkers() {
        consumers.push(
          startJobConsumer(captureQueue, worker.handle, { ...CONSUMER, onExhausted: worker.onExhausted }),
        );
        consumers.push(startJobConsumer(webhookQueue, deliver, CONSUMER));
      },
      async close() {
        for (const consumer of consumers) await consumer.close();
        await opened.close();
      },
    };
    cleanups.push(stack.close);
    return stack;
  }

  beforeEach(() => {
    database = testDatabase(engine);
    dns = {};
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
    await database.destroy();
  });

  it('renders a job once, commits its reserved credits, and answers GET per contract; 404 for others', async () => {
    const stack = await openStack();
    const principal = await insertUser(stack.db, 10);
    const other = await insertUser(stack.db, 10);
    const reservation = await stack.kit.credits.reserve(principal, 'capture', 2);
    const accepted = await stack.service.enqueue(principal, CAPTURE, reservation, null);
    expect(accepted).toEqual({ job_id: expect.stringMatching(/^job_[0-9A-Z]{26}$/), status: 'pending' });
    expect((await stack.service.get(principal.userId, accepted.job_id)).status).toBe('pending');
    await expect(stack.service.get(other.userId, accepted.job_id)).rejects.toMatchObject({
      code: 'not_found',
    });

    stack.startWorkers();
    await eventually(
      'job completed',
      async () => (await stack.service.get(principal.userId, accepted.job_id)).status === 'completed',
    );
    const job = await stack.service.get(principal.userId, accepted.job_id);
    expect(job).toMatchObject({ id: accepted.job_id, error: null, webhook_url: null, webhook_status: null });
    expect(job.result).toMatchObject({ id: expect.stringMatching(/^cap_/), credits_used: 2, cached: false });
    expect(job.completed_at).toEqual(expect.any(String));
    expect(await creditsOf(stack.db, principal.userId)).toEqual({ remaining: 8, ledger: ['committed:2'] });
  });

  it('records a failed render as failed and refunds; retries infrastructure errors with the same reservation', async () => {
    let calls = 0;
    const stack = await openStack((kit) => async (input, signal) => {
      calls++;
      if (input.capture.page.url.includes('broken')) {
        throw new AppError('capture_failed', 'The page did not load', {
          details: { reason: 'target_unreachable' },
        });
      }
      if (calls === 2) throw new AppError('overloaded', 'Busy');
      return kit.render(input, signal);
    });
    const principal = await insertUser(stack.db, 10);
    const broken = await stack.service.enqueue(
      principal,
      captureOf('https://broken.example/'),
      await stack.kit.credits.reserve(principal, 'capture', 1),
      null,
    );
    stack.startWorkers();
    await eventually(
      'broken job failed',
      async () => (await stack.service.get(principal.userId, broken.job_id)).status === 'failed',
    );
    expect((await stack.service.get(principal.userId, broken.job_id)).error).toBe('The page did not load');
    expect(await creditsOf(stack.db, principal.userId)).toEqual({ remaining: 10, ledger: ['refunded:1'] });

    const flaky = await stack.service.enqueue(
      principal,
      CAPTURE,
      await stack.kit.credits.reserve(principal, 'capture', 3),
      null,
    );
    await eventually(
      'flaky job completed',
      async () => (await stack.service.get(principal.userId, flaky.job_id)).status === 'completed',
    );
    expect(calls).toBe(3);
    expect(await creditsOf(stack.db, principal.userId)).toEqual({
      remaining: 7,
      ledger: ['committed:3', 'refunded:1'],
    });
  });

  it('a worker that dies after rendering (abandoned lease): the job completes once, credits debited once', async () => {
    // The render (capture, record, credit commit) finishes; then the worker "dies": it never
    // completes the job. The render's promise is kept so teardown waits for its last database
    // write before the stack's driver is destroyed (else an unhandled "driver has already been
    // destroyed" from the credit commit).
    let rendered: Promise<unknown> = Promise.resolve();
    const crashed = await openStack((kit) => async (input, signal) => {
      rendered = kit.render(input, signal);
      await rendered;
      return new Promise(() => undefined); // the process dies here: never completes the job
    });
    cleanups.push(() => rendered.then(() => undefined));
    const principal = await insertUser(crashed.db, 10);
    const accepted = await crashed.service.enqueue(
      principal,
      CAPTURE,
      await crashed.kit.credits.reserve(principal, 'capture', 2),
      null,
    );
    const lease = await crashed.captureQueue.take();
    expect(lease?.id).toBe(accepted.job_id);
    void crashed.worker.handle(lease!, new AbortController().signal);
    await eventually('first attempt rendered', () => crashed.kit.renders() === 1);
    // renders() counts the capture stage; the credit commit follows it: wait for that, not a moment.
    await eventually(
      'first attempt committed its credits',
      async () => (await creditsOf(crashed.db, principal.userId)).ledger.join() === 'committed:2',
      30_000,
    );
    await rendered;
    expect(await creditsOf(crashed.db, principal.userId)).toEqual({ remaining: 8, ledger: ['committed:2'] });

    const survivor = await openStack();
    survivor.startWorkers();
    await eventually(
      'job completed by the survivor',
      async () => (await survivor.service.get(principal.userId, accepted.job_id)).status === 'completed',
    );
    const job = await survivor.service.get(principal.userId, accepted.job_id);
    expect(survivor.kit.renders()).toBe(0);
    expect(await creditsOf(survivor.db, principal.userId)).toEqual({ remaining: 8, ledger: ['committed:2'] });
    const captures = await survivor.db
      .selectFrom('captures')
      .select('id')
      .where('user_id', '=', principal.userId)
      .execute();
    expect(captures.map((c) => c.id)).toEqual([job.result?.id]);
  });

  it('delivers a signed webhook, retrying after a 500 and a 302 (redirects not followed) with a stable webhook-id', async () => {
    const receiver = await startReceiver([500, 302]);
    cleanups.push(receiver.close);
    dns['hooks.example.com'] = ['127.0.0.2'];
    const stack = await openStack(undefined, { delays: [10, 10, 10] });
    const principal = await insertUser(stack.db, 10);
    const url = `http://hooks.example.com:${receiver.port}/hook`;
    const accepted = await stack.service.enqueue(
      principal,
      CAPTURE,
      await stack.kit.credits.reserve(principal, 'capture', 1),
      url,
    );
    stack.startWorkers();
    await eventually(
      'webhook delivered',
      async () => (await stack.service.get(principal.userId, accepted.job_id)).webhook_status === 'delivered',
    );
    expect(receiver.received).toHaveLength(3);
    const job = await stack.service.get(principal.userId, accepted.job_id);
    const ids = new Set(receiver.received.map((h) => h.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const hook of receiver.received) {
      expect(verifyStandardWebhook(WHSEC, hook, Math.floor(Date.now() / 1000))).toBe(true);
      expect(
        verifyStandardWebhook(
          `whsec_${Buffer.from('wrong').toString('base64')}`,
          hook,
          Math.floor(Date.now() / 1000),
        ),
      ).toBe(false);
      expect(JSON.parse(hook.body)).toEqual({
        job_id: accepted.job_id,
        status: 'completed',
        result: job.result,
      });
    }
    const row = await stack.deliveries.find(String([...ids][0]));
    expect(row).toMatchObject({ status: 'delivered', attempts: 3, last_status_code: 200 });
  });

  it('gives up after the last scheduled attempt: webhook_status failed', async () => {
    const receiver = await startReceiver([500, 500, 500]);
    cleanups.push(receiver.close);
    dns['hooks.example.com'] = ['127.0.0.2'];
    const stack = await openStack(undefined, { delays: [10] });
    const principal = await insertUser(stack.db, 10);
    const accepted = await stack.service.enqueue(
      principal,
      CAPTURE,
      await stack.kit.credits.reserve(principal, 'capture', 1),
      `http://hooks.example.com:${receiver.port}/`,
    );
    stack.startWorkers();
    await eventually(
      'webhook failed',
      async () => (await stack.service.get(principal.userId, accepted.job_id)).webhook_status === 'failed',
    );
    expect(receiver.received).toHaveLength(2);
    expect(await stack.deliveries.find(`msg_${accepted.job_id.slice(4)}`)).toMatchObject({
      status: 'failed',
      attempts: 2,
      last_status_code: 500,
      last_error: 'HTTP 500',
    });
  });

  it('refuses a webhook host that now resolves to loopback, and records why', async () => {
    const canary = await startReceiver();
    cleanups.push(canary.close);
    dns['hooks.example.com'] = ['127.0.0.1'];
    const stack = await openStack();
    const principal = await insertUser(stack.db, 10);
    const accepted = await stack.service.enqueue(
      principal,
      captureOf('https://broken.example/'),
      await stack.kit.credits.reserve(principal, 'capture', 1),
      `http://hooks.example.com:${canary.port}/`,
    );
    stack.startWorkers();
    await eventually(
      'webhook failed',
      async () => (await stack.service.get(principal.userId, accepted.job_id)).webhook_status === 'failed',
    );
    const row = await stack.deliveries.find(`msg_${accepted.job_id.slice(4)}`);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, last_status_code: null });
    expect(row?.last_error).toMatch(/network policy/);
    expect(canary.received).toHaveLength(0);
  });

  it('a receiver down across a restart gets the event once back', async () => {
    dns['hooks.example.com'] = ['127.0.0.2'];
    const down = await startReceiver();
    const port = down.port;
    await down.close();
    const first = await openStack(undefined, { delays: [10, 60_000] });
    const principal = await insertUser(first.db, 10);
    const accepted = await first.service.enqueue(
      principal,
      CAPTURE,
      await first.kit.credits.reserve(principal, 'capture', 1),
      `http://hooks.example.com:${port}/hook`,
    );
    first.startWorkers();
    const deliveryId = `msg_${accepted.job_id.slice(4)}`;
    await eventually(
      'two failed attempts',
      async () => (await first.deliveries.find(deliveryId))?.attempts === 2,
    );
    expect((await first.deliveries.find(deliveryId))?.last_error).toBe('The receiver could not be reached');
    await first.close();

    const receiver = await startReceiver([], port);
    cleanups.push(receiver.close);
    const second = await openStack(undefined, { delays: [10, 10] });
    // The pending attempt is due in a minute; an operator restart re-queues it (idempotent) and
    // here we make it due now, standing in for the minute passing.
    await second.db
      .updateTable('queue_jobs')
      .set({ run_at: new Date(0).toISOString() })
      .where('queue', '=', 'webhooks')
      .execute();
    expect(
      await recoverWebhookDeliveries(
        second.deliveries,
        createEmbeddedJobQueue({
          db: second.db,
          engine,
          name: 'webhooks',
          leaseMs: 1000,
          maxAttempts: 3,
          backoffMs: () => 10,
        }),
      ),
    ).toBe(1);
    second.startWorkers();
    await eventually(
      'delivered after restart',
      async () =>
        (await second.service.get(principal.userId, accepted.job_id)).webhook_status === 'delivered',
    );
    expect(receiver.received).toHaveLength(1);
    expect(await second.deliveries.find(deliveryId)).toMatchObject({ status: 'delivered', attempts: 3 });
  });
});
