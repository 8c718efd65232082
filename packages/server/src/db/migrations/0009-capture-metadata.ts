import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** The page metadata of a capture made with `metadata: true` (JSON), null otherwise. */
export const captureMetadataMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('captures').addColumn('metadata', 'text').execute();
  },
};
