import { describe, expect, it } from 'vitest';
import { type BlobMeta, type BlobStore, contentEtag, type StoredBlob } from './blob-store.ts';
import { createCachedBlobStore } from './cached-blob-store.ts';

/** An in-memory store that counts reads, with a gate to hold reads open. */
function countingStore() {
  const blobs = new Map<string, StoredBlob>();
  const reads: string[] = [];
  let gate: Promise<void> = Promise.resolve();
  const store: BlobStore = {
    async put(key, data, { contentType }) {
      const copy = Buffer.from(data);
      const meta: BlobMeta = { contentType, etag: contentEtag(copy), size: copy.length };
      blobs.set(key, { ...meta, data: copy });
      return meta;
    },
    async get(key) {
      reads.push(key);
      const blob = blobs.get(key) ?? null;
      await gate;
      return blob;
    },
    async head(key) {
      const blob = blobs.get(key);
      return blob ? { contentType: blob.contentType, etag: blob.etag, size: blob.size } : null;
    },
    async delete(key) {
      blobs.delete(key);
    },
    async close() {},
  };
  return {
    store,
    reads,
    hold(): () => void {
      let release!: () => void;
      gate = new Promise((resolve) => {
        release = resolve;
      });
      return release;
    },
  };
}

describe('cached blob store', () => {
  it('reads each blob from the store once while it stays cached', async () => {
    const inner = countingStore();
    const cache = createCachedBlobStore(inner.store);
    await inner.store.put('a', Buffer.from('aaa'), { contentType: 'x/a' });
    for (let i = 0; i < 5; i++) expect((await cache.get('a'))?.data.toString()).toBe('aaa');
    expect(inner.reads).toEqual(['a']);
  });

  it('merges concurrent reads of one key into one store read', async () => {
    const inner = countingStore();
    const cache = createCachedBlobStore(inner.store);
    await inner.store.put('a', Buffer.from('aaa'), { contentType: 'x/a' });
    const release = inner.hold();
    const reads = Array.from({ length: 10 }, () => cache.get('a'));
    release();
    expect((await Promise.all(reads)).every((b) => b?.data.toString() === 'aaa')).toBe(true);
    expect(inner.reads).toEqual(['a']);
  });

  it('evicts the least recently used blobs past the byte budget and skips oversized ones', async () => {
    const inner = countingStore();
    const cache = createCachedBlobStore(inner.store, { maxBytes: 10, maxEntryBytes: 6 });
    for (const key of ['a', 'b', 'c'])
      await inner.store.put(key, Buffer.alloc(4, key), { contentType: 'x/y' });
    await inner.store.put('big', Buffer.alloc(7), { contentType: 'x/y' });
    await cache.get('a');
    await cache.get('b');
    await cache.get('a'); // a is now the most recent
    await cache.get('c'); // 12 bytes > 10: b goes
    await cache.get('big');
    await cache.get('big');
    inner.reads.length = 0;
    await cache.get('a');
    await cache.get('c');
    expect(inner.reads).toEqual([]);
    await cache.get('b');
    expect(inner.reads).toEqual(['b']);
  });

  it('does not cache missing keys, and drops entries on put and delete', async () => {
    const inner = countingStore();
    const cache = createCachedBlobStore(inner.store);
    expect(await cache.get('a')).toBeNull();
    await inner.store.put('a', Buffer.from('one'), { contentType: 'x/y' });
    expect((await cache.get('a'))?.data.toString()).toBe('one');
    await cache.put('a', Buffer.from('two'), { contentType: 'x/y' });
    expect((await cache.get('a'))?.data.toString()).toBe('two');
    await cache.delete('a');
    expect(await cache.get('a')).toBeNull();
  });

  it('does not cache a read that a concurrent write overtook', async () => {
    const inner = countingStore();
    const cache = createCachedBlobStore(inner.store);
    await inner.store.put('a', Buffer.from('old'), { contentType: 'x/y' });
    const release = inner.hold();
    const stale = cache.get('a');
    const write = cache.put('a', Buffer.from('new'), { contentType: 'x/y' });
    release();
    await Promise.all([stale, write]);
    expect((await cache.get('a'))?.data.toString()).toBe('new');
  });
});
