import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Batches (issue 39): one row per `POST /v1/batch`; its renders are ordinary jobs that name the
 * batch, their item and their look. A job of a batch is `held` until the batch's window lets it
 * into the capture queue (jobs/batch-service.ts), so one batch never fills the queue ahead of
 * other accounts' work. The idempotency key is unique per account.
 */
export const batchesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('batches')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('api_key_id', 'text')
      .addColumn('project_id', 'text')
      .addColumn('idempotency_key', 'text')
      .addColumn('request_hash', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('looks', 'text', (c) => c.notNull())
      .addColumn('total', 'integer', (c) => c.notNull())
      .addColumn('credits_reserved', 'integer', (c) => c.notNull())
      .addColumn('webhook_url', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('completed_at', 'text')
      .execute();
    await db.schema
      .createIndex('batches_user_idempotency_uq')
      .on('batches')
      .columns(['user_id', 'idempotency_key'])
      .unique()
      .where(sql.ref('idempotency_key'), 'is not', null)
      .execute();
    await db.schema.createIndex('batches_status_idx').on('batches').column('status').execute();
    await db.schema.alterTable('jobs').addColumn('batch_id', 'text').execute();
    await db.schema.alterTable('jobs').addColumn('batch_index', 'integer').execute();
    await db.schema.alterTable('jobs').addColumn('batch_look', 'text').execute();
    await db.schema.alterTable('jobs').addColumn('batch_look_rank', 'integer').execute();
    await db.schema
      .alterTable('jobs')
      .addColumn('held', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('jobs_batch_idx').on('jobs').columns(['batch_id', 'status']).execute();
  },
};
