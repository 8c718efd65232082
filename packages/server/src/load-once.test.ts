import { describe, expect, it } from 'vitest';
import { loadOnce } from './load-once.ts';

describe('loadOnce', () => {
  it('loads on the first call only and shares the result', async () => {
    let loads = 0;
    const get = loadOnce(async () => {
      loads += 1;
      return { n: loads };
    });
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([get(), get()]);
    expect(a).toBe(b);
    expect(await get()).toBe(a);
    expect(loads).toBe(1);
  });

  it('tries again after a failed load', async () => {
    let loads = 0;
    const get = loadOnce(async () => {
      loads += 1;
      if (loads === 1) throw new Error('first load fails');
      return 'loaded';
    });
    await expect(get()).rejects.toThrow('first load fails');
    expect(await get()).toBe('loaded');
    expect(loads).toBe(2);
  });
});
