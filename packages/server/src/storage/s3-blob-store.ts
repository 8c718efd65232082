import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
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

export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  /** For S3-compatible stores (MinIO, R2, Ceph...): their base URL. Unset: AWS. */
  endpoint?: string;
  /** `http(s)://endpoint/bucket/key` instead of `bucket.endpoint/key`; most self-hosted stores need it. */
  forcePathStyle?: boolean;
  /** Unset: the AWS SDK's default chain (instance role, web identity, shared config). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Prepended to every key, e.g. `vitrine/` to share a bucket; a trailing `/` is added if missing. */
  prefix?: string;
  /** Per-request time limit in ms (default 30 000), so a stuck store fails a render instead of hanging it. */
  requestTimeoutMs?: number;
}

/** User metadata holding the content's SHA-256 etag, so the etag is the same as on local disk. */
const ETAG_METADATA = 'sha256';

/**
 * A store that answers 5xx (S3's `SlowDown`, `ServiceUnavailable`), times out or cannot be reached
 * is unavailable for now: a 503 the client may retry, and a job retries it (issue 41). Anything
 * else (a refused credential, a missing bucket) is a configuration error: a 500.
 */
function storageError(cause: unknown): AppError {
  const status = (cause as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  if (status === undefined || status >= 500) return dependencyUnavailable('object_store', cause);
  return new AppError('internal_error', 'Object storage request failed', { cause });
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

function normalisePrefix(prefix: string | undefined): string {
  const trimmed = (prefix ?? '').replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '' : `${trimmed}/`;
}

/** The etag from our metadata, or the store's own (objects written by other tools). */
function etagOf(metadata: Record<string, string> | undefined, storeEtag: string | undefined): string {
  return metadata?.[ETAG_METADATA] ?? (storeEtag ?? '').replace(/^(W\/)?"|"$/g, '');
}

/** A {@link BlobStore} on S3 or an S3-compatible object store, for several processes sharing blobs. */
export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle ?? false,
    ...(options.credentials ? { credentials: options.credentials } : {}),
    requestHandler: { requestTimeout: options.requestTimeoutMs ?? 30_000, connectionTimeout: 5_000 },
    maxAttempts: 3,
  });
  const bucket = options.bucket;
  const prefix = normalisePrefix(options.prefix);

  function objectKey(key: string): string {
    assertBlobKey(key);
    return prefix + key;
  }

  return {
    async put(key: string, data: Uint8Array, { contentType, signal }: PutOptions): Promise<BlobMeta> {
      const Key = objectKey(key);
      const etag = contentEtag(data);
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key,
            Body: data,
            ContentType: contentType,
            ContentLength: data.length,
            Metadata: { [ETAG_METADATA]: etag },
          }),
          { abortSignal: signal },
        );
      } catch (error) {
        if (signal?.aborted) throw error;
        throw storageError(error);
      }
      return { contentType, etag, size: data.length };
    },

    async get(key: string, { signal }: BlobOperationOptions = {}): Promise<StoredBlob | null> {
      const Key = objectKey(key);
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key }), { abortSignal: signal });
        const bytes = out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
        const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
        return {
          data,
          contentType: out.ContentType ?? 'application/octet-stream',
          etag: etagOf(out.Metadata, out.ETag),
          size: data.length,
        };
      } catch (error) {
        if (isNotFound(error)) return null;
        if (signal?.aborted) throw error;
        throw storageError(error);
      }
    },

    async head(key: string, { signal }: BlobOperationOptions = {}): Promise<BlobMeta | null> {
      const Key = objectKey(key);
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket: bucket, Key }), {
          abortSignal: signal,
        });
        return {
          contentType: out.ContentType ?? 'application/octet-stream',
          etag: etagOf(out.Metadata, out.ETag),
          size: out.ContentLength ?? 0,
        };
      } catch (error) {
        if (isNotFound(error)) return null;
        if (signal?.aborted) throw error;
        throw storageError(error);
      }
    },

    async delete(key: string, { signal }: BlobOperationOptions = {}): Promise<void> {
      const Key = objectKey(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key }), { abortSignal: signal });
      } catch (error) {
        if (isNotFound(error)) return;
        if (signal?.aborted) throw error;
        throw storageError(error);
      }
    },

    async close(): Promise<void> {
      client.destroy();
    },
  };
}
