import crypto from 'node:crypto';
import type { Brand } from '@vitrine/contract';
import type { Clock } from '../clock.ts';
import { createBrandRepository } from '../db/brand-repository.ts';
import type { Db } from '../db/tables.ts';
import { type JobConsumer, startJobConsumer } from '../queue/job-consumer.ts';
import type { JobQueue } from '../queue/job-queue.ts';
import { brandErrorOf } from './extract-brand.ts';

/** A queued extraction: which project, and the domain it had when asked (a later PATCH wins). */
export interface BrandJobPayload {
  userId: string;
  projectId: string;
  domain: string;
  /** A refresh re-extracts even when the cache holds a recent brand. */
  force: boolean;
}

export const BRAND_CACHE_MS = 7 * 24 * 3600 * 1000;

export interface BrandJobsDeps {
  db: Db;
  queue: JobQueue<BrandJobPayload>;
  clock: Clock;
  extract(domain: string, signal: AbortSignal): Promise<Brand>;
  concurrency: number;
  pollIntervalMs: number;
  onError?: (error: unknown, context: string) => void;
}

/**
 * Brand extraction as jobs on the queue (embedded or BullMQ): `pending` when asked, `processing`
 * while a worker extracts, then `completed` with the brand or `failed` with a `brand_error` in
 * generic terms. A job whose project's domain changed meanwhile does nothing (the newer job
 * decides). Results are cached per account and domain for 7 days.
 */
export function createBrandJobs(deps: BrandJobsDeps) {
  const { queue, clock } = deps;
  const brands = createBrandRepository(deps.db);

  /** Marks the project pending and queues its extraction. */
  async function start(userId: string, projectId: string, domain: string, force = false): Promise<void> {
    await brands.updateProject(
      projectId,
      { brand_status: 'pending', brand_error: null },
      clock().toISOString(),
    );
    await queue.enqueue(`brand_${projectId}_${crypto.randomBytes(6).toString('hex')}`, {
      userId,
      projectId,
      domain,
      force,
    });
  }

  async function settle(projectId: string, domain: string, patch: Record<string, unknown>) {
    await brands.updateProject(projectId, patch, clock().toISOString(), domain);
  }

  async function run(payload: BrandJobPayload, signal: AbortSignal): Promise<void> {
    const { userId, projectId, domain } = payload;
    const project = await brands.findProject(projectId);
    if (!project || project.domain !== domain) return;
    await settle(projectId, domain, { brand_status: 'processing' });
    const since = new Date(clock().getTime() - BRAND_CACHE_MS).toISOString();
    const cached = payload.force ? undefined : await brands.findCached(userId, domain, since);
    if (cached) {
      await settle(projectId, domain, { brand: cached.brand, brand_status: 'completed', brand_error: null });
      return;
    }
    try {
      const brand = JSON.stringify(await deps.extract(domain, signal));
      const now = clock().toISOString();
      await brands.putCached(userId, domain, brand, now);
      await settle(projectId, domain, { brand, brand_status: 'completed', brand_error: null });
    } catch (error) {
      signal.throwIfAborted();
      deps.onError?.(error, `brand extraction ${projectId}`);
      await settle(projectId, domain, { brand_status: 'failed', brand_error: brandErrorOf(error) });
    }
  }

  let consumer: JobConsumer | undefined;
  return {
    start,
    /** Starts this process's brand workers. */
    startWorkers(): void {
      consumer ??= startJobConsumer(queue, (lease, signal) => run(lease.payload, signal), {
        concurrency: deps.concurrency,
        pollIntervalMs: deps.pollIntervalMs,
        renewEveryMs: 10_000,
        shutdownGraceMs: 5_000,
        isRetryable: () => false,
        onError: (error) => deps.onError?.(error, 'brand job'),
      });
    },
    async close(): Promise<void> {
      await consumer?.close();
      await queue.close();
    },
  };
}

export type BrandJobs = ReturnType<typeof createBrandJobs>;
