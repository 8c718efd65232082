import { describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../packages/server/src/db/unique-violation.ts';
import { createUsersRepository } from '../../packages/server/src/db/users-repository.ts';
import { ENGINES } from '../support/test-app.ts';
import { at, id, useRepositoryDatabase } from './repository-kit.ts';

describe.each(ENGINES)('users repository on %s', (engine) => {
  const { db } = useRepositoryDatabase(engine);
  const newUser = (email: string) => ({
    id: id('usr'),
    email,
    passwordHash: null,
    monthlyCredits: 50,
    period: '2026-01',
    now: at(0),
  });

  it('inserts a user with its monthly credits and finds it by id and by email', async () => {
    const users = createUsersRepository(db());
    const row = await users.insert(newUser(`${id('a').toLowerCase()}@example.com`));
    expect(row).toMatchObject({ credits_remaining: 50, credits_monthly: 50, password_hash: null });
    expect(await users.findById(row.id)).toEqual(row);
    expect(await users.findByEmail(row.email)).toEqual(row);
    expect(await users.findById(id('usr'))).toBeUndefined();
    expect(await users.findByEmail('nobody@example.com')).toBeUndefined();
  });

  it('refuses a second user with the same email as a unique violation', async () => {
    const users = createUsersRepository(db());
    const email = `${id('dup').toLowerCase()}@example.com`;
    await users.insert(newUser(email));
    const error = await users.insert(newUser(email)).catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
  });

  it('lists users oldest first', async () => {
    const users = createUsersRepository(db());
    const late = await users.insert({ ...newUser(`${id('l').toLowerCase()}@example.com`), now: at(-50) });
    const early = await users.insert({ ...newUser(`${id('e').toLowerCase()}@example.com`), now: at(-100) });
    const ids = (await users.list()).map((u) => u.id);
    expect(ids.indexOf(early.id)).toBeLessThan(ids.indexOf(late.id));
  });

  it('sets a password and credits, keeping the monthly allocation when not given', async () => {
    const users = createUsersRepository(db());
    const row = await users.insert(newUser(`${id('p').toLowerCase()}@example.com`));
    await users.setPassword(row.id, 'hash', at(10));
    await users.setCredits(row.id, 7, undefined, '2026-02', at(20));
    expect(await users.findById(row.id)).toMatchObject({
      password_hash: 'hash',
      credits_remaining: 7,
      credits_monthly: 50,
      credits_period: '2026-02',
      updated_at: at(20),
    });
    await users.setCredits(row.id, 3, 100, '2026-03', at(30));
    expect(await users.findById(row.id)).toMatchObject({ credits_remaining: 3, credits_monthly: 100 });
  });
});
