import { randomBytes } from 'node:crypto';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBlobStoreContract } from '../../../../test/storage/blob-store-contract.ts';
import { startS3rver, type TestS3Server } from '../../../../test/storage/s3rver.ts';
import { createS3BlobStore, type S3BlobStoreOptions } from './s3-blob-store.ts';

let server: TestS3Server;
beforeAll(async () => {
  server = await startS3rver();
});
afterAll(() => server.close());

function options(prefix?: string): S3BlobStoreOptions {
  return {
    bucket: server.bucket,
    region: 'us-east-1',
    endpoint: server.endpoint,
    forcePathStyle: true,
    credentials: server.credentials,
    ...(prefix === undefined ? {} : { prefix }),
  };
}

// s3rver is the maintained-enough fake on npm (no MinIO package here); see BackendLimits.
const s3rverLimits = { tornConcurrentOverwrites: true };
describeBlobStoreContract('S3 (s3rver)', async () => createS3BlobStore(options()), s3rverLimits);
describeBlobStoreContract(
  'S3 (s3rver) with a key prefix',
  async () => createS3BlobStore(options(`/p-${randomBytes(4).toString('hex')}`)),
  s3rverLimits,
);

describe('S3 blob store against the bucket', () => {
  it('stores under the prefix with the content type, and reads objects written by other tools', async () => {
    const store = createS3BlobStore(options('tenant-a'));
    const raw = new S3Client({
      region: 'us-east-1',
      endpoint: server.endpoint,
      forcePathStyle: true,
      credentials: server.credentials,
    });
    try {
      await store.put('renders/cap_B.webp', Buffer.from('webp'), { contentType: 'image/webp' });
      const object = await raw.send(
        new GetObjectCommand({ Bucket: server.bucket, Key: 'tenant-a/renders/cap_B.webp' }),
      );
      expect(object.ContentType).toBe('image/webp');
      expect(await object.Body?.transformToString()).toBe('webp');

      await raw.send(
        new PutObjectCommand({
          Bucket: server.bucket,
          Key: 'tenant-a/foreign.bin',
          Body: 'x',
          ContentType: 'text/plain',
        }),
      );
      const foreign = await store.head('foreign.bin');
      expect(foreign).toMatchObject({ contentType: 'text/plain', size: 1 });
      expect(foreign?.etag).toMatch(/^[0-9a-f]{32}$/);
    } finally {
      raw.destroy();
      await store.close();
    }
  });

  it('reports an unreachable store as unavailable (503 overloaded, naming the object store)', async () => {
    const store = createS3BlobStore({ ...options(), endpoint: 'http://127.0.0.1:9', requestTimeoutMs: 2000 });
    try {
      await expect(store.get('renders/x.png')).rejects.toMatchObject({
        code: 'overloaded',
        status: 503,
        details: { dependency: 'object_store' },
      });
    } finally {
      await store.close();
    }
  });
});
