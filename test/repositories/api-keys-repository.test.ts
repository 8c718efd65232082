import { describe, expect, it } from 'vitest';
import { createApiKeysRepository } from '../../packages/server/src/db/api-keys-repository.ts';
import { isUniqueViolation } from '../../packages/server/src/db/unique-violation.ts';
import { ENGINES } from '../support/test-app.ts';
import { apiKeyRow, at, id, insertUser, useRepositoryDatabase } from './repository-kit.ts';

describe.each(ENGINES)('API keys repository on %s', (engine) => {
  const { db } = useRepositoryDatabase(engine);

  it('finds a key by hash and by id, and nothing for unknown ones', async () => {
    const keys = createApiKeysRepository(db());
    const user = await insertUser(db());
    const row = apiKeyRow(user.id);
    await keys.insert(row);
    expect(await keys.findByHash(row.key_hash)).toEqual(row);
    expect(await keys.findById(row.id)).toEqual(row);
    expect(await keys.findByHash('0'.repeat(64))).toBeUndefined();
    expect(await keys.findById(id('key'))).toBeUndefined();
  });

  it('refuses a duplicate key hash', async () => {
    const keys = createApiKeysRepository(db());
    const user = await insertUser(db());
    const row = apiKeyRow(user.id);
    await keys.insert(row);
    const error = await keys
      .insert({ ...apiKeyRow(user.id), key_hash: row.key_hash })
      .catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
  });

  it("lists one account's keys oldest first with the owner's email, or every key", async () => {
    const keys = createApiKeysRepository(db());
    const owner = await insertUser(db());
    const other = await insertUser(db());
    const second = apiKeyRow(owner.id, { created_at: at(20) });
    const first = apiKeyRow(owner.id, { created_at: at(10) });
    const foreign = apiKeyRow(other.id);
    for (const row of [second, first, foreign]) await keys.insert(row);
    const listed = await keys.list(owner.id);
    expect(listed.map((k) => k.id)).toEqual([first.id, second.id]);
    expect(listed[0]?.email).toBe(owner.email);
    const all = (await keys.list()).map((k) => k.id);
    expect(all).toEqual(expect.arrayContaining([first.id, second.id, foreign.id]));
  });

  it('revokes once: a second revoke and an unknown id answer false', async () => {
    const keys = createApiKeysRepository(db());
    const user = await insertUser(db());
    const row = apiKeyRow(user.id);
    await keys.insert(row);
    expect(await keys.revoke(row.id, at(5))).toBe(true);
    expect(await keys.revoke(row.id, at(6))).toBe(false);
    expect(await keys.revoke(id('key'), at(6))).toBe(false);
    expect((await keys.findById(row.id))?.revoked_at).toBe(at(5));
  });

  it('records use at most once per window', async () => {
    const keys = createApiKeysRepository(db());
    const user = await insertUser(db());
    const row = apiKeyRow(user.id);
    await keys.insert(row);
    await keys.touchLastUsed(row.id, at(100), at(40));
    expect((await keys.findById(row.id))?.last_used_at).toBe(at(100));
    await keys.touchLastUsed(row.id, at(110), at(50)); // used at 100, after 50: fresh, no write
    expect((await keys.findById(row.id))?.last_used_at).toBe(at(100));
    await keys.touchLastUsed(row.id, at(300), at(200)); // stale: written
    expect((await keys.findById(row.id))?.last_used_at).toBe(at(300));
  });
});
