import type { BlobMeta, BlobOperationOptions, BlobStore, PutOptions, StoredBlob } from './blob-store.ts';

export interface BlobCacheOptions {
  /** Total bytes of content kept in memory (default 64 MiB); 0 keeps nothing. */
  maxBytes?: number;
  /** Larger blobs are never cached (default 8 MiB), so one huge image cannot flush the rest. */
  maxEntryBytes?: number;
}

/**
 * A {@link BlobStore} that keeps recently read blobs in memory (least recently used first out,
 * bounded by bytes) and merges concurrent reads of the same key into one store read. It makes the
 * CDN route's hot path a map lookup.
 *
 * Only for keys whose content never changes once written (render ids are unique): a write by
 * another process is not seen while the old content is cached. Writes and deletes through this
 * store update the cache. Missing keys are not cached. Returned buffers are shared: read only.
 */
export function createCachedBlobStore(inner: BlobStore, options: BlobCacheOptions = {}): BlobStore {
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const maxEntryBytes = Math.min(options.maxEntryBytes ?? 8 * 1024 * 1024, maxBytes);
  const entries = new Map<string, StoredBlob>();
  const pending = new Map<string, Promise<StoredBlob | null>>();
  let usedBytes = 0;
  // Bumped by writes and deletes, so a read that started before one does not cache stale bytes.
  let generation = 0;

  function forget(key: string): void {
    const entry = entries.get(key);
    if (entry === undefined) return;
    entries.delete(key);
    usedBytes -= entry.size;
  }

  function remember(key: string, blob: StoredBlob): void {
    forget(key);
    if (blob.size > maxEntryBytes) return;
    entries.set(key, blob);
    usedBytes += blob.size;
    for (const [oldKey] of entries) {
      if (usedBytes <= maxBytes) break;
      forget(oldKey);
    }
  }

  function load(key: string): Promise<StoredBlob | null> {
    const started = generation;
    const read = inner
      .get(key)
      .then((blob) => {
        if (blob !== null && generation === started) remember(key, blob);
        return blob;
      })
      .finally(() => {
        if (pending.get(key) === read) pending.delete(key);
      });
    pending.set(key, read);
    return read;
  }

  return {
    async put(key: string, data: Uint8Array, options: PutOptions): Promise<BlobMeta> {
      generation++;
      forget(key);
      const meta = await inner.put(key, data, options);
      generation++;
      forget(key);
      return meta;
    },

    async get(key: string): Promise<StoredBlob | null> {
      const hit = entries.get(key);
      if (hit !== undefined) {
        entries.delete(key);
        entries.set(key, hit);
        return hit;
      }
      // Reads are shared between callers, so no single caller's signal may cancel one.
      return pending.get(key) ?? load(key);
    },

    async head(key: string, options: BlobOperationOptions = {}): Promise<BlobMeta | null> {
      const hit = entries.get(key);
      if (hit !== undefined) return { contentType: hit.contentType, etag: hit.etag, size: hit.size };
      return inner.head(key, options);
    },

    async delete(key: string, options: BlobOperationOptions = {}): Promise<void> {
      generation++;
      forget(key);
      await inner.delete(key, options);
      generation++;
    },

    async close(): Promise<void> {
      entries.clear();
      usedBytes = 0;
      await inner.close();
    },
  };
}
