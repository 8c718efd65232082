import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BRAND_ASSET_KEY } from '../brand/extract-brand.ts';
import { AppError } from '../errors/app-error.ts';
import type { BlobMeta, BlobStore } from '../storage/blob-store.ts';
import { parseRenderFile, renderKey } from '../storage/render-key.ts';

export interface CdnRouteDeps {
  /**
   * Where renders are stored. Give it a `createCachedBlobStore` in front of the real store so
   * hot images are served from memory (render keys never change content).
   */
  blobStore: BlobStore;
  /** Makes the preview of a render's bytes (encode/preview-image.ts): WebP within the preview limits. */
  preview: (encoded: Uint8Array) => Promise<Buffer>;
}

/** A render never changes once stored (its id is new for every render), so caches keep it for a year. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

interface FileParams {
  file: string;
}

function notFound(reply: FastifyReply): AppError {
  reply.header('cache-control', 'no-store');
  return new AppError('not_found', 'Image not found');
}

/**
 * Whether an `If-None-Match` header matches the etag: `*`, or any listed tag by the weak
 * comparison RFC 9110 prescribes for this header (a `W/` prefix is ignored).
 */
export function ifNoneMatchMatches(header: string | undefined, quotedEtag: string): boolean {
  if (header === undefined) return false;
  for (const raw of header.split(',')) {
    const tag = raw.trim();
    if (tag === '*') return true;
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === quotedEtag) return true;
  }
  return false;
}

/**
 * The one byte range of a `Range` header (RFC 9110 14.2), inclusive; undefined for no header or
 * one this route serves whole (several ranges, another unit: a 200 is a valid answer to both);
 * `unsatisfiable` when the range starts past the end.
 */
export function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(size - 1, Number(match[2]));
  if (start >= size) return 'unsatisfiable';
  if (end < start) return undefined;
  return { start, end };
}

function validators(reply: FastifyReply, meta: BlobMeta): string {
  const etag = `"${meta.etag}"`;
  reply.headers({
    etag,
    'cache-control': IMMUTABLE_CACHE_CONTROL,
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'cross-origin',
  });
  return etag;
}

/**
 * `GET` and `HEAD /cdn/r/{id}.{ext}`: the stored bytes of a render, public and immutable, with
 * `ETag` and `If-None-Match` (304). Names that are not a render file name (`cap_` + 26 Crockford
 * characters, png/webp/jpg) and missing renders are the same 404 `not_found`. No database lookup:
 * the file name is the storage key (`renderKey`), which keeps this path to one store read.
 */
export function registerCdnRoutes(app: FastifyInstance, deps: CdnRouteDeps): void {
  const { blobStore } = deps;
  const options = { schema: { hide: true } };

  app.get<{ Params: FileParams }>(
    '/cdn/r/:file',
    { ...options, exposeHeadRoute: false },
    async (request: FastifyRequest<{ Params: FileParams }>, reply: FastifyReply) => {
      const parsed = parseRenderFile(request.params.file);
      if (parsed === null) throw notFound(reply);
      const blob = await blobStore.get(renderKey(parsed.id, parsed.ext));
      if (blob === null) throw notFound(reply);
      const etag = validators(reply, blob);
      if (ifNoneMatchMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      reply.header('accept-ranges', 'bytes');
      const range = byteRange(request.headers.range, blob.size);
      if (range === 'unsatisfiable') {
        return reply
          .code(416)
          .headers({ 'content-range': `bytes */${blob.size}` })
          .send();
      }
      if (range) {
        // A video element seeks with ranges (Safari asks for one before it plays at all).
        return reply
          .code(206)
          .headers({
            'content-type': blob.contentType,
            'content-range': `bytes ${range.start}-${range.end}/${blob.size}`,
            'content-length': range.end - range.start + 1,
          })
          .send(blob.data.subarray(range.start, range.end + 1));
      }
      return reply.headers({ 'content-type': blob.contentType, 'content-length': blob.size }).send(blob.data);
    },
  );

  app.head<{ Params: FileParams }>(
    '/cdn/r/:file',
    options,
    async (request: FastifyRequest<{ Params: FileParams }>, reply: FastifyReply) => {
      const parsed = parseRenderFile(request.params.file);
      if (parsed === null) throw notFound(reply);
      const meta = await blobStore.head(renderKey(parsed.id, parsed.ext));
      if (meta === null) throw notFound(reply);
      const etag = validators(reply, meta);
      if (ifNoneMatchMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.headers({ 'content-type': meta.contentType, 'content-length': meta.size }).send();
    },
  );

  // `GET /cdn/preview/{id}.{ext}`: the render made small enough to hand to a language model (the
  // MCP server's include_image), as WebP. Made once on the first request and stored beside the
  // render, so later requests cost one store read, as the render's own URL does.
  app.get<{ Params: FileParams }>(
    '/cdn/preview/:file',
    options,
    async (request: FastifyRequest<{ Params: FileParams }>, reply: FastifyReply) => {
      const parsed = parseRenderFile(request.params.file);
      if (parsed === null) throw notFound(reply);
      const key = `previews/${parsed.id}.webp`;
      let blob = await blobStore.get(key);
      if (blob === null) {
        const render = await blobStore.get(renderKey(parsed.id, parsed.ext));
        if (render === null) throw notFound(reply);
        const data = await deps.preview(render.data);
        const meta = await blobStore.put(key, data, { contentType: 'image/webp' });
        blob = { ...meta, data };
      }
      const etag = validators(reply, blob);
      if (ifNoneMatchMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.headers({ 'content-type': 'image/webp', 'content-length': blob.size }).send(blob.data);
    },
  );

  // Brand images (logo, icon, Open Graph image) copied at extraction: content-addressed PNGs.
  app.get<{ Params: FileParams }>(
    '/cdn/brand/:file',
    options,
    async (request: FastifyRequest<{ Params: FileParams }>, reply: FastifyReply) => {
      const key = `brand/${request.params.file}`;
      if (!BRAND_ASSET_KEY.test(key)) throw notFound(reply);
      const blob = await blobStore.get(key);
      if (blob === null) throw notFound(reply);
      const etag = validators(reply, blob);
      if (ifNoneMatchMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.headers({ 'content-type': 'image/png', 'content-length': blob.size }).send(blob.data);
    },
  );
}
