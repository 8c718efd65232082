import { createBullmqJobQueue } from '../../packages/server/src/queue/bullmq-job-queue.ts';
import { createEmbeddedJobQueue } from '../../packages/server/src/queue/embedded-job-queue.ts';
import type { JobQueue, JobQueueSettings } from '../../packages/server/src/queue/job-queue.ts';
import { type Engine, uniqueName } from '../support/test-app.ts';
import { testDatabase } from '../support/test-database.ts';
import { REDIS_URL } from '../support/test-services.ts';

export { type TestDatabase, testDatabase } from '../support/test-database.ts';
export { REDIS_URL } from '../support/test-services.ts';

/** One queue backend under test: `open` can be called again to simulate another process or a restart. */
export interface QueueBackend {
  label: string;
  open<T>(name: string, settings: JobQueueSettings): Promise<{ queue: JobQueue<T>; close(): Promise<void> }>;
  destroy(): Promise<void>;
}

export function embeddedBackend(engine: Engine): QueueBackend {
  const database = testDatabase(engine);
  return {
    label: `embedded on ${engine}`,
    async open<T>(name: string, settings: JobQueueSettings) {
      const opened = await database.open();
      const queue = createEmbeddedJobQueue<T>({ ...settings, db: opened.db, engine: opened.engine, name });
      return {
        queue,
        async close() {
          await queue.close();
          await opened.close();
        },
      };
    },
    destroy: () => database.destroy(),
  };
}

export function bullmqBackend(): QueueBackend {
  const prefix = uniqueName('vitrine_test');
  return {
    label: 'BullMQ on Redis',
    async open<T>(name: string, settings: JobQueueSettings) {
      const queue = createBullmqJobQueue<T>({ ...settings, redisUrl: REDIS_URL, name, prefix });
      return { queue, close: () => queue.close() };
    },
    async destroy() {
      const { Redis } = await import('ioredis');
      const redis = new Redis(REDIS_URL);
      try {
        const keys = await redis.keys(`${prefix}:*`);
        if (keys.length > 0) await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
    },
  };
}

export const QUEUE_BACKENDS: (() => QueueBackend)[] = [
  () => embeddedBackend('sqlite'),
  () => embeddedBackend('postgres'),
  () => bullmqBackend(),
];

/** Polls until `check` holds; fails with `what` after `timeoutMs` (a deadline, not a timing claim). */
export async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
