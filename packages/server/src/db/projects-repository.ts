import type { Selectable, Updateable } from 'kysely';
import type { Db, ProjectsTable } from './tables.ts';

export type ProjectRow = Selectable<ProjectsTable>;

export function createProjectsRepository(db: Db) {
  return {
    async insert(row: ProjectRow): Promise<void> {
      await db.insertInto('projects').values(row).execute();
    },

    /** A project of this account; another account's id is indistinguishable from an unknown one. */
    async find(userId: string, id: string): Promise<ProjectRow | undefined> {
      return db
        .selectFrom('projects')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    /** Any account's project, for signed URLs where the project id is the credential's subject. */
    async findAnyById(id: string): Promise<ProjectRow | undefined> {
      return db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async findDefault(userId: string): Promise<ProjectRow | undefined> {
      return db
        .selectFrom('projects')
        .selectAll()
        .where('user_id', '=', userId)
        .where('is_default', '=', 1)
        .executeTakeFirst();
    },

    async list(userId: string): Promise<ProjectRow[]> {
      return db
        .selectFrom('projects')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    async update(userId: string, id: string, patch: Updateable<ProjectsTable>): Promise<boolean> {
      const result = await db
        .updateTable('projects')
        .set(patch)
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Makes one project the default, in one transaction so there is never zero or two. */
    async setDefault(userId: string, id: string, now: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const target = await trx
          .selectFrom('projects')
          .select('id')
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (!target) return false;
        await trx
          .updateTable('projects')
          .set({ is_default: 0, updated_at: now })
          .where('user_id', '=', userId)
          .where('is_default', '=', 1)
          .where('id', '!=', id)
          .execute();
        await trx
          .updateTable('projects')
          .set({ is_default: 1, updated_at: now })
          .where('id', '=', id)
          .execute();
        return true;
      });
    },

    /** Inserts a project that becomes the default, unsetting the previous default atomically. */
    async insertAsDefault(row: ProjectRow): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('projects')
          .set({ is_default: 0, updated_at: row.created_at })
          .where('user_id', '=', row.user_id)
          .where('is_default', '=', 1)
          .execute();
        await trx
          .insertInto('projects')
          .values({ ...row, is_default: 1 })
          .execute();
      });
    },
  };
}

export type ProjectsRepository = ReturnType<typeof createProjectsRepository>;
