import type { BrowserPool } from '../browser/browser-pool.ts';
import { capturePage, type PageCaptureSettings } from '../browser/capture-page.ts';
import type { PageCaptureCache } from '../browser/page-capture-cache.ts';
import { encodeImage } from '../encode/encode-image.ts';
import { dependencyUnavailable } from '../errors/dependency-outage.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { renderKey } from '../storage/render-key.ts';
import type { RenderStages } from './run-render.ts';

/**
 * The concrete stages of the pipeline: Chromium through the pool, the compose stage (app.ts
 * builds it with its renderers), sharp, the blob store.
 * `output.width/height` are CSS pixels like every other size, so the encoded image is
 * `width x dpr` pixels wide (the composed canvas already is; an unstyled capture is resized once,
 * keeping the top of the page).
 */
export function createRenderStages(deps: {
  pool: BrowserPool;
  captureSettings: PageCaptureSettings;
  compose: RenderStages['compose'];
  /** The AI step (after capture, before compose). */
  decide?: RenderStages['decide'];
  blobStore: BlobStore;
  /** Which dependency the blob store is, for the error of a store that hangs. */
  storeDependency?: 'object_store' | 'blob_store';
  pageCache: PageCaptureCache;
  /** The motion stage (videos); absent when ffmpeg is not configured. */
  animate?: RenderStages['animate'];
}): RenderStages {
  return {
    // The pool measures the wait for a slot; naming it here keeps every phase of a render named.
    capture: (options, signal, auth, afterwards) =>
      deps.pool.run(
        async (lease) => {
          const shot = await capturePage(lease, options, deps.captureSettings, auth);
          return { ...shot, timings: { queue_wait: Math.round(lease.queueMs * 10) / 10, ...shot.timings } };
        },
        { signal, ...(afterwards ? { afterwards } : {}) },
      ),
    compose: deps.compose,
    ...(deps.decide ? { decide: deps.decide } : {}),
    pageCache: deps.pageCache,
    encode: (input, output) =>
      encodeImage(input, {
        format: output.format,
        quality: output.quality ?? undefined,
        // `?? null`: a job queued before the output had one shape left these out.
        width:
          Buffer.isBuffer(input) && (output.width ?? null) !== null
            ? (output.width as number) * output.dpr
            : undefined,
        height:
          Buffer.isBuffer(input) && (output.height ?? null) !== null
            ? (output.height as number) * output.dpr
            : undefined,
        position: Buffer.isBuffer(input) ? 'top' : 'centre',
      }),
    store: async (key, file, signal) => {
      try {
        await deps.blobStore.put(key, file.data, { contentType: file.contentType, signal });
      } catch (error) {
        // A store that did not answer before the capture's deadline is unavailable (issue 41):
        // a 503 naming it, not a page that took too long.
        if (signal?.aborted) {
          throw dependencyUnavailable(
            deps.storeDependency ?? 'object_store',
            error,
            'did not answer in time',
          );
        }
        throw error;
      }
    },
    ...(deps.animate ? { animate: deps.animate } : {}),
    blobKey: renderKey,
  };
}
