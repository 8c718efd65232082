import { type Selectable, sql } from 'kysely';
import type { Db, UsersTable } from './tables.ts';

export type UserRow = Selectable<UsersTable>;

export interface NewUser {
  id: string;
  email: string;
  passwordHash: string | null;
  monthlyCredits: number;
  period: string;
  now: string;
}

/** The row of a new account: its monthly credits all remaining. */
function rowOf(user: NewUser): UserRow {
  return {
    id: user.id,
    email: user.email,
    password_hash: user.passwordHash,
    credits_remaining: user.monthlyCredits,
    credits_monthly: user.monthlyCredits,
    credits_period: user.period,
    created_at: user.now,
    updated_at: user.now,
  };
}

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
    const row = rowOf(user);
    await trx.insertInto('users').values(row).execute();
    return row;
  });
}

/** Whether any account exists (the setup page is open only while none does). */
export async function hasAnyUser(db: Db): Promise<boolean> {
  return (await db.selectFrom('users').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export function createUsersRepository(db: Db) {
  return {
    async insert(user: NewUser): Promise<UserRow> {
      const row = rowOf(user);
      await db.insertInto('users').values(row).execute();
      return row;
    },

    async findById(id: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async findByEmail(email: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    },

    async list(): Promise<UserRow[]> {
      return db.selectFrom('users').selectAll().orderBy('created_at').execute();
    },

    async setPassword(id: string, passwordHash: string, now: string): Promise<void> {
      await db
        .updateTable('users')
        .set({ password_hash: passwordHash, updated_at: now })
        .where('id', '=', id)
        .execute();
    },

    /** Sets the balance and (optionally) the monthly allocation, starting the period now. */
    async setCredits(
      id: string,
      remaining: number,
      monthly: number | undefined,
      period: string,
      now: string,
    ) {
      await db
        .updateTable('users')
        .set({
          credits_remaining: remaining,
          ...(monthly === undefined ? {} : { credits_monthly: monthly }),
          credits_period: period,
          updated_at: now,
        })
        .where('id', '=', id)
        .execute();
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
