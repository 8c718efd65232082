import { describe, expect, it } from 'vitest';
import { createWebSessionsRepository } from '../../packages/server/src/db/web-sessions-repository.ts';
import { ENGINES } from '../support/test-app.ts';
import { at, id, insertUser, useRepositoryDatabase } from './repository-kit.ts';

describe.each(ENGINES)('web sessions repository on %s', (engine) => {
  const { db } = useRepositoryDatabase(engine);
  const session = (userId: string, expiresAt: string) => ({
    id_hash: id('h'),
    user_id: userId,
    ip: '127.0.0.1',
    user_agent: null,
    created_at: at(0),
    expires_at: expiresAt,
  });

  it('finds a live session only before it expires', async () => {
    const sessions = createWebSessionsRepository(db());
    const user = await insertUser(db());
    const row = session(user.id, at(100));
    await sessions.insert(row);
    expect(await sessions.findLive(row.id_hash, at(99))).toEqual(row);
    expect(await sessions.findLive(row.id_hash, at(100))).toBeUndefined();
    expect(await sessions.findLive(id('h'), at(0))).toBeUndefined();
  });

  it('deletes one session, every session of a user, and the expired ones', async () => {
    const sessions = createWebSessionsRepository(db());
    const user = await insertUser(db());
    const other = await insertUser(db());
    const [a, b, c] = [session(user.id, at(100)), session(user.id, at(100)), session(other.id, at(100))];
    const old = session(other.id, at(10));
    for (const row of [a, b, c, old]) await sessions.insert(row);
    await sessions.delete(a.id_hash);
    expect(await sessions.findLive(a.id_hash, at(0))).toBeUndefined();
    await sessions.deleteForUser(user.id);
    expect(await sessions.findLive(b.id_hash, at(0))).toBeUndefined();
    expect(await sessions.findLive(c.id_hash, at(0))).toEqual(c);
    await sessions.pruneExpired(at(50));
    expect(await sessions.findLive(old.id_hash, at(0))).toBeUndefined();
    expect(await sessions.findLive(c.id_hash, at(0))).toEqual(c);
  });
});
