import type { Selectable } from 'kysely';
import type { Db, WebSessionsTable } from './tables.ts';

export type WebSessionRow = Selectable<WebSessionsTable>;

/** Signed-in browser sessions, by the SHA-256 of their id. */
export function createWebSessionsRepository(db: Db) {
  return {
    async insert(row: WebSessionRow): Promise<void> {
      await db.insertInto('web_sessions').values(row).execute();
    },

    async findLive(idHash: string, now: string): Promise<WebSessionRow | undefined> {
      return db
        .selectFrom('web_sessions')
        .selectAll()
        .where('id_hash', '=', idHash)
        .where('expires_at', '>', now)
        .executeTakeFirst();
    },

    async delete(idHash: string): Promise<void> {
      await db.deleteFrom('web_sessions').where('id_hash', '=', idHash).execute();
    },

    async deleteForUser(userId: string): Promise<void> {
      await db.deleteFrom('web_sessions').where('user_id', '=', userId).execute();
    },

    async pruneExpired(now: string): Promise<void> {
      await db.deleteFrom('web_sessions').where('expires_at', '<=', now).execute();
    },
  };
}

export type WebSessionsRepository = ReturnType<typeof createWebSessionsRepository>;
