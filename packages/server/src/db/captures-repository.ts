import type { Selectable } from 'kysely';
import type { CapturesTable, Db } from './tables.ts';

export type CaptureRow = Selectable<CapturesTable>;

export function createCapturesRepository(db: Db) {
  return {
    async insert(row: CaptureRow): Promise<void> {
      await db.insertInto('captures').values(row).execute();
    },

    /** The newest result of this account for this cache key that is still reusable at `now`. */
    async findReusable(userId: string, cacheKey: string, now: string): Promise<CaptureRow | undefined> {
      return db
        .selectFrom('captures')
        .selectAll()
        .where('user_id', '=', userId)
        .where('cache_key', '=', cacheKey)
        .where('cache_expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    async find(userId: string, id: string): Promise<CaptureRow | undefined> {
      return db
        .selectFrom('captures')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },
  };
}

export type CapturesRepository = ReturnType<typeof createCapturesRepository>;
