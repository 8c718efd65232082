import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;

interface S3rverStore {
  putObject(object: { bucket: string; key: string }): Promise<{ size: number; md5: string }>;
  getResourcePath(bucket: string, key: string, kind: 'object'): string;
}

/**
 * s3rver answers a PUT before the object's file is written (its store resolves on the write
 * stream's `end()`, not its `finish`), so a GET right after could miss the object: seen once
 * in a full run on two loaded cores. S3 itself reads its writes; the store is made to wait
 * until the file holds the object (at most 10 s). By its MD5, which the store returns, not only
 * its size: an object overwritten by one of the same size would otherwise pass at once.
 */
function readsItsWrites(server: { store: S3rverStore }): void {
  const { store } = server;
  const putObject = store.putObject.bind(store);
  store.putObject = async (object) => {
    const result = await putObject(object);
    const file = store.getResourcePath(object.bucket, object.key, 'object');
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && (await fileMd5(file, result.size)) !== result.md5) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return result;
  };
}

/** The MD5 of `file` once it has `size` bytes; undefined before (or while it does not exist). */
async function fileMd5(file: string, size: number): Promise<string | undefined> {
  const stat = await fs.promises.stat(file).catch(() => undefined);
  if (stat?.size !== size) return undefined;
  const data = await fs.promises.readFile(file).catch(() => undefined);
  return data && crypto.createHash('md5').update(data).digest('hex');
}

/** A running s3rver: an S3-compatible server on loopback, for the S3 adapter's tests. */
export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** Credentials s3rver accepts (its fixed test pair). */
  credentials: { accessKeyId: string; secretAccessKey: string };
  close(): Promise<void>;
}

/**
 * Starts s3rver (no TypeScript types, hence the typed require) on 127.0.0.1 with a random port,
 * a temp data directory and one bucket.
 */
export async function startS3rver(bucket = 'vitrine-test'): Promise<TestS3Server> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  readsItsWrites(server as unknown as { store: S3rverStore });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    async close() {
      try {
        await server.close();
      } finally {
        fs.rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}
