import { afterAll, describe, expect, it } from 'vitest';
import { createEmbeddedJobQueue } from '../../packages/server/src/queue/embedded-job-queue.ts';
import { testDatabase } from './queue-backends.ts';

const HOUR_MS = 60 * 60 * 1000;

describe('embedded queue: finished rows are pruned after their retention', () => {
  const database = testDatabase('sqlite');
  afterAll(() => database.destroy());

  it('keeps finished rows for keepFinishedMs, then deletes them; unfinished rows stay', async () => {
    const opened = await database.open();
    let now = Date.parse('2026-01-01T00:00:00Z');
    const queue = createEmbeddedJobQueue<{ n: number }>({
      db: opened.db,
      engine: opened.engine,
      name: 'pruning',
      clock: () => new Date(now),
      leaseMs: 100 * HOUR_MS,
      maxAttempts: 1,
      backoffMs: () => 0,
      keepFinishedMs: 24 * HOUR_MS,
    });
    try {
      await queue.enqueue('done', { n: 1 });
      const done = await queue.take();
      expect(await queue.complete(done!)).toBe(true);
      await queue.enqueue('broken', { n: 1 });
      const broken = await queue.take();
      expect(await queue.fail(broken!, 'no', { retry: false })).toBe('failed');
      await queue.enqueue('later', { n: 1 });

      now += 23 * HOUR_MS;
      const later = await queue.take();
      expect(later?.id).toBe('later');
      expect([await queue.state('done'), await queue.state('broken')]).toEqual(['completed', 'failed']);

      now += 2 * HOUR_MS;
      expect(await queue.take()).toBeUndefined();
      expect([await queue.state('done'), await queue.state('broken'), await queue.state('later')]).toEqual([
        'missing',
        'missing',
        'active',
      ]);
    } finally {
      await queue.close();
      await opened.close();
    }
  });
});
