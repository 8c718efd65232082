/**
 * The raster renderer's cache: what does not depend on the screenshot (backgrounds at canvas
 * size, shadow masks, pages the browser renderer rendered) kept between renders in a small
 * least-recently-used map. The composition root creates one per process and passes it to every render.
 */
import type { RawImage } from './raster/pixels.ts';
import type { ShadowMask } from './raster/shadow.ts';

/**
 * What does not depend on the screenshot, kept between renders: backgrounds at canvas size and
 * shadow masks, keyed by their parameters; least recently used entries are dropped first.
 * Create one per process (or per worker) and pass it to every render.
 */
export interface ComposeCache {
  get<T extends RawImage | ShadowMask>(key: string): Promise<T> | undefined;
  set<T extends RawImage | ShadowMask>(key: string, value: Promise<T>): void;
  readonly size: number;
}

/**
 * Bounded by entry count and by bytes (the pixels of resolved entries): entries are canvas-size
 * images of up to 25 MB at dpr 2, so a count alone could hold gigabytes. The newest entry is
 * always kept, even when it alone is over the byte budget.
 */
export function createComposeCache(maxEntries = 48, maxBytes = 256 * 2 ** 20): ComposeCache {
  const entries = new Map<string, { value: Promise<RawImage | ShadowMask>; bytes: number }>();
  let bytes = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    bytes -= entry.bytes;
    entries.delete(key);
  };
  const evict = () => {
    while (entries.size > maxEntries || (bytes > maxBytes && entries.size > 1))
      drop(entries.keys().next().value as string);
  };
  return {
    get<T>(key: string) {
      const hit = entries.get(key);
      if (hit) {
        entries.delete(key);
        entries.set(key, hit);
      }
      return hit?.value as Promise<T> | undefined;
    },
    set(key, value) {
      drop(key);
      const entry = { value: value as Promise<RawImage | ShadowMask>, bytes: 0 };
      entries.set(key, entry);
      value.then(
        (resolved) => {
          if (entries.get(key) !== entry) return;
          // Every value is pixels (RawImage, ShadowMask); anything else counts for nothing.
          entry.bytes = (resolved as { data?: { length: number } } | undefined)?.data?.length ?? 0;
          bytes += entry.bytes;
          evict();
        },
        () => {
          if (entries.get(key) === entry) drop(key);
        },
      );
      evict();
    },
    get size() {
      return entries.size;
    },
  };
}
