import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors/app-error.ts';
import { dependencyUnavailable } from '../errors/dependency-outage.ts';
import { assertBlobKey } from './blob-key.ts';
import {
  type BlobMeta,
  type BlobOperationOptions,
  type BlobStore,
  contentEtag,
  type PutOptions,
  type StoredBlob,
} from './blob-store.ts';

export interface LocalBlobStoreOptions {
  /** Directory holding the blobs, e.g. `{VITRINE_DATA_DIR}/blobs`; created on first write. */
  root: string;
  /** Flush each blob to disk before it becomes visible (default true): no empty file after a crash. */
  fsync?: boolean;
}

/**
 * On disk each blob is one file `{root}/{key}.blob`: the magic `VTB1`, a 32-bit big-endian
 * header length, a JSON header `{contentType, etag}`, then the content. Keeping the metadata in
 * the same file makes a write one atomic rename (content type and etag can never disagree with
 * the bytes) and a read one file read. The `.blob` suffix keeps the key `a` and the key `a/b`
 * from colliding as file and directory.
 */
const MAGIC = Buffer.from('VTB1');
const PREFIX_BYTES = MAGIC.length + 4;
const MAX_HEADER_BYTES = 4096;
const SUFFIX = '.blob';

interface Header {
  contentType: string;
  etag: string;
}

function encodeHeader(header: Header): Buffer {
  const json = Buffer.from(JSON.stringify(header));
  const prefix = Buffer.alloc(PREFIX_BYTES);
  MAGIC.copy(prefix, 0);
  prefix.writeUInt32BE(json.length, MAGIC.length);
  return Buffer.concat([prefix, json]);
}

/** The header and where the content starts, from the first bytes of a blob file. */
function decodeHeader(bytes: Buffer, file: string): { header: Header; offset: number } {
  const length = bytes.length >= PREFIX_BYTES ? bytes.readUInt32BE(MAGIC.length) : -1;
  if (!bytes.subarray(0, MAGIC.length).equals(MAGIC) || length > MAX_HEADER_BYTES) {
    throw storageError(new Error(`${file} is not a blob file`));
  }
  const offset = PREFIX_BYTES + length;
  if (bytes.length < offset) throw storageError(new Error(`${file} has a truncated header`));
  const header = JSON.parse(bytes.subarray(PREFIX_BYTES, offset).toString('utf8')) as Header;
  return { header, offset };
}

/** A full disk (or quota) is a 503 naming the image disk (issue 41); any other failure a 500. */
function storageError(cause: unknown): AppError {
  const code = (cause as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return dependencyUnavailable('blob_store', cause, 'is full');
  return new AppError('internal_error', 'Blob storage failed', { cause });
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

/** A {@link BlobStore} on the local file system, for the single-process default. */
export function createLocalBlobStore(options: LocalBlobStoreOptions): BlobStore {
  const root = path.resolve(options.root);
  const fsync = options.fsync ?? true;

  function fileOf(key: string): string {
    assertBlobKey(key);
    return path.join(root, key + SUFFIX);
  }

  async function writeAtomically(file: string, parts: Buffer[], signal?: AbortSignal): Promise<void> {
    await fs.mkdir(path.dirname(file), { recursive: true });
    // The temp name starts with a dot, which no valid key segment does: it never shadows a blob.
    const temp = path.join(path.dirname(file), `.tmp-${randomBytes(8).toString('hex')}`);
    let renamed = false;
    try {
      const handle = await fs.open(temp, 'wx', 0o644);
      try {
        await handle.writev(parts);
        if (fsync) await handle.datasync();
      } finally {
        await handle.close();
      }
      signal?.throwIfAborted();
      await fs.rename(temp, file);
      renamed = true;
    } finally {
      if (!renamed) await fs.rm(temp, { force: true });
    }
  }

  return {
    async put(key: string, data: Uint8Array, { contentType, signal }: PutOptions): Promise<BlobMeta> {
      const file = fileOf(key);
      signal?.throwIfAborted();
      const content = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.length);
      const meta = { contentType, etag: contentEtag(content), size: content.length };
      try {
        await writeAtomically(file, [encodeHeader({ contentType, etag: meta.etag }), content], signal);
      } catch (error) {
        if (signal?.aborted) throw error;
        throw storageError(error);
      }
      return meta;
    },

    async get(key: string, options: BlobOperationOptions = {}): Promise<StoredBlob | null> {
      const file = fileOf(key);
      let bytes: Buffer;
      try {
        bytes = await fs.readFile(file, { signal: options.signal });
      } catch (error) {
        if (isMissing(error)) return null;
        if (options.signal?.aborted) throw error;
        throw storageError(error);
      }
      const { header, offset } = decodeHeader(bytes, file);
      const data = bytes.subarray(offset);
      return { data, contentType: header.contentType, etag: header.etag, size: data.length };
    },

    async head(key: string): Promise<BlobMeta | null> {
      const file = fileOf(key);
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(file, 'r');
      } catch (error) {
        if (isMissing(error)) return null;
        throw storageError(error);
      }
      try {
        const { size } = await handle.stat();
        const first = Buffer.alloc(Math.min(size, PREFIX_BYTES + MAX_HEADER_BYTES));
        const { bytesRead } = await handle.read(first, 0, first.length, 0);
        const { header, offset } = decodeHeader(first.subarray(0, bytesRead), file);
        return { contentType: header.contentType, etag: header.etag, size: size - offset };
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw storageError(error);
      } finally {
        await handle.close();
      }
    },

    async delete(key: string): Promise<void> {
      const file = fileOf(key);
      try {
        await fs.rm(file, { force: true });
      } catch (error) {
        if (!isMissing(error)) throw storageError(error);
      }
    },

    async close(): Promise<void> {},
  };
}
