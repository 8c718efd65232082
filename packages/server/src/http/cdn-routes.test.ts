import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3rver, type TestS3Server } from '../../../../test/storage/s3rver.ts';
import { encodeImage } from '../encode/encode-image.ts';
import { previewImage } from '../encode/preview-image.ts';
import { AppError } from '../errors/app-error.ts';
import { type BlobStore, contentEtag } from '../storage/blob-store.ts';
import { createCachedBlobStore } from '../storage/cached-blob-store.ts';
import { createLocalBlobStore } from '../storage/local-blob-store.ts';
import { renderKey } from '../storage/render-key.ts';
import { createS3BlobStore } from '../storage/s3-blob-store.ts';
import { byteRange, IMMUTABLE_CACHE_CONTROL, ifNoneMatchMatches, registerCdnRoutes } from './cdn-routes.ts';
import { sendError } from './error-response.ts';

interface StoreCase {
  name: string;
  open(): Promise<{ store: BlobStore; cleanup(): Promise<void> }>;
}

const STORES: StoreCase[] = [
  {
    name: 'local disk',
    async open() {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-cdn-'));
      const store = createLocalBlobStore({ root });
      return { store, cleanup: async () => fs.rmSync(root, { recursive: true, force: true }) };
    },
  },
  {
    name: 'local disk behind the memory cache',
    async open() {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-cdn-'));
      const store = createCachedBlobStore(createLocalBlobStore({ root }));
      return { store, cleanup: async () => fs.rmSync(root, { recursive: true, force: true }) };
    },
  },
  {
    name: 'S3 (s3rver)',
    async open() {
      const server: TestS3Server = await startS3rver();
      const store = createS3BlobStore({
        bucket: server.bucket,
        region: 'us-east-1',
        endpoint: server.endpoint,
        forcePathStyle: true,
        credentials: server.credentials,
      });
      return { store, cleanup: () => server.close() };
    },
  },
];

/** The smallest app the route needs: the service's error handler, on a random loopback port. */
async function startCdnApp(store: BlobStore): Promise<{ app: FastifyInstance; baseUrl: string }> {
  const app = Fastify({ logger: false });
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) =>
    sendError(new AppError('not_found', `No route ${request.method} ${request.url}`), request, reply),
  );
  registerCdnRoutes(app, { blobStore: store, preview: (encoded) => previewImage(encoded) });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, baseUrl: `http://127.0.0.1:${port}` };
}

describe('ifNoneMatchMatches', () => {
  it('matches *, exact tags, listed tags and weak tags, and nothing else', () => {
    expect(ifNoneMatchMatches(undefined, '"a"')).toBe(false);
    expect(ifNoneMatchMatches('*', '"a"')).toBe(true);
    expect(ifNoneMatchMatches('"a"', '"a"')).toBe(true);
    expect(ifNoneMatchMatches('"b", W/"a"', '"a"')).toBe(true);
    expect(ifNoneMatchMatches('"b" ,  "c"', '"a"')).toBe(false);
    expect(ifNoneMatchMatches('a', '"a"')).toBe(false);
  });
});

