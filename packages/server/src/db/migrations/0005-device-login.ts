import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Device login codes and the web pages' sessions. Only hashes of the secrets are stored: the
 * SHA-256 of a code's poll token and of a session id.
 */
export const deviceLoginMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('device_codes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_code', 'text', (c) => c.notNull().unique())
      .addColumn('poll_token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('client_name', 'text')
      .addColumn('client_ip', 'text', (c) => c.notNull())
      .addColumn('user_agent', 'text')
      .addColumn('interval_seconds', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('last_polled_at', 'text')
      .addColumn('decided_by', 'text')
      .addColumn('decided_at', 'text')
      .addColumn('api_key_id', 'text')
      .execute();
    await db.schema.createIndex('device_codes_expires_idx').on('device_codes').column('expires_at').execute();

    await db.schema
      .createTable('web_sessions')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('user_agent', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('web_sessions_user_idx').on('web_sessions').column('user_id').execute();
    await db.schema.createIndex('web_sessions_expires_idx').on('web_sessions').column('expires_at').execute();
  },
};
