import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Videos (issue 37): a capture's video figures, null for a still. */
export const videoMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('captures').addColumn('video', 'text').execute();
  },
};
