import { createHash } from 'node:crypto';

/** What a store knows about one stored blob besides its bytes. */
export interface BlobMeta {
  contentType: string;
  /**
   * A strong validator of the content: equal bytes give an equal etag in every store. Bare
   * (no quotes, `[A-Za-z0-9_-]`), so HTTP code quotes it itself.
   */
  etag: string;
  /** Length of the content in bytes. */
  size: number;
}

/** A blob read back from a store. */
export interface StoredBlob extends BlobMeta {
  data: Buffer;
}

export interface BlobOperationOptions {
  signal?: AbortSignal;
}

export interface PutOptions extends BlobOperationOptions {
  contentType: string;
}

/**
 * Where rendered images (and other immutable bytes) live: local disk or an S3-compatible object
 * store. Keys are `/`-separated paths checked by `assertBlobKey` (no traversal); every adapter
 * passes the one contract suite in test/storage/blob-store-contract.ts.
 *
 * Errors other than "not there" are `AppError('internal_error')` with the adapter's error as the
 * cause; an invalid key is a programming error and is reported the same way.
 */
export interface BlobStore {
  /** Stores (or replaces) a blob; readers see either the old or the new content, never a mix. */
  put(key: string, data: Uint8Array, options: PutOptions): Promise<BlobMeta>;
  /** The blob, or null when there is none under that key. */
  get(key: string, options?: BlobOperationOptions): Promise<StoredBlob | null>;
  /** The blob's metadata without its bytes, or null when there is none. */
  head(key: string, options?: BlobOperationOptions): Promise<BlobMeta | null>;
  /** Removes the blob; removing a missing key is not an error. */
  delete(key: string, options?: BlobOperationOptions): Promise<void>;
  /** Releases connections and handles; the store is not used afterwards. */
  close(): Promise<void>;
}

/** The etag every store uses: SHA-256 of the content, base64url (43 characters). */
export function contentEtag(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('base64url');
}
