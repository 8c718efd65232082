import type { Db } from './tables.ts';

/** The brand extraction's SQL: a project's brand status and the per-account brand cache. */
export function createBrandRepository(db: Db) {
  return {
    /** Sets brand fields of a project (`where domain` when given: a later PATCH wins). */
    async updateProject(
      projectId: string,
      patch: Record<string, unknown>,
      now: string,
      domain?: string,
    ): Promise<void> {
      let query = db
        .updateTable('projects')
        .set({ ...patch, updated_at: now })
        .where('id', '=', projectId);
      if (domain !== undefined) query = query.where('domain', '=', domain);
      await query.execute();
    },

    async findProject(projectId: string) {
      return db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirst();
    },

    /** A brand of this account and domain extracted after `since`, if any. */
    async findCached(userId: string, domain: string, since: string) {
      return db
        .selectFrom('brand_cache')
        .selectAll()
        .where('user_id', '=', userId)
        .where('domain', '=', domain)
        .where('extracted_at', '>', since)
        .executeTakeFirst();
    },

    async putCached(userId: string, domain: string, brand: string, now: string): Promise<void> {
      await db
        .insertInto('brand_cache')
        .values({ user_id: userId, domain, brand, extracted_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'domain']).doUpdateSet({ brand, extracted_at: now }))
        .execute();
    },
  };
}

export type BrandRepository = ReturnType<typeof createBrandRepository>;
