import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Auth profiles (docs/api-decisions.md section 8). The cookies and localStorage live only in `state_sealed`
 * (secrets/sealed-box.ts, the profile id as additional data); the other columns are what the API
 * returns and what status and cache keys need.
 */
export const authProfilesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('auth_profiles')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('project_id', 'text')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('state_sealed', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('cookie_count', 'integer', (c) => c.notNull())
      .addColumn('cookies_expire_at', 'text')
      .addColumn('last_test_ok', 'integer')
      .addColumn('last_used_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('auth_profiles_user_idx')
      .on('auth_profiles')
      .columns(['user_id', 'created_at'])
      .execute();
  },
};
