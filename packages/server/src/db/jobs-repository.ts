import type { Insertable, Selectable } from 'kysely';
import type { Db, JobsTable, WebhookDeliveriesTable } from './tables.ts';

export type JobRow = Selectable<JobsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;

/** How a job ended: the result or the public error message. */
export type JobOutcome =
  | { status: 'completed'; result: string; completedAt: string }
  | { status: 'failed'; error: string; completedAt: string };

/** Async capture records (docs/api-decisions.md section 5). */
export function createJobsRepository(db: Db) {
  return {
    async insert(row: Insertable<JobsTable>): Promise<void> {
      await db.insertInto('jobs').values(row).execute();
    },

    /** A job of this account (undefined for another account's job). */
    async find(userId: string, id: string): Promise<JobRow | undefined> {
      return db
        .selectFrom('jobs')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    async findById(id: string): Promise<JobRow | undefined> {
      return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /**
     * Ids of unfinished jobs in the queue's hands (not a batch's held ones), oldest first: re-enqueued
     * at start in case a process died in between.
     */
    async pendingIds(limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('jobs')
        .select('id')
        .where('status', '=', 'pending')
        .where('held', '=', 0)
        .orderBy('created_at')
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },

    /**
     * Records the outcome of a pending job and, when it has a webhook, the outbox event, in one
     * transaction. False when the job was already finished (a re-delivery): nothing changes.
     */
    async finish(
      id: string,
      outcome: JobOutcome,
      delivery: WebhookDeliveryRow | undefined,
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable('jobs')
          .set({
            status: outcome.status,
            result: outcome.status === 'completed' ? outcome.result : null,
            error: outcome.status === 'failed' ? outcome.error : null,
            completed_at: outcome.completedAt,
            webhook_status: delivery ? 'pending' : null,
          })
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) return false;
        if (delivery) await trx.insertInto('webhook_deliveries').values(delivery).execute();
        return true;
      });
    },
  };
}

export type JobsRepository = ReturnType<typeof createJobsRepository>;

/** The webhook outbox; settling a delivery also sets its job's `webhook_status`. */
export function createWebhookDeliveriesRepository(db: Db) {
  return {
    async find(id: string): Promise<WebhookDeliveryRow | undefined> {
      return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async pendingIds(limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .orderBy('created_at')
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },

    /** Counts a failed attempt that will be retried. */
    async recordAttempt(id: string, attempt: { statusCode: number | null; error: string; now: string }) {
      await db
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          attempts: eb('attempts', '+', 1),
          last_status_code: attempt.statusCode,
          last_error: attempt.error,
          updated_at: attempt.now,
        }))
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .execute();
    },

    /** Ends a pending delivery as delivered or failed, once; false if it was already settled. */
    async settle(
      id: string,
      status: 'delivered' | 'failed',
      attempt: { statusCode: number | null; error: string | null; now: string },
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('webhook_deliveries')
          .set((eb) => ({
            status,
            attempts: eb('attempts', '+', 1),
            last_status_code: attempt.statusCode,
            last_error: attempt.error,
            updated_at: attempt.now,
            finished_at: attempt.now,
          }))
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .returning('job_id')
          .executeTakeFirst();
        if (!row) return false;
        await trx.updateTable('jobs').set({ webhook_status: status }).where('id', '=', row.job_id).execute();
        return true;
      });
    },
  };
}

export type WebhookDeliveriesRepository = ReturnType<typeof createWebhookDeliveriesRepository>;
