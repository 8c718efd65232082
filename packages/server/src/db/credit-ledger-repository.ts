import { sql } from 'kysely';
import type { Db } from './tables.ts';

export interface ReserveInput {
  id: string;
  userId: string;
  apiKeyId: string | null;
  kind: string;
  amount: number;
  /** Current UTC month; a balance from an older month is first reset to the allocation. */
  period: string;
  now: string;
}

export type ReserveOutcome = { ok: true } | { ok: false; remaining: number };

export interface DailyUsage {
  day: string;
  renders: number;
  credits: number;
}

/** Reservations made together: one debit of their sum, one ledger row each. */
export interface ReserveManyInput {
  userId: string;
  apiKeyId: string | null;
  period: string;
  now: string;
  entries: { id: string; kind: string; amount: number }[];
}

/**
 * Inside a transaction: debits the sum of `entries` in one conditional UPDATE (nothing when the
 * balance is short) and records each entry as `reserved`, so each is committed or refunded on
 * its own later. A batch (db/batches-repository.ts) reserves all its renders this way.
 */
export async function reserveWithin(trx: Db, input: ReserveManyInput): Promise<ReserveOutcome> {
  const total = input.entries.reduce((sum, entry) => sum + entry.amount, 0);
  const balance = sql<number>`(case when credits_period = ${input.period} then credits_remaining else credits_monthly end)`;
  const updated = await trx
    .updateTable('users')
    .set({
      credits_remaining: sql<number>`${balance} - ${total}`,
      credits_period: input.period,
    })
    .where('id', '=', input.userId)
    .where(balance, '>=', total)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) {
    const row = await trx
      .selectFrom('users')
      .select(['credits_remaining', 'credits_monthly', 'credits_period'])
      .where('id', '=', input.userId)
      .executeTakeFirst();
    const remaining = !row
      ? 0
      : row.credits_period === input.period
        ? row.credits_remaining
        : row.credits_monthly;
    return { ok: false as const, remaining };
  }
  if (input.entries.length > 0) {
    await trx
      .insertInto('credit_ledger')
      .values(
        input.entries.map((entry) => ({
          id: entry.id,
          user_id: input.userId,
          api_key_id: input.apiKeyId,
          kind: entry.kind,
          amount: entry.amount,
          state: 'reserved' as const,
          created_at: input.now,
          settled_at: null,
        })),
      )
      .execute();
  }
  return { ok: true as const };
}

/**
 * Credits move in one conditional UPDATE per reservation, so concurrent requests can never
 * overspend, on SQLite and PostgreSQL alike; the ledger row records what to refund or count.
 */
export function createCreditLedgerRepository(db: Db) {
  return {
    async reserve(input: ReserveInput): Promise<ReserveOutcome> {
      return db.transaction().execute((trx) =>
        reserveWithin(trx, {
          ...input,
          entries: [{ id: input.id, kind: input.kind, amount: input.amount }],
        }),
      );
    },

    /** Marks a reservation committed; false if it was not in the reserved state. */
    async commit(id: string, now: string): Promise<boolean> {
      const result = await db
        .updateTable('credit_ledger')
        .set({ state: 'committed', settled_at: now })
        .where('id', '=', id)
        .where('state', '=', 'reserved')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Returns a reservation's credits, once: the state change and the refund are one transaction. */
    async refund(id: string, now: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const entry = await trx
          .updateTable('credit_ledger')
          .set({ state: 'refunded', settled_at: now })
          .where('id', '=', id)
          .where('state', '=', 'reserved')
          .returning(['user_id', 'amount'])
          .executeTakeFirst();
        if (!entry) return false;
        await trx
          .updateTable('users')
          .set({ credits_remaining: sql<number>`credits_remaining + ${entry.amount}` })
          .where('id', '=', entry.user_id)
          .execute();
        return true;
      });
    },

    async balance(
      userId: string,
      period: string,
    ): Promise<{ remaining: number; monthly: number } | undefined> {
      const row = await db
        .selectFrom('users')
        .select(['credits_remaining', 'credits_monthly', 'credits_period'])
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        remaining: row.credits_period === period ? row.credits_remaining : row.credits_monthly,
        monthly: row.credits_monthly,
      };
    },

    /** Committed renders and credits per UTC day since `since` (inclusive). */
    async dailyUsage(userId: string, since: string): Promise<DailyUsage[]> {
      const day = sql<string>`substr(created_at, 1, 10)`;
      const rows = await db
        .selectFrom('credit_ledger')
        .select([
          day.as('day'),
          sql<number>`count(*)`.as('renders'),
          sql<number>`coalesce(sum(amount), 0)`.as('credits'),
        ])
        .where('user_id', '=', userId)
        .where('state', '=', 'committed')
        .where('created_at', '>=', since)
        .groupBy(day)
        .orderBy(day)
        .execute();
      return rows.map((r) => ({ day: r.day, renders: Number(r.renders), credits: Number(r.credits) }));
    },
  };
}

export type CreditLedgerRepository = ReturnType<typeof createCreditLedgerRepository>;