describe.each(STORES)('CDN route on $name', (storeCase) => {
  let store: BlobStore;
  let cleanup: () => Promise<void>;
  let app: FastifyInstance;
  let baseUrl: string;
  const id = `cap_${ulid()}`;
  let png: Buffer;
  let webp: Buffer;

  beforeAll(async () => {
    ({ store, cleanup } = await storeCase.open());
    ({ app, baseUrl } = await startCdnApp(store));
    const pixels = { data: Buffer.alloc(64 * 48 * 4, 200), width: 64, height: 48, channels: 4 as const };
    png = (await encodeImage(pixels, { format: 'png' })).data;
    webp = (await encodeImage(pixels, { format: 'webp' })).data;
    await store.put(renderKey(id, 'png'), png, { contentType: 'image/png' });
    await store.put(renderKey(id, 'webp'), webp, { contentType: 'image/webp' });
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await cleanup?.();
  });

  it('serves a WebP preview of a render, made once and stored, 404 for an unknown render', async () => {
    const res = await fetch(`${baseUrl}/cdn/preview/${id}.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE_CACHE_CONTROL);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
    const stored = await store.get(`previews/${id}.webp`);
    expect(stored && Buffer.compare(stored.data, bytes)).toBe(0);
    const again = await fetch(`${baseUrl}/cdn/preview/${id}.png`, {
      headers: { 'if-none-match': res.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
    const missing = await fetch(`${baseUrl}/cdn/preview/cap_${ulid()}.png`);
    expect(missing.status).toBe(404);
    expect((await fetch(`${baseUrl}/cdn/preview/not-a-render.png`)).status).toBe(404);
  });

  it('serves the bytes with type, length, a strong etag and immutable caching', async () => {
    const res = await fetch(`${baseUrl}/cdn/r/${id}.png`);
    expect(res.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), png)).toBe(0);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-length')).toBe(String(png.length));
    expect(res.headers.get('etag')).toBe(`"${contentEtag(png)}"`);
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');

    const other = await fetch(`${baseUrl}/cdn/r/${id}.webp`);
    expect(other.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.compare(Buffer.from(await other.arrayBuffer()), webp)).toBe(0);
  });

  it('answers HEAD with the same headers and no body', async () => {
    const res = await fetch(`${baseUrl}/cdn/r/${id}.png`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-length')).toBe(String(png.length));
    expect(res.headers.get('etag')).toBe(`"${contentEtag(png)}"`);
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE_CACHE_CONTROL);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers a matching If-None-Match with 304 and the validators, a stale one with 200', async () => {
    const etag = `"${contentEtag(png)}"`;
    for (const header of [etag, `"stale", ${etag}`, `W/${etag}`, '*']) {
      for (const method of ['GET', 'HEAD']) {
        const res = await fetch(`${baseUrl}/cdn/r/${id}.png`, {
          method,
          headers: { 'if-none-match': header },
        });
        expect(res.status, `${method} ${header}`).toBe(304);
        expect(res.headers.get('etag')).toBe(etag);
        expect(res.headers.get('cache-control')).toBe(IMMUTABLE_CACHE_CONTROL);
        expect((await res.arrayBuffer()).byteLength).toBe(0);
      }
    }
    const stale = await fetch(`${baseUrl}/cdn/r/${id}.png`, { headers: { 'if-none-match': '"stale"' } });
    expect(stale.status).toBe(200);
    expect((await stale.arrayBuffer()).byteLength).toBe(png.length);
  });

  it('is 404 not_found in the error envelope for missing renders and anything not a render name', async () => {
    const names = [
      `${id}.jpg`,
      `cap_${ulid()}.png`,
      `${id}.gif`,
      `${id}.PNG`,
      `${id.toLowerCase()}.png`,
      `${id}png`,
      `cap_${'I'.repeat(26)}.png`,
      `cap_${'A'.repeat(25)}.png`,
      `job_${id.slice(4)}.png`,
      `${id}.png.blob`,
      '..%2F..%2Fetc%2Fpasswd',
      `..%2Frenders%2F${id}.png`,
      `%2E%2E%2F${id}.png`,
    ];
    for (const name of names) {
      const res = await fetch(`${baseUrl}/cdn/r/${name}`);
      expect(res.status, name).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control'), name).toBe('no-store');
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error).toEqual({ code: 'not_found', message: 'Image not found' });
      const head = await fetch(`${baseUrl}/cdn/r/${name}`, { method: 'HEAD' });
      expect(head.status, `HEAD ${name}`).toBe(404);
    }
    for (const other of [`renders/${id}.png`, '%2E%2E', `${id}.png/`]) {
      const res = await fetch(`${baseUrl}/cdn/r/${other}`);
      expect(res.status, other).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
  });
});

describe('renderKey', () => {
  it('lays renders out as renders/{id}.{ext}', () => {
    expect(renderKey('cap_01J9Z3K4M5N6P7Q8R9S0T1V2W3', 'webp')).toBe(
      'renders/cap_01J9Z3K4M5N6P7Q8R9S0T1V2W3.webp',
    );
  });
});

describe('byteRange: the Range header of a render (videos seek with it)', () => {
  it('reads one range, open-ended and suffix ranges, clipped to the size', () => {
    expect(byteRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(byteRange('bytes=500-', 1000)).toEqual({ start: 500, end: 999 });
    expect(byteRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRange('bytes=900-5000', 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
  });

  it('serves whole what it does not take, and refuses ranges past the end', () => {
    expect(byteRange(undefined, 1000)).toBeUndefined();
    expect(byteRange('bytes=0-1,5-9', 1000)).toBeUndefined();
    expect(byteRange('items=0-9', 1000)).toBeUndefined();
    expect(byteRange('bytes=9-2', 1000)).toBeUndefined();
    expect(byteRange('bytes=-', 1000)).toBeUndefined();
    expect(byteRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(byteRange('bytes=-0', 1000)).toBe('unsatisfiable');
  });
});
