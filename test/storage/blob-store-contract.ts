import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../packages/server/src/errors/app-error.ts';
import { type BlobStore, contentEtag } from '../../packages/server/src/storage/blob-store.ts';

/** Keys every store must refuse: traversal, absolute paths, backslashes, NUL, empty segments. */
export const INVALID_BLOB_KEYS = [
  '',
  '..',
  '../escape.bin',
  'renders/../../escape.bin',
  'renders/..',
  './here.bin',
  '/etc/passwd',
  'renders//double.bin',
  'renders/',
  'renders\\..\\escape.bin',
  'nul\0byte.bin',
  '.hidden',
  'spaces are not allowed',
  'x'.repeat(513),
];

/** Known defects of a test backend (never of an adapter), each skipping the check it breaks. */
export interface BackendLimits {
  /**
   * Concurrent PUTs of one key can leave a mix of their bytes. s3rver's file system store writes
   * each PUT straight into the object's file (lib/stores/filesystem.js `putObject`), where S3 and
   * MinIO make the last complete PUT win.
   */
  tornConcurrentOverwrites?: boolean;
}

/**
 * The behaviour every {@link BlobStore} adapter must have. `factory` returns a fresh, empty store
 * (tests also use unique keys); the suite closes it after each test.
 */
export function describeBlobStoreContract(
  name: string,
  factory: () => Promise<BlobStore>,
  limits: BackendLimits = {},
): void {
  describe(`BlobStore contract: ${name}`, () => {
    let store: BlobStore;
    let n = 0;
    const key = (prefix = 'renders') => `${prefix}/k${++n}_${randomBytes(4).toString('hex')}.bin`;

    beforeEach(async () => {
      store = await factory();
    });
    afterEach(async () => {
      await store.close();
    });

    it('puts, gets and heads a blob with its content type, size and content etag', async () => {
      const k = key();
      const data = Buffer.from('hello, vitrine');
      const put = await store.put(k, data, { contentType: 'image/png' });
      expect(put).toEqual({ contentType: 'image/png', etag: contentEtag(data), size: data.length });
      expect(put.etag).toMatch(/^[A-Za-z0-9_-]+$/);
      const got = await store.get(k);
      expect(got).not.toBeNull();
      expect(Buffer.compare(got!.data, data)).toBe(0);
      expect({ ...got, data: undefined }).toEqual({ ...put, data: undefined });
      expect(await store.head(k)).toEqual(put);
    });

    it('returns null for missing keys and deletes missing keys quietly', async () => {
      const k = key('missing');
      expect(await store.get(k)).toBeNull();
      expect(await store.head(k)).toBeNull();
      await expect(store.delete(k)).resolves.toBeUndefined();
    });

    it('deletes a blob', async () => {
      const k = key();
      await store.put(k, Buffer.from('bye'), { contentType: 'text/plain' });
      await store.delete(k);
      expect(await store.get(k)).toBeNull();
      expect(await store.head(k)).toBeNull();
    });

    it('overwrites a blob: new bytes, content type and etag; equal bytes give an equal etag', async () => {
      const k = key();
      const first = await store.put(k, Buffer.from('first version'), { contentType: 'image/png' });
      const second = await store.put(k, Buffer.from('second'), { contentType: 'image/webp' });
      expect(second.etag).not.toBe(first.etag);
      const got = await store.get(k);
      expect(got?.data.toString()).toBe('second');
      expect(got).toMatchObject({ contentType: 'image/webp', size: 6, etag: second.etag });
      const elsewhere = await store.put(key(), Buffer.from('second'), { contentType: 'image/webp' });
      expect(elsewhere.etag).toBe(second.etag);
    });

    it('overwrites a blob with one of the same size (a re-render of the same look)', async () => {
      const k = key();
      await store.put(k, Buffer.alloc(4096, 1), { contentType: 'image/png' });
      await store.put(k, Buffer.alloc(4096, 2), { contentType: 'image/png' });
      expect((await store.get(k))?.data.equals(Buffer.alloc(4096, 2))).toBe(true);
    });

    it('keeps binary content intact: every byte value, an empty blob, several MiB of noise', async () => {
      const cases = [
        Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
        Buffer.alloc(0),
        randomBytes(3 * 1024 * 1024 + 17),
      ];
      for (const data of cases) {
        const k = key();
        await store.put(k, data, { contentType: 'application/octet-stream' });
        const got = await store.get(k);
        expect(got?.size).toBe(data.length);
        expect(Buffer.compare(got!.data, data)).toBe(0);
        expect(got?.etag).toBe(contentEtag(data));
        expect((await store.head(k))?.size).toBe(data.length);
      }
    });

    it('accepts a Uint8Array that is a view into a larger buffer', async () => {
      const backing = Buffer.from('xxpayloadxx');
      const view = new Uint8Array(backing.buffer, backing.byteOffset + 2, 7);
      const k = key();
      await store.put(k, view, { contentType: 'text/plain' });
      expect((await store.get(k))?.data.toString()).toBe('payload');
    });

    it('stores content types as given', async () => {
      for (const contentType of ['image/png', 'image/webp', 'image/jpeg', 'text/plain; charset=utf-8']) {
        const k = key();
        await store.put(k, Buffer.from('x'), { contentType });
        expect((await store.get(k))?.contentType).toBe(contentType);
        expect((await store.head(k))?.contentType).toBe(contentType);
      }
    });

    it('keeps nested keys apart, including a key that is also a prefix of another', async () => {
      const base = key('nested').replace(/\.bin$/, '');
      await store.put(base, Buffer.from('parent'), { contentType: 'text/plain' });
      await store.put(`${base}/child.bin`, Buffer.from('child'), { contentType: 'text/plain' });
      await store.put(`${base}/deeper/leaf.bin`, Buffer.from('leaf'), { contentType: 'text/plain' });
      expect((await store.get(base))?.data.toString()).toBe('parent');
      expect((await store.get(`${base}/child.bin`))?.data.toString()).toBe('child');
      expect((await store.get(`${base}/deeper/leaf.bin`))?.data.toString()).toBe('leaf');
      expect(await store.get(`${base}/deeper`)).toBeNull();
    });

    it('refuses invalid keys (traversal, absolute, backslash, NUL) in every operation', async () => {
      for (const bad of INVALID_BLOB_KEYS) {
        const attempts = [
          store.put(bad, Buffer.from('evil'), { contentType: 'text/plain' }),
          store.get(bad),
          store.head(bad),
          store.delete(bad),
        ];
        for (const attempt of attempts) {
          const error = await attempt.then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(error, `key ${JSON.stringify(bad)}`).toBeInstanceOf(AppError);
          expect((error as AppError).code).toBe('internal_error');
        }
      }
    });

    it('handles concurrent puts: distinct keys all land, one key ends with one whole version', async () => {
      const keys = Array.from({ length: 24 }, () => key('concurrent'));
      const blobs = keys.map(() => randomBytes(64 * 1024));
      await Promise.all(keys.map((k, i) => store.put(k, blobs[i]!, { contentType: 'image/png' })));
      const read = await Promise.all(keys.map((k) => store.get(k)));
      read.forEach((blob, i) => {
        expect(Buffer.compare(blob!.data, blobs[i]!)).toBe(0);
      });

      const shared = key('concurrent');
      const versions = Array.from({ length: 12 }, (_, i) => Buffer.alloc(200_000 + i, i + 1));
      await Promise.all(versions.map((v) => store.put(shared, v, { contentType: 'image/png' })));
      if (limits.tornConcurrentOverwrites)
        await store.put(shared, versions[3]!, { contentType: 'image/png' });
      const final = await store.get(shared);
      const winner = versions.find((v) => Buffer.compare(v, final!.data) === 0);
      expect(winner, 'the stored bytes are exactly one of the versions written').toBeDefined();
      expect(final?.etag).toBe(contentEtag(winner!));
      expect(final?.size).toBe(winner!.length);
    });
  });
}
