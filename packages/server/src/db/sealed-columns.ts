import type { Kysely } from 'kysely';
import type { Database, Db } from './tables.ts';

/**
 * Every column that holds a sealed value (secrets/sealed-box.ts), with the column that is its
 * record id (the additional data it was sealed with). Master key rotation re-wraps exactly
 * these; a new sealed column is added here, or rotation would leave it unreadable.
 */
export const SEALED_COLUMNS = [
  { table: 'projects', id: 'id', columns: ['signing_secret_sealed', 'previous_signing_secret_sealed'] },
  { table: 'auth_profiles', id: 'id', columns: ['state_sealed'] },
] as const satisfies readonly {
  table: keyof Database;
  id: string;
  columns: readonly string[];
}[];

/** Counts of what a rotation re-wrapped, per table. */
export type RewrapCounts = Record<(typeof SEALED_COLUMNS)[number]['table'], number>;

// The registry names tables and columns as data; this view lets one loop read and write them.
type AnyTables = Record<string, Record<string, string | null>>;

/**
 * Re-wraps every sealed value in one transaction: all of them, or (on any failure, e.g. a
 * value that does not open under the current key) none.
 */
export async function rewrapSealedColumns(
  db: Db,
  rewrap: (sealed: string, recordId: string) => string,
): Promise<RewrapCounts> {
  return db.transaction().execute(async (trx) => {
    const any = trx as unknown as Kysely<AnyTables>;
    const counts = {} as RewrapCounts;
    for (const { table, id, columns } of SEALED_COLUMNS) {
      const rows = await any
        .selectFrom(table)
        .select([id, ...columns])
        .execute();
      for (const row of rows) {
        const recordId = row[id] as string;
        const patch: Record<string, string> = {};
        for (const column of columns) {
          const value = row[column];
          if (typeof value === 'string') patch[column] = rewrap(value, recordId);
        }
        if (Object.keys(patch).length > 0) {
          await any.updateTable(table).set(patch).where(id, '=', recordId).execute();
        }
      }
      counts[table] = rows.length;
    }
    return counts;
  });
}
