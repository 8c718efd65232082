import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  describeBlobStoreContract,
  INVALID_BLOB_KEYS,
} from '../../../../test/storage/blob-store-contract.ts';
import { createCachedBlobStore } from './cached-blob-store.ts';
import { createLocalBlobStore } from './local-blob-store.ts';

const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-blobs-'));
let count = 0;
const freshRoot = () => path.join(parent, `store-${++count}`);
afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));

describeBlobStoreContract('local disk', async () => createLocalBlobStore({ root: freshRoot() }));
describeBlobStoreContract('local disk behind the memory cache', async () =>
  createCachedBlobStore(createLocalBlobStore({ root: freshRoot() }), { maxBytes: 1024 * 1024 }),
);

describe('local blob store on disk', () => {
  it('writes one file per key under the root, and nothing outside it for invalid keys', async () => {
    const root = freshRoot();
    const store = createLocalBlobStore({ root, fsync: false });
    try {
      await store.put('renders/cap_A.png', Buffer.from('png'), { contentType: 'image/png' });
      expect(fs.readdirSync(path.join(root, 'renders'))).toEqual(['cap_A.png.blob']);
      for (const bad of INVALID_BLOB_KEYS) {
        await store.put(bad, Buffer.from('evil'), { contentType: 'text/plain' }).catch(() => undefined);
      }
      expect(fs.readdirSync(root)).toEqual(['renders']);
      expect(fs.readdirSync(parent).filter((f) => !f.startsWith('store-'))).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('leaves no temp files behind, and reports a foreign file as a storage error', async () => {
    const root = freshRoot();
    const store = createLocalBlobStore({ root });
    try {
      await Promise.all(
        Array.from({ length: 8 }, () => store.put('same.bin', Buffer.alloc(1000, 1), { contentType: 'x/y' })),
      );
      expect(fs.readdirSync(root)).toEqual(['same.bin.blob']);
      fs.writeFileSync(path.join(root, 'foreign.blob'), 'not a blob file');
      await expect(store.get('foreign')).rejects.toMatchObject({ code: 'internal_error' });
      await expect(store.head('foreign')).rejects.toMatchObject({ code: 'internal_error' });
    } finally {
      await store.close();
    }
  });

  it('does not write when the signal is already aborted', async () => {
    const root = freshRoot();
    const store = createLocalBlobStore({ root });
    try {
      const signal = AbortSignal.abort();
      await expect(store.put('a.bin', Buffer.from('a'), { contentType: 'x/y', signal })).rejects.toThrow();
      expect(await store.get('a.bin')).toBeNull();
    } finally {
      await store.close();
    }
  });
});
