import fs from 'node:fs/promises';
import path from 'node:path';
import type { BlobStore } from './blob-store.ts';

/** Below this much free space the local image disk is reported as failing in /readyz. */
export const MIN_FREE_BYTES = 64 * 1024 * 1024;

/** The key /readyz asks the object store about; it never exists, a "not there" is an answer. */
const PROBE_KEY = 'readyz/probe';

/**
 * /readyz's check of the image storage (issue 41). The object store must answer a HEAD (404 is
 * an answer; a 503, a timeout or a refused connection are not); the local disk must have at
 * least {@link MIN_FREE_BYTES} free, so a full disk shows before captures fail on it.
 */
export function storageReadiness(
  kind: 'local' | 's3',
  store: BlobStore,
  root: string,
): { name: 'blob_store' | 'object_store'; check: () => Promise<void> } {
  if (kind === 's3') {
    return { name: 'object_store', check: async () => void (await store.head(PROBE_KEY)) };
  }
  return {
    name: 'blob_store',
    async check() {
      const stats = await fs.statfs(await nearestExisting(path.resolve(root)));
      const free = stats.bavail * stats.bsize;
      if (free < MIN_FREE_BYTES) throw new Error(`${free} bytes free under ${root}`);
    },
  };
}

/** The directory itself or its nearest existing parent (the blob root is created on first write). */
async function nearestExisting(dir: string): Promise<string> {
  for (let current = dir; ; current = path.dirname(current)) {
    const exists = await fs.stat(current).then(
      () => true,
      () => false,
    );
    if (exists || current === path.dirname(current)) return current;
  }
}
