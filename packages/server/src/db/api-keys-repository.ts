import type { Selectable } from 'kysely';
import type { ApiKeysTable, Db } from './tables.ts';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export function createApiKeysRepository(db: Db) {
  return {
    async insert(row: ApiKeyRow): Promise<void> {
      await db.insertInto('api_keys').values(row).execute();
    },

    async findByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
      return db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
    },

    async findById(id: string): Promise<ApiKeyRow | undefined> {
      return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async list(userId?: string): Promise<(ApiKeyRow & { email: string })[]> {
      let query = db
        .selectFrom('api_keys')
        .innerJoin('users', 'users.id', 'api_keys.user_id')
        .selectAll('api_keys')
        .select('users.email');
      if (userId !== undefined) query = query.where('api_keys.user_id', '=', userId);
      return query.orderBy('api_keys.created_at').execute();
    },

    /** Revokes a live key; false when it does not exist or was already revoked. */
    async revoke(id: string, now: string): Promise<boolean> {
      const result = await db
        .updateTable('api_keys')
        .set({ revoked_at: now })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * Records use, at most once per `staleBefore` window per key, so a busy key does not turn
     * every request into a write.
     */
    async touchLastUsed(id: string, now: string, staleBefore: string): Promise<void> {
      await db
        .updateTable('api_keys')
        .set({ last_used_at: now })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
        .execute();
    },
  };
}

export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
