import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startJobSweeper } from './job-sweeper.ts';

describe('startJobSweeper', () => {
  it('sweeps at its interval, reports what a sweep did, survives a failing sweep, and stops', async () => {
    const swept: Record<string, number>[] = [];
    const errors: unknown[] = [];
    let calls = 0;
    const sweeper = startJobSweeper({
      everyMs: 20,
      sweep: async () => {
        calls++;
        if (calls === 2) throw new Error('database down');
        return { captures: calls === 3 ? 2 : 0 };
      },
      onSwept: (counts) => swept.push(counts),
      onError: (error) => errors.push(error),
    });
    for (let i = 0; i < 200 && calls < 4; i++) await sleep(10);
    await sweeper.close();
    const after = calls;
    await sleep(80);
    expect(calls).toBe(after);
    expect(errors).toHaveLength(1);
    expect(swept).toEqual([{ captures: 2 }]);
  });

  it('does not hold a shutdown for a sweep that hangs', async () => {
    const sweeper = startJobSweeper({
      everyMs: 1,
      sweep: () => new Promise(() => undefined),
      onError: () => undefined,
    });
    await sleep(20);
    const started = Date.now();
    await sweeper.close();
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
