import { type Kysely, sql } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import { deviceLoginMigration } from './migrations/0005-device-login.ts';
import { authProfilesMigration } from './migrations/0006-auth-profiles.ts';
import { brandMigration } from './migrations/0007-brand.ts';
import { videoMigration } from './migrations/0008-video.ts';
import { captureMetadataMigration } from './migrations/0009-capture-metadata.ts';
import { creditLedgerStateMigration } from './migrations/0010-credit-ledger-state.ts';
import { batchesMigration } from './migrations/0011-batches.ts';

/**
 * Migrations, in order. Types are chosen to mean the same on SQLite and PostgreSQL: text,
 * integer, and bigint only where counts can grow large.
 */
const MIGRATIONS: Record<string, Migration> = {
  '0001_accounts_keys_projects_credits': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text')
        .addColumn('credits_remaining', 'integer', (c) => c.notNull())
        .addColumn('credits_monthly', 'integer', (c) => c.notNull())
        .addColumn('credits_period', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('display_prefix', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('api_keys_user_idx').on('api_keys').column('user_id').execute();

      await db.schema
        .createTable('projects')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('domain', 'text')
        .addColumn('brand', 'text')
        .addColumn('brand_status', 'text', (c) => c.notNull())
        .addColumn('brand_error', 'text')
        .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('signing_secret_sealed', 'text', (c) => c.notNull())
        .addColumn('previous_signing_secret_sealed', 'text')
        .addColumn('previous_signing_secret_expires_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      // One project per domain per account, and one default per account: enforced by the
      // engine so that concurrent requests cannot break them.
      await db.schema
        .createIndex('projects_user_domain_uq')
        .on('projects')
        .columns(['user_id', 'domain'])
        .unique()
        .where(sql.ref('domain'), 'is not', null)
        .execute();
      await db.schema
        .createIndex('projects_user_default_uq')
        .on('projects')
        .column('user_id')
        .unique()
        .where(sql.ref('is_default'), '=', 1)
        .execute();

      await db.schema
        .createTable('credit_ledger')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('api_key_id', 'text')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('settled_at', 'text')
        .execute();
      await db.schema
        .createIndex('credit_ledger_user_created_idx')
        .on('credit_ledger')
        .columns(['user_id', 'created_at'])
        .execute();
    },
  },
  '0002_captures': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('captures')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('api_key_id', 'text')
        .addColumn('project_id', 'text')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('cache_key', 'text', (c) => c.notNull())
        .addColumn('blob_key', 'text', (c) => c.notNull())
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('bytes', 'integer', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('credits_used', 'integer', (c) => c.notNull())
        .addColumn('warnings', 'text', (c) => c.notNull())
        .addColumn('resolved_params', 'text', (c) => c.notNull())
        .addColumn('ai_decisions', 'text', (c) => c.notNull())
        .addColumn('element_resolved', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('cache_expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('captures_cache_idx')
        .on('captures')
        .columns(['user_id', 'cache_key', 'cache_expires_at'])
        .execute();
    },
  },
  '0003_jobs_queue_webhooks': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('queue_jobs')
        .addColumn('queue', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('max_attempts', 'integer', (c) => c.notNull())
        .addColumn('run_at', 'text', (c) => c.notNull())
        .addColumn('lease_token', 'text')
        .addColumn('lease_expires_at', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .addPrimaryKeyConstraint('queue_jobs_pk', ['queue', 'id'])
        .execute();
      await db.schema
        .createIndex('queue_jobs_claim_idx')
        .on('queue_jobs')
        .columns(['queue', 'status', 'run_at'])
        .execute();

      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('api_key_id', 'text')
        .addColumn('api_key_mode', 'text', (c) => c.notNull())
        .addColumn('project_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('request', 'text', (c) => c.notNull())
        .addColumn('result', 'text')
        .addColumn('error', 'text')
        .addColumn('webhook_url', 'text')
        .addColumn('webhook_status', 'text')
        .addColumn('reservation_id', 'text', (c) => c.notNull())
        .addColumn('reservation_amount', 'integer', (c) => c.notNull())
        .addColumn('capture_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('completed_at', 'text')
        .execute();
      await db.schema.createIndex('jobs_status_idx').on('jobs').columns(['status', 'created_at']).execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('job_id', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('project_id', 'text')
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('last_status_code', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_status_idx')
        .on('webhook_deliveries')
        .column('status')
        .execute();
    },
  },
  '0005_device_login': deviceLoginMigration,
  '0006_auth_profiles': authProfilesMigration,
  '0007_brand': brandMigration,
  '0008_video': videoMigration,
  '0009_capture_metadata': captureMetadataMigration,
  '0010_credit_ledger_state': creditLedgerStateMigration,
  '0011_batches': batchesMigration,
};

class StaticMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS;
  }
}

/**
 * Brings the schema up to date; throws with the failing migration's name. `schema` (PostgreSQL)
 * is where Kysely's own bookkeeping tables live: without it Kysely looks for them in every
 * schema, and a fresh schema migrated while another one exists would skip creating them.
 */
export async function migrateToLatest(db: Kysely<unknown>, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: new StaticMigrationProvider(),
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}
