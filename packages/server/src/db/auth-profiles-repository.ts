import type { Selectable, Updateable } from 'kysely';
import type { AuthProfilesTable, Db } from './tables.ts';

export type AuthProfileRow = Selectable<AuthProfilesTable>;

/** Auth profiles of one account: another account's id is indistinguishable from an unknown one. */
export function createAuthProfilesRepository(db: Db) {
  return {
    async insert(row: AuthProfileRow): Promise<void> {
      await db.insertInto('auth_profiles').values(row).execute();
    },

    async find(userId: string, id: string): Promise<AuthProfileRow | undefined> {
      return db
        .selectFrom('auth_profiles')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    async list(userId: string, projectId?: string): Promise<AuthProfileRow[]> {
      let query = db.selectFrom('auth_profiles').selectAll().where('user_id', '=', userId);
      if (projectId !== undefined) query = query.where('project_id', '=', projectId);
      return query.orderBy('created_at').orderBy('id').execute();
    },

    async update(userId: string, id: string, patch: Updateable<AuthProfilesTable>): Promise<boolean> {
      const result = await db
        .updateTable('auth_profiles')
        .set(patch)
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * Records a use (a capture or a test). `version` guards a test result: it is not applied to
     * a state that changed while the test ran. `unlessUsedSince` skips the write when the
     * recorded use is that recent (captures: one write a minute per profile, not one per capture).
     */
    async markUsed(
      userId: string,
      id: string,
      at: string,
      test?: { ok: boolean; version: number },
      unlessUsedSince?: string,
    ): Promise<void> {
      let query = db
        .updateTable('auth_profiles')
        .set({
          last_used_at: at,
          ...(test ? { last_test_ok: test.ok ? 1 : 0 } : {}),
        })
        .where('id', '=', id)
        .where('user_id', '=', userId);
      if (test) query = query.where('version', '=', test.version);
      if (unlessUsedSince !== undefined) {
        query = query.where((eb) =>
          eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', unlessUsedSince)]),
        );
      }
      await query.execute();
    },

    async delete(userId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('auth_profiles')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}

export type AuthProfilesRepository = ReturnType<typeof createAuthProfilesRepository>;
