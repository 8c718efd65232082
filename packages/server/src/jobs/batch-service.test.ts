import { describe, expect, it } from 'vitest';
import type { BatchesRepository, BatchJobState, BatchRow } from '../db/batches-repository.ts';
import type { JobQueue } from '../queue/job-queue.ts';
import { createBatchService } from './batch-service.ts';

/** A batch's jobs in memory (a test double of the repository), items x looks, all held. */
function world(items: number, looks: number, window: number) {
  const jobs: (BatchJobState & { batch_id: string })[] = [];
  for (let index = 0; index < items; index++) {
    for (let rank = 0; rank < looks; rank++) {
      jobs.push({
        id: `job_${index}_${rank}`,
        status: 'pending',
        held: 1,
        batch_index: index,
        batch_look_rank: rank,
        created_at: '2026-11-28T00:00:00.000Z',
        batch_id: 'bat_1',
      });
    }
  }
  const batch = { id: 'bat_1', status: 'running', webhook_url: null } as BatchRow;
  const queued: string[] = [];
  const repository = {
    jobStates: async () => jobs.map((job) => ({ ...job })),
    release: async (ids: string[]) =>
      ids.filter((id) => {
        const job = jobs.find((j) => j.id === id)!;
        if (job.held !== 1) return false;
        job.held = 0;
        return true;
      }),
    findById: async () => batch,
    complete: async () => {
      if (batch.status !== 'running') return false;
      batch.status = 'completed';
      return true;
    },
    webhookStatus: async () => null,
  } as unknown as BatchesRepository;
  const queue = {
    enqueue: async (id: string) => {
      queued.push(id);
    },
  } as unknown as JobQueue<{ jobId: string }>;
  const service = createBatchService({
    batches: repository,
    captures: { resolve: async () => Promise.reject(new Error('not used')) },
    targets: { checkUrl: async () => ({ url: new URL('https://example.com') }) },
    queue,
    webhooks: queue as never,
    clock: () => new Date('2026-11-28T00:00:00.000Z'),
    window,
  });
  const end = (id: string, status: 'completed' | 'failed' = 'completed') => {
    const job = jobs.find((j) => j.id === id)!;
    job.status = status;
  };
  return { jobs, batch, queued, service, end };
}

describe('a batch in the capture queue (pump)', () => {
  it('keeps at most the window in the queue, first looks first, then the looks of items whose page is loaded', async () => {
    const w = world(4, 3, 2);
    await w.service.pump('bat_1');
    expect(w.queued).toEqual(['job_0_0', 'job_1_0']);
    await w.service.pump('bat_1');
    expect(w.queued).toHaveLength(2);
    w.end('job_0_0');
    await w.service.pump('bat_1');
    // Item 0's page is in the cache now: its next look goes before item 2's first one.
    expect(w.queued.slice(2)).toEqual(['job_0_1']);
    w.end('job_1_0', 'failed');
    await w.service.pump('bat_1');
    // A failed first look still lets its item's other looks run (each render is its own job).
    expect(w.queued.slice(3)).toEqual(['job_0_2']);
    expect(w.batch.status).toBe('running');
  });

  it('lets every job in one window at a time and ends the batch once none is pending', async () => {
    const w = world(5, 1, 2);
    await w.service.pump('bat_1');
    for (let round = 0; round < 10 && w.batch.status === 'running'; round++) {
      const inQueue = w.jobs.filter((j) => j.held === 0 && j.status === 'pending');
      expect(inQueue.length).toBeLessThanOrEqual(2);
      for (const job of inQueue) w.end(job.id);
      await w.service.pump('bat_1');
    }
    expect(w.queued).toEqual(['job_0_0', 'job_1_0', 'job_2_0', 'job_3_0', 'job_4_0']);
    expect(w.batch.status).toBe('completed');
  });
});
