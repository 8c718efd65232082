import { describe, expect, it } from 'vitest';
import { createCapturesRepository } from '../../packages/server/src/db/captures-repository.ts';
import { ENGINES } from '../support/test-app.ts';
import { at, captureRow, id, insertUser, useRepositoryDatabase } from './repository-kit.ts';

describe.each(ENGINES)('captures repository on %s', (engine) => {
  const { db } = useRepositoryDatabase(engine);

  it('finds a capture only for its account', async () => {
    const captures = createCapturesRepository(db());
    const owner = await insertUser(db());
    const other = await insertUser(db());
    const row = captureRow(owner.id);
    await captures.insert(row);
    expect(await captures.find(owner.id, row.id)).toEqual(row);
    expect(await captures.find(other.id, row.id)).toBeUndefined();
    expect(await captures.find(owner.id, id('cap'))).toBeUndefined();
  });

  it('reuses the newest unexpired result of the same account and cache key only', async () => {
    const captures = createCapturesRepository(db());
    const owner = await insertUser(db());
    const other = await insertUser(db());
    const key = id('key');
    const older = captureRow(owner.id, { cache_key: key, created_at: at(10), cache_expires_at: at(1000) });
    const newer = captureRow(owner.id, { cache_key: key, created_at: at(20), cache_expires_at: at(1000) });
    const expired = captureRow(owner.id, { cache_key: key, created_at: at(30), cache_expires_at: at(40) });
    for (const row of [older, newer, expired]) await captures.insert(row);
    await captures.insert(
      captureRow(other.id, { cache_key: key, created_at: at(50), cache_expires_at: at(1000) }),
    );
    expect((await captures.findReusable(owner.id, key, at(100)))?.id).toBe(newer.id);
    expect(await captures.findReusable(owner.id, key, at(1000))).toBeUndefined();
    expect(await captures.findReusable(owner.id, id('other-key'), at(100))).toBeUndefined();
  });
});
