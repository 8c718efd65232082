import { describe, expect, it } from 'vitest';
import { createApiKeysRepository } from '../../packages/server/src/db/api-keys-repository.ts';
import { createDeviceCodesRepository } from '../../packages/server/src/db/device-codes-repository.ts';
import { isUniqueViolation } from '../../packages/server/src/db/unique-violation.ts';
import { ENGINES } from '../support/test-app.ts';
import { apiKeyRow, at, deviceCodeRow, insertUser, useRepositoryDatabase } from './repository-kit.ts';

describe.each(ENGINES)('device codes repository on %s', (engine) => {
  const { db } = useRepositoryDatabase(engine);

  it('finds a code by poll token hash and by user code; both are unique', async () => {
    const codes = createDeviceCodesRepository(db());
    const row = deviceCodeRow();
    await codes.insert(row);
    expect(await codes.findByPollTokenHash(row.poll_token_hash)).toEqual(row);
    expect(await codes.findByUserCode(row.user_code)).toEqual(row);
    const sameUserCode = await codes
      .insert(deviceCodeRow({ user_code: row.user_code }))
      .catch((e: unknown) => e);
    expect(isUniqueViolation(sameUserCode)).toBe(true);
  });

  it('records a poll by compare-and-set: of concurrent polls exactly one passes', async () => {
    const codes = createDeviceCodesRepository(db());
    const row = deviceCodeRow();
    await codes.insert(row);
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) => codes.recordPoll(row.id, null, at(i + 1))),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const polled = (await codes.findByUserCode(row.user_code))?.last_polled_at ?? null;
    expect(await codes.recordPoll(row.id, null, at(20))).toBe(false);
    expect(await codes.recordPoll(row.id, polled, at(20))).toBe(true);
  });

  it('slows down by a step and answers the new interval', async () => {
    const codes = createDeviceCodesRepository(db());
    const row = deviceCodeRow({ interval_seconds: 5 });
    await codes.insert(row);
    expect(await codes.slowDown(row.id, 5)).toBe(10);
    expect(await codes.slowDown(row.id, 5)).toBe(15);
  });

  it('decides a pending unexpired code once', async () => {
    const codes = createDeviceCodesRepository(db());
    const user = await insertUser(db());
    const row = deviceCodeRow({ expires_at: at(100) });
    await codes.insert(row);
    const expired = deviceCodeRow({ expires_at: at(10) });
    await codes.insert(expired);
    expect(await codes.decide(expired.id, 'approved', user.id, at(50))).toBe(false);
    expect(await codes.decide(row.id, 'approved', user.id, at(50))).toBe(true);
    expect(await codes.decide(row.id, 'denied', user.id, at(51))).toBe(false);
    expect(await codes.findByUserCode(row.user_code)).toMatchObject({
      status: 'approved',
      decided_by: user.id,
      decided_at: at(50),
    });
  });

  it("redeems an approved code once, storing only the winner's key", async () => {
    const codes = createDeviceCodesRepository(db());
    const keys = createApiKeysRepository(db());
    const user = await insertUser(db());
    const row = deviceCodeRow({ expires_at: at(100) });
    await codes.insert(row);
    expect(await codes.redeem(row.id, apiKeyRow(user.id, { created_at: at(60) }))).toBe(false); // not approved
    await codes.decide(row.id, 'approved', user.id, at(50));
    const candidates = Array.from({ length: 4 }, () => apiKeyRow(user.id, { created_at: at(60) }));
    const outcomes = await Promise.all(candidates.map((key) => codes.redeem(row.id, key)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const winner = candidates[outcomes.indexOf(true)];
    expect((await codes.findByUserCode(row.user_code))?.api_key_id).toBe(winner?.id);
    const stored = (await keys.list(user.id)).map((k) => k.id);
    expect(stored).toEqual([winner?.id]);
  });

  it('prunes codes that expired', async () => {
    const codes = createDeviceCodesRepository(db());
    const old = deviceCodeRow({ expires_at: at(10) });
    const live = deviceCodeRow({ expires_at: at(1000) });
    await codes.insert(old);
    await codes.insert(live);
    await codes.pruneExpired(at(500));
    expect(await codes.findByUserCode(old.user_code)).toBeUndefined();
    expect(await codes.findByUserCode(live.user_code)).toEqual(live);
  });
});
