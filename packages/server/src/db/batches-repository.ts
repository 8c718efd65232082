import type { Insertable, Selectable } from 'kysely';
import { type ReserveManyInput, reserveWithin } from './credit-ledger-repository.ts';
import type { JobRow, WebhookDeliveryRow } from './jobs-repository.ts';
import type { BatchesTable, Db, JobsTable } from './tables.ts';

export type BatchRow = Selectable<BatchesTable>;

/** What creating a batch came to: created, refused for credits, or the batch its key already names. */
export type CreateBatchOutcome =
  | { status: 'created' }
  | { status: 'insufficient'; remaining: number }
  | { status: 'existing'; batch: BatchRow };

/** The few fields of a batch's jobs the window and the counts need. */
export type BatchJobState = Pick<
  JobRow,
  'id' | 'status' | 'held' | 'batch_index' | 'batch_look_rank' | 'created_at'
>;

const INSERT_CHUNK = 100;

/** Batches (issue 39): the batch row, and its renders as rows of `jobs`. */
export function createBatchesRepository(db: Db) {
  async function findByKey(userId: string, key: string): Promise<BatchRow | undefined> {
    return db
      .selectFrom('batches')
      .selectAll()
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
  }

  return {
    findByKey,

    /**
     * In one transaction: the batch, the credits of all its renders (one debit, one ledger row
     * per render) and its jobs (all held). Either all of it exists afterwards or none of it. A
     * concurrent POST with the same idempotency key loses on the unique index and gets the
     * winner's batch.
     */
    async create(
      batch: Insertable<BatchesTable>,
      jobs: Insertable<JobsTable>[],
      credits: ReserveManyInput,
    ): Promise<CreateBatchOutcome> {
      try {
        return await db.transaction().execute(async (trx) => {
          await trx.insertInto('batches').values(batch).execute();
          const reserved = await reserveWithin(trx, credits);
          if (!reserved.ok) throw new ShortOfCredits(reserved.remaining);
          for (let i = 0; i < jobs.length; i += INSERT_CHUNK) {
            await trx
              .insertInto('jobs')
              .values(jobs.slice(i, i + INSERT_CHUNK))
              .execute();
          }
          return { status: 'created' as const };
        });
      } catch (error) {
        if (error instanceof ShortOfCredits) return { status: 'insufficient', remaining: error.remaining };
        const key = batch.idempotency_key;
        const existing = key ? await findByKey(batch.user_id, key) : undefined;
        if (existing) return { status: 'existing', batch: existing };
        throw error;
      }
    },

    /** A batch of this account (undefined for another account's). */
    async find(userId: string, id: string): Promise<BatchRow | undefined> {
      return db
        .selectFrom('batches')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    async findById(id: string): Promise<BatchRow | undefined> {
      return db.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Every job of a batch, item by item, look by look. */
    async jobs(batchId: string): Promise<JobRow[]> {
      return db
        .selectFrom('jobs')
        .selectAll()
        .where('batch_id', '=', batchId)
        .orderBy('batch_index')
        .orderBy('batch_look_rank')
        .execute();
    },

    /** The state of a batch's jobs, without their payloads and results. */
    async jobStates(batchId: string): Promise<BatchJobState[]> {
      return db
        .selectFrom('jobs')
        .select(['id', 'status', 'held', 'batch_index', 'batch_look_rank', 'created_at'])
        .where('batch_id', '=', batchId)
        .execute();
    },

    /** Lets held jobs into the queue; returns the ids this call released (each released once). */
    async release(ids: string[]): Promise<string[]> {
      const released: string[] = [];
      for (const id of ids) {
        const result = await db
          .updateTable('jobs')
          .set({ held: 0 })
          .where('id', '=', id)
          .where('held', '=', 1)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 1) released.push(id);
      }
      return released;
    },

    /**
     * Marks a running batch completed and, when it has a webhook, puts its event in the outbox,
     * in one transaction. False when it was already completed (nothing changes).
     */
    async complete(id: string, now: string, delivery: WebhookDeliveryRow | undefined): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable('batches')
          .set({ status: 'completed', completed_at: now })
          .where('id', '=', id)
          .where('status', '=', 'running')
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) return false;
        if (delivery) await trx.insertInto('webhook_deliveries').values(delivery).execute();
        return true;
      });
    },

    /** Ids of running batches, oldest first (the sweep moves each along). */
    async runningIds(limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('batches')
        .select('id')
        .where('status', '=', 'running')
        .orderBy('created_at')
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },

    /** The status of a batch's own webhook event (its outbox row is keyed by the batch id). */
    async webhookStatus(batchId: string): Promise<WebhookDeliveryRow['status'] | null> {
      const row = await db
        .selectFrom('webhook_deliveries')
        .select('status')
        .where('job_id', '=', batchId)
        .executeTakeFirst();
      return row?.status ?? null;
    },
  };
}

export type BatchesRepository = ReturnType<typeof createBatchesRepository>;

/** Thrown inside the create transaction to roll it back when the credits are short. */
class ShortOfCredits extends Error {
  readonly remaining: number;
  constructor(remaining: number) {
    super('Not enough credits');
    this.remaining = remaining;
  }
}
