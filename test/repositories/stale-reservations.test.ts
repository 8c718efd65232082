import { describe, expect, it } from 'vitest';
import { refundStaleReservations } from '../../packages/server/src/billing/stale-reservations.ts';
import { createCreditLedgerRepository } from '../../packages/server/src/db/credit-ledger-repository.ts';
import { createJobsRepository } from '../../packages/server/src/db/jobs-repository.ts';
import { ENGINES } from '../support/test-app.ts';
import { at, id, insertUser, jobRow, useRepositoryDatabase } from './repository-kit.ts';

describe.each(ENGINES)('refundStaleReservations on %s (issue 41)', (engine) => {
  const { db } = useRepositoryDatabase(engine);

  async function reserve(userId: string, createdAt: string): Promise<string> {
    const reservationId = id('crd');
    await db()
      .insertInto('credit_ledger')
      .values({
        id: reservationId,
        user_id: userId,
        api_key_id: null,
        kind: 'capture',
        amount: 2,
        state: 'reserved',
        created_at: createdAt,
        settled_at: null,
      })
      .execute();
    return reservationId;
  }

  it('refunds old unsettled reservations once, but not recent ones nor those of a pending job', async () => {
    const ledger = createCreditLedgerRepository(db());
    const user = await insertUser(db(), { credits_remaining: 4 });
    const orphan = await reserve(user.id, at(0));
    const recent = await reserve(user.id, at(500));
    const ofPendingJob = await reserve(user.id, at(0));
    await createJobsRepository(db()).insert({
      ...jobRow(user.id),
      status: 'pending',
      reservation_id: ofPendingJob,
      reservation_amount: 2,
    });
    const refund = (reservationId: string) => ledger.refund(reservationId, at(1000));
    // Two processes sweeping at once refund it once.
    const counts = await Promise.all([
      refundStaleReservations(db(), refund, at(100)),
      refundStaleReservations(db(), refund, at(100)),
    ]);
    expect(counts[0] + counts[1]).toBe(1);
    const states = await db()
      .selectFrom('credit_ledger')
      .select(['id', 'state'])
      .where('user_id', '=', user.id)
      .execute();
    expect(Object.fromEntries(states.map((r) => [r.id, r.state]))).toEqual({
      [orphan]: 'refunded',
      [recent]: 'reserved',
      [ofPendingJob]: 'reserved',
    });
    const after = await db()
      .selectFrom('users')
      .select('credits_remaining')
      .where('id', '=', user.id)
      .executeTakeFirst();
    expect(Number(after?.credits_remaining)).toBe(6);
  });
});
