import { describe, expect, it } from 'vitest';
import { createComposeCache } from './compose-cache.ts';
import type { RawImage } from './raster/pixels.ts';

const image = (bytes: number): RawImage => ({
  data: Buffer.alloc(bytes),
  width: bytes / 4,
  height: 1,
  channels: 4,
});

describe('compose cache', () => {
  it('drops the least recently used entries beyond the byte budget, keeping the newest', async () => {
    const cache = createComposeCache(48, 1000);
    for (const key of ['a', 'b', 'c']) {
      cache.set(key, Promise.resolve(image(400)));
      await cache.get(key);
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
    // 1200 bytes > 1000: the oldest (a) went; b and c stay.
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    cache.set('big', Promise.resolve(image(4000)));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(cache.size).toBe(1);
    expect(await cache.get<RawImage>('big')).toMatchObject({ width: 1000 });
  });

  it('drops an entry whose render failed, and bounds the entry count', async () => {
    const cache = createComposeCache(2);
    const failed = Promise.reject(new Error('no'));
    cache.set('x', failed);
    await failed.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(cache.get('x')).toBeUndefined();
    for (const key of ['a', 'b', 'c']) cache.set(key, Promise.resolve(image(4)));
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
  });
});
