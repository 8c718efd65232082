import { sql } from 'kysely';
import type { Db } from './tables.ts';
import type { NewUser, UserRow } from './users-repository.ts';

/**
 * Inserts the first user, only while there is none (first-run setup). On PostgreSQL the table
 * is locked for the check and the insert, so two setups racing create one account; SQLite runs
 * one write transaction at a time.
 */
export async function insertFirstUser(
  db: Db,
  engine: 'sqlite' | 'postgres',
  user: NewUser,
): Promise<UserRow | null> {
  return db.transaction().execute(async (trx) => {
    if (engine === 'postgres') await sql`lock table users in share row exclusive mode`.execute(trx);
    const existing = await trx.selectFrom('users').select('id').limit(1).executeTakeFirst();
    if (existing) return null;
    const row: UserRow = {
      id: user.id,
      email: user.email,
      password_hash: user.passwordHash,
      credits_remaining: user.monthlyCredits,
      credits_monthly: user.monthlyCredits,
      credits_period: user.period,
      created_at: user.now,
      updated_at: user.now,
    };
    await trx.insertInto('users').values(row).execute();
    return row;
  });
}

/** Whether any account exists (the setup page is open only while none does). */
export async function hasAnyUser(db: Db): Promise<boolean> {
  return (await db.selectFrom('users').select('id').limit(1).executeTakeFirst()) !== undefined;
}
