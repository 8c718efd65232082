import type { Selectable } from 'kysely';
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

export function createUsersRepository(db: Db) {
  return {
    async insert(user: NewUser): Promise<UserRow> {
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
