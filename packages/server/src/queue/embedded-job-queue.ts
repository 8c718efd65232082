import crypto from 'node:crypto';
import { sql } from 'kysely';
import { type Clock, systemClock } from '../clock.ts';
import type { Db } from '../db/tables.ts';
import type { FailOutcome, JobLease, JobQueue, JobQueueSettings, JobState } from './job-queue.ts';
import { createWakeUp } from './wake-up.ts';

export interface EmbeddedJobQueueOptions extends JobQueueSettings {
  db: Db;
  engine: 'sqlite' | 'postgres';
  name: string;
  clock?: Clock;
  /** How long finished (completed or failed) rows stay; default 7 days, as the BullMQ adapter. */
  keepFinishedMs?: number;
}

const MAX_ERROR_LENGTH = 2000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Pruning runs from `take()`, at most this often. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * The embedded queue: a durable `queue_jobs` table. A claim is one UPDATE of the oldest due row
 * (waiting and due, or active with an expired lease); on PostgreSQL the row is picked with
 * `FOR UPDATE SKIP LOCKED`, so several processes can share the table without blocking each
 * other; SQLite serialises writers anyway. Workers in this process are woken on enqueue; other
 * processes find the job at their next poll.
 */
export function createEmbeddedJobQueue<T>(options: EmbeddedJobQueueOptions): JobQueue<T> {
  const { db, name } = options;
  const clock = options.clock ?? systemClock;
  const wakeUp = createWakeUp();
  const at = (offsetMs = 0) => new Date(clock().getTime() + offsetMs).toISOString();
  const keepFinishedMs = options.keepFinishedMs ?? 7 * DAY_MS;
  let lastPrunedAt = Number.NEGATIVE_INFINITY;

  /**
   * Deletes rows finished longer ago than `keepFinishedMs`: the jobs table keeps the record a
   * user sees, so queue rows are only bookkeeping and would otherwise grow without bound.
   */
  async function pruneFinished(): Promise<void> {
    const now = clock().getTime();
    if (now - lastPrunedAt < PRUNE_EVERY_MS) return;
    lastPrunedAt = now;
    await db
      .deleteFrom('queue_jobs')
      .where('queue', '=', name)
      .where('status', 'in', ['completed', 'failed'])
      .where('finished_at', '<', at(-keepFinishedMs))
      .execute();
  }

  function leased(token: string) {
    return db
      .updateTable('queue_jobs')
      .where('queue', '=', name)
      .where('status', '=', 'active')
      .where('lease_token', '=', token);
  }

  return {
    name,

    async enqueue(id, payload) {
      const now = at();
      await db
        .insertInto('queue_jobs')
        .values({
          queue: name,
          id,
          payload: JSON.stringify(payload),
          status: 'waiting',
          attempts: 0,
          max_attempts: options.maxAttempts,
          run_at: now,
          lease_token: null,
          lease_expires_at: null,
          last_error: null,
          created_at: now,
          updated_at: now,
          finished_at: null,
        })
        .onConflict((oc) => oc.columns(['queue', 'id']).doNothing())
        .execute();
      wakeUp.notify();
    },

    async take(): Promise<JobLease<T> | undefined> {
      await pruneFinished();
      const now = at();
      const token = crypto.randomUUID();
      let due = db
        .selectFrom('queue_jobs')
        .select('id')
        .where('queue', '=', name)
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'waiting'), eb('run_at', '<=', now)]),
            eb.and([eb('status', '=', 'active'), eb('lease_expires_at', '<=', now)]),
          ]),
        )
        .orderBy('run_at')
        .limit(1);
      if (options.engine === 'postgres') due = due.forUpdate().skipLocked();
      const row = await db
        .updateTable('queue_jobs')
        .set({
          status: 'active',
          attempts: sql<number>`attempts + 1`,
          lease_token: token,
          lease_expires_at: at(options.leaseMs),
          updated_at: now,
        })
        .where('queue', '=', name)
        .where('id', '=', due)
        .returning(['id', 'payload', 'attempts', 'max_attempts'])
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        id: row.id,
        payload: JSON.parse(row.payload) as T,
        attempt: row.attempts,
        maxAttempts: row.max_attempts,
        token,
      };
    },

    async renew(lease) {
      const result = await leased(lease.token)
        .set({ lease_expires_at: at(options.leaseMs), updated_at: at() })
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async complete(lease) {
      const now = at();
      const result = await leased(lease.token)
        .set({
          status: 'completed',
          lease_token: null,
          lease_expires_at: null,
          updated_at: now,
          finished_at: now,
        })
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async fail(lease, reason, { retry }): Promise<FailOutcome> {
      const now = at();
      const again = retry && lease.attempt < lease.maxAttempts;
      const result = await leased(lease.token)
        .set({
          status: again ? 'waiting' : 'failed',
          run_at: again ? at(options.backoffMs(lease.attempt)) : now,
          lease_token: null,
          lease_expires_at: null,
          last_error: reason.slice(0, MAX_ERROR_LENGTH),
          updated_at: now,
          finished_at: again ? null : now,
        })
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return 'lost';
      return again ? 'retrying' : 'failed';
    },

    async release(lease) {
      const now = at();
      await leased(lease.token)
        .set({
          status: 'waiting',
          attempts: sql<number>`attempts - 1`,
          run_at: now,
          lease_token: null,
          lease_expires_at: null,
          updated_at: now,
        })
        .execute();
      wakeUp.notify();
    },

    waitForWork: (timeoutMs, signal) => wakeUp.wait(timeoutMs, signal),

    async state(id): Promise<JobState> {
      const row = await db
        .selectFrom('queue_jobs')
        .select('status')
        .where('queue', '=', name)
        .where('id', '=', id)
        .executeTakeFirst();
      return row?.status ?? 'missing';
    },

    async close() {
      wakeUp.notify();
    },
  };
}
