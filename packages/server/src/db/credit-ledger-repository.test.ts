import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestApp, type TestApp } from '../../../../test/support/test-app.ts';
import type { Principal } from '../auth/authenticate.ts';

// The credits contract, run on both engines: reserve is atomic (never overspends under
// concurrency), refund returns exactly once, test keys never debit, usage counts commits.
describe.each(ENGINES)('credits on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(() => t.close());

  async function principal(credits: number, mode: 'live' | 'test' = 'live'): Promise<Principal> {
    const key = await t.createKey({ credits, test: mode === 'test' });
    return { userId: key.userId, keyId: key.keyId, mode, scopes: [] };
  }

  it('never overspends under 40 concurrent reservations', async () => {
    const p = await principal(10);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, () => t.app.services.credits.reserve(p, 'capture', 1)),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(10);
    const rejected = outcomes.filter((o) => o.status === 'rejected') as PromiseRejectedResult[];
    expect(rejected).toHaveLength(30);
    expect(rejected[0]!.reason).toMatchObject({
      code: 'insufficient_credits',
      details: { required: 1, remaining: 0 },
    });
    expect((await t.app.services.credits.usage(p.userId)).credits_remaining).toBe(0);
  });

  it('refunds once and commits into usage', async () => {
    const p = await principal(5);
    const a = await t.app.services.credits.reserve(p, 'capture', 2);
    const b = await t.app.services.credits.reserve(p, 'capture', 2);
    expect((await t.app.services.credits.usage(p.userId)).credits_remaining).toBe(1);
    await a.refund();
    await a.refund();
    await a.commit();
    await b.commit();
    await b.refund();
    const usage = await t.app.services.credits.usage(p.userId);
    expect(usage.credits_remaining).toBe(3);
    expect(usage.credits_monthly).toBe(5);
    expect(usage.last_30_days).toEqual({ render_count: 1, credits_used: 2 });
    expect(usage.daily_breakdown).toEqual([
      { day: new Date().toISOString().slice(0, 10), renders: 1, credits: 2 },
    ]);
  });

  it('lets test keys render without debiting', async () => {
    const p = await principal(0, 'test');
    const r = await t.app.services.credits.reserve(p, 'capture', 3);
    expect(r.amount).toBe(0);
    await r.commit();
    const usage = await t.app.services.credits.usage(p.userId);
    expect(usage.credits_remaining).toBe(0);
    expect(usage.last_30_days.render_count).toBe(1);
  });

  it('resets the balance to the monthly allocation in a new month', async () => {
    const p = await principal(4);
    const r = await t.app.services.credits.reserve(p, 'capture', 4);
    await r.commit();
    await t.app.database.db
      .updateTable('users')
      .set({ credits_period: '2000-01' })
      .where('id', '=', p.userId)
      .execute();
    expect((await t.app.services.credits.usage(p.userId)).credits_remaining).toBe(4);
    await (await t.app.services.credits.reserve(p, 'capture', 1)).commit();
    expect((await t.app.services.credits.usage(p.userId)).credits_remaining).toBe(3);
  });
});
