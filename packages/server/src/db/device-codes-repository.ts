import { type Selectable, sql } from 'kysely';
import type { ApiKeyRow } from './api-keys-repository.ts';
import type { Db, DeviceCodesTable } from './tables.ts';

export type DeviceCodeRow = Selectable<DeviceCodesTable>;

/** Device login codes; every state change is one conditional update, so races have one winner. */
export function createDeviceCodesRepository(db: Db) {
  return {
    async insert(row: DeviceCodeRow): Promise<void> {
      await db.insertInto('device_codes').values(row).execute();
    },

    async findByPollTokenHash(hash: string): Promise<DeviceCodeRow | undefined> {
      return db.selectFrom('device_codes').selectAll().where('poll_token_hash', '=', hash).executeTakeFirst();
    },

    async findByUserCode(userCode: string): Promise<DeviceCodeRow | undefined> {
      return db.selectFrom('device_codes').selectAll().where('user_code', '=', userCode).executeTakeFirst();
    },

    /**
     * Records a poll if the code was last polled at `previous` (compare-and-set): of several
     * concurrent polls exactly one passes, the others are too soon.
     */
    async recordPoll(id: string, previous: string | null, now: string): Promise<boolean> {
      const result = await db
        .updateTable('device_codes')
        .set({ last_polled_at: now })
        .where('id', '=', id)
        .where('last_polled_at', previous === null ? 'is' : '=', previous)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Adds `step` seconds to the code's interval and returns the new interval. */
    async slowDown(id: string, step: number): Promise<number> {
      await db
        .updateTable('device_codes')
        .set({ interval_seconds: sql`interval_seconds + ${step}` })
        .where('id', '=', id)
        .execute();
      const row = await db
        .selectFrom('device_codes')
        .select('interval_seconds')
        .where('id', '=', id)
        .executeTakeFirst();
      return row?.interval_seconds ?? step;
    },

    /** Approves or denies a pending, unexpired code; false when it was no longer pending. */
    async decide(id: string, decision: 'approved' | 'denied', userId: string, now: string): Promise<boolean> {
      const result = await db
        .updateTable('device_codes')
        .set({ status: decision, decided_by: userId, decided_at: now })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * Redeems an approved code and stores its key in one transaction: only one caller ever
     * moves it from approved to redeemed, and only that caller's key is stored.
     */
    async redeem(id: string, key: ApiKeyRow): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('device_codes')
          .set({ status: 'redeemed', api_key_id: key.id })
          .where('id', '=', id)
          .where('status', '=', 'approved')
          .where('expires_at', '>', key.created_at)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return false;
        await trx.insertInto('api_keys').values(key).execute();
        return true;
      });
    },

    /** Deletes codes that expired before `now`: they answer like unknown ones anyway. */
    async pruneExpired(now: string): Promise<void> {
      await db.deleteFrom('device_codes').where('expires_at', '<=', now).execute();
    },
  };
}

export type DeviceCodesRepository = ReturnType<typeof createDeviceCodesRepository>;
