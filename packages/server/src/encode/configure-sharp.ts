import os from 'node:os';
import sharp from 'sharp';

export interface SharpSettings {
  /** libvips worker threads per operation. Default: the CPUs available to this process. */
  concurrency?: number;
  /** libvips operation cache in MB; 0 disables it. Default 64. */
  cacheMemoryMb?: number;
}

/**
 * Sets sharp's process-wide options; call once at start-up (from the composition root), never at
 * import time. sharp's own default concurrency was 1 on these machines, and raising it to the core
 * count cut a compose by a third (performance.md). The libvips cache never holds files: every
 * input is a buffer. Returns the effective values, for the start-up log.
 */
export function configureSharp(settings: SharpSettings = {}): Required<SharpSettings> {
  const concurrency = settings.concurrency ?? Math.max(1, os.availableParallelism());
  const cacheMemoryMb = settings.cacheMemoryMb ?? 64;
  sharp.concurrency(concurrency);
  if (cacheMemoryMb === 0) sharp.cache(false);
  else sharp.cache({ memory: cacheMemoryMb, files: 0, items: 100 });
  return { concurrency: sharp.concurrency(), cacheMemoryMb };
}
