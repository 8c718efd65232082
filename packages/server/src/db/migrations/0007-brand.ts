import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Extracted brands cached per account and domain (7 days), so a domain is not re-extracted at once. */
export const brandMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('brand_cache')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('brand', 'text', (c) => c.notNull())
      .addColumn('extracted_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('brand_cache_pk', ['user_id', 'domain'])
      .execute();
  },
};
