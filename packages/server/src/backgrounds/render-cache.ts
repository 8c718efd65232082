import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { BackgroundAsset } from './catalogue.ts';
import {
  CONTENT_TYPES,
  RENDERER_VERSION,
  type RenderedBackground,
  type RenderOptions,
  renderBackground,
} from './render-background.ts';

/** The minimal blob storage the cache persists renders in (backed by the BlobStore in app.ts). */
export interface BackgroundRenderStore {
  get(key: string): Promise<{ data: Uint8Array; contentType: string } | null | undefined>;
  put(key: string, data: Uint8Array, contentType: string): Promise<void>;
}

export interface CachedRender {
  data: Buffer;
  contentType: string;
  /** Strong ETag: a hash of the cache key, which fixes the bytes. */
  etag: string;
}

export interface BackgroundRenderCache {
  /** The asset rendered at that size and format, from memory, the store, or freshly drawn. */
  render(asset: BackgroundAsset, options: RenderOptions): Promise<CachedRender>;
  /** A 2x2 mosaic of the first assets of a pack slice (its cover). */
  cover(
    key: string,
    assets: readonly BackgroundAsset[],
    size: { width: number; height: number },
  ): Promise<CachedRender>;
  /** The ETag a render would have, without rendering (for If-None-Match). */
  etagFor(key: string): string;
  keyFor(asset: BackgroundAsset, options: RenderOptions): string;
}

export interface BackgroundRenderCacheOptions {
  store?: BackgroundRenderStore;
  /** Renders drawn at the same time at most (they are CPU-bound). Default 2. */
  concurrency?: number;
  /** Bytes of recent renders kept in memory. Default 64 MiB. */
  memoryBytes?: number;
  render?: typeof renderBackground;
}

/**
 * A render cache keyed by asset, size, scale, format and renderer version: memory (LRU by
 * bytes) in front of the store, concurrent requests for one key share one render, and at most
 * `concurrency` renders run at once.
 */
export function createBackgroundRenderCache(
  options: BackgroundRenderCacheOptions = {},
): BackgroundRenderCache {
  const draw = options.render ?? renderBackground;
  const memoryLimit = options.memoryBytes ?? 64 * 1024 * 1024;
  const memory = new Map<string, CachedRender>();
  let memoryUsed = 0;
  const inFlight = new Map<string, Promise<CachedRender>>();
  const waiting: (() => void)[] = [];
  let running = 0;
  const limit = options.concurrency ?? 2;

  const etagFor = (key: string) => `"${createHash('sha256').update(key).digest('base64url').slice(0, 27)}"`;
  const keyFor = (asset: BackgroundAsset, o: RenderOptions) =>
    `bg/v${RENDERER_VERSION}/${asset.id}/${o.width}x${o.height}-s${o.scale ?? 1}-q${o.quality ?? 90}.${o.format}`;

  const remember = (key: string, value: CachedRender) => {
    if (value.data.length > memoryLimit / 4) return;
    memory.delete(key);
    memory.set(key, value);
    memoryUsed += value.data.length;
    for (const [k, v] of memory) {
      if (memoryUsed <= memoryLimit) break;
      memory.delete(k);
      memoryUsed -= v.data.length;
    }
  };

  async function withSlot<T>(work: () => Promise<T>): Promise<T> {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  }

  function cached(
    key: string,
    make: () => Promise<RenderedBackground | { data: Buffer; contentType: string }>,
  ): Promise<CachedRender> {
    const hit = memory.get(key);
    if (hit) {
      memory.delete(key);
      memory.set(key, hit);
      return Promise.resolve(hit);
    }
    const pending = inFlight.get(key);
    if (pending) return pending;
    const job = (async () => {
      const stored = await options.store?.get(key).catch(() => null);
      if (stored) {
        const value = { data: Buffer.from(stored.data), contentType: stored.contentType, etag: etagFor(key) };
        remember(key, value);
        return value;
      }
      const made = await withSlot(make);
      const value = { data: made.data, contentType: made.contentType, etag: etagFor(key) };
      // A failed write only costs a re-render later; the response does not depend on it.
      await options.store?.put(key, value.data, value.contentType).catch(() => undefined);
      remember(key, value);
      return value;
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, job);
    return job;
  }

  return {
    etagFor,
    keyFor,
    render: (asset, o) => cached(keyFor(asset, o), () => draw(asset, o)),
    cover: (key, assets, size) =>
      cached(`bg/v${RENDERER_VERSION}/covers/${key}-${size.width}x${size.height}.webp`, async () => {
        const w = Math.floor(size.width / 2);
        const h = Math.floor(size.height / 2);
        const picks = [0, 1, 2, 3].map((i) => assets[i % assets.length] as BackgroundAsset);
        const tiles = await Promise.all(
          picks.map((a) => draw(a, { width: w, height: h, format: 'png', scale: 0.5 })),
        );
        const data = await sharp({
          create: { width: w * 2, height: h * 2, channels: 3, background: '#000000' },
        })
          .composite(tiles.map((t, i) => ({ input: t.data, left: (i % 2) * w, top: Math.floor(i / 2) * h })))
          .webp({ quality: 88 })
          .toBuffer();
        return { data, contentType: CONTENT_TYPES.webp };
      }),
  };
}
