import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Issue 41: every process's sweep looks for reservations left `reserved` (billing/
 * stale-reservations.ts) every `VITRINE_JOB_SWEEP_MS`; without this index that is a scan of the
 * whole ledger each time.
 */
export const creditLedgerStateMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('credit_ledger_state_created_idx')
      .on('credit_ledger')
      .columns(['state', 'created_at'])
      .execute();
  },
};
