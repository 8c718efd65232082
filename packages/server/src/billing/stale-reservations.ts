import type { Db } from '../db/tables.ts';

/**
 * Credits reserved for work whose owner could not settle them (issue 41): a sync capture whose
 * refund failed because the database went away at that moment, a process killed mid-capture, an
 * async capture whose job record could not be written. The client got an error (or no answer),
 * so the credits go back. A reservation is stale once it is older than any capture can run
 * (`olderThan`: the capture deadline plus a margin) and no pending job holds it; `refund`
 * settles each one at most once (the ledger's conditional update), so processes sweeping at
 * the same time cannot refund twice. Returns how many were refunded.
 */
export async function refundStaleReservations(
  db: Db,
  refund: (id: string) => Promise<boolean>,
  olderThan: string,
  limit = 500,
): Promise<number> {
  const rows = await db
    .selectFrom('credit_ledger')
    .select('id')
    .where('state', '=', 'reserved')
    .where('created_at', '<', olderThan)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('jobs')
            .select('jobs.id')
            .whereRef('jobs.reservation_id', '=', 'credit_ledger.id')
            .where('jobs.status', '=', 'pending'),
        ),
      ),
    )
    .orderBy('created_at')
    .limit(limit)
    .execute();
  let refunded = 0;
  for (const { id } of rows) if (await refund(id)) refunded++;
  return refunded;
}
