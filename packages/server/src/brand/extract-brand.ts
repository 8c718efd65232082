import crypto from 'node:crypto';
import type { Brand } from '@vitrine/contract';
import sharp from 'sharp';
import { brandOfPage } from '../ai/brand-fields.ts';
import { readScreenshot } from '../ai/screenshot-palette.ts';
import {
  type PageCapture,
  type PageCaptureOptions,
  plainPageOptions,
} from '../browser/page-capture-options.ts';
import { AppError } from '../errors/app-error.ts';
import type { GuardedFetch } from '../netpolicy/guarded-fetch.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { keepBrandFont } from './brand-font.ts';

export interface BrandExtractionDeps {
  /** The capture stage (browser pool, through the egress proxy). */
  capture(options: PageCaptureOptions, signal: AbortSignal): Promise<PageCapture>;
  /** The network policy's URL check (DNS included), before the browser is asked. */
  checkUrl(url: string): Promise<unknown>;
  guardedFetch: GuardedFetch;
  blobStore: Pick<BlobStore, 'put'>;
  publicUrl: string;
}

const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** Brand asset blob keys: content-addressed PNGs under `brand/`. */
export const BRAND_ASSET_KEY = /^brand\/[a-f0-9]{40}\.png$/;

function pageOptions(url: string): PageCaptureOptions {
  return plainPageOptions(url, { viewport: { width: 1280, height: 800 }, collectSignals: true });
}

/** The reason a brand_error gives, in the contract's generic terms (never an address or net::ERR). */
export function brandErrorOf(error: unknown): string {
  if (error instanceof AppError) {
    if (error.code === 'target_not_allowed') return 'The domain is not allowed as a target by this server';
    const reason = (error.details as { reason?: string } | undefined)?.reason;
    if (reason === 'target_unreachable') return 'The site could not be reached (target_unreachable)';
    if (reason === 'navigation_timeout') return 'The site did not load in time (navigation_timeout)';
    if (error.code === 'invalid_params') return 'The domain is not a valid host name';
  }
  return 'The site could not be rendered (render_failed)';
}

/**
 * Extracts the contract's brand object of a domain: loads `https://{domain}/` (then `http://`
 * when https cannot connect) in the capture engine, reads the page's signals and palette in that
 * one load, and copies the logo, icon and Open Graph image through the guarded fetch into the
 * blob store (as PNG, served from our CDN). An image that cannot be fetched or decoded is null,
 * never a failure. The heading (else body) family's web font file is kept too (brand-font.ts;
 * never served), or its reason recorded.
 */
export async function extractBrand(
  domain: string,
  deps: BrandExtractionDeps,
  signal: AbortSignal,
): Promise<Brand> {
  let shot: PageCapture | undefined;
  let lastError: unknown;
  for (const scheme of ['https', 'http']) {
    const url = `${scheme}://${domain}/`;
    try {
      await deps.checkUrl(url);
      shot = await deps.capture(pageOptions(url), signal);
      break;
    } catch (error) {
      lastError = error;
      const reason =
        error instanceof AppError ? (error.details as { reason?: string } | undefined)?.reason : undefined;
      if (reason !== 'target_unreachable') throw error;
    }
  }
  if (!shot?.signals) throw lastError ?? new Error('no capture');
  const { palette } = await readScreenshot(shot.png);
  const brand = brandOfPage(shot.signals, palette, shot.finalUrl);
  const assets = shot.signals.assets;
  const store = (source: string | null) =>
    source ? storeImage(source, deps, signal) : Promise.resolve(null);
  const [logo, svgLogo, icon, og, fontFile] = await Promise.all([
    store(assets?.logo ?? null),
    assets?.inlineSvgLogo ? storeBytes(Buffer.from(assets.inlineSvgLogo), deps) : Promise.resolve(null),
    store(assets?.appleTouchIcon ?? assets?.icons.find((i) => !i.endsWith('.ico')) ?? null),
    store(assets?.ogImage ?? null),
    keepBrandFont(shot.signals, deps, signal),
  ]);
  return {
    ...brand,
    fonts: fontFile ? { ...brand.fonts, file: fontFile } : brand.fonts,
    logo_url: logo ?? svgLogo ?? icon,
    icon_url: icon,
    og_image_url: og,
    extracted_at: new Date().toISOString(),
  };
}

async function storeImage(
  source: string,
  deps: BrandExtractionDeps,
  signal: AbortSignal,
): Promise<string | null> {
  try {
    if (source.startsWith('data:')) {
      const comma = source.indexOf(',');
      const meta = source.slice(5, comma);
      const data = source.slice(comma + 1);
      return await storeBytes(
        Buffer.from(
          meta.endsWith(';base64') ? data : decodeURIComponent(data),
          meta.endsWith(';base64') ? 'base64' : 'utf8',
        ),
        deps,
      );
    }
    const response = await deps.guardedFetch(source, {
      maxBytes: IMAGE_MAX_BYTES,
      timeoutMs: 10_000,
      signal,
      field: 'brand image',
    });
    if (response.status !== 200) return null;
    return await storeBytes(response.body, deps);
  } catch {
    return null;
  }
}

/** Rasterises (SVG included, so no markup is ever served from our origin) and stores a PNG. */
async function storeBytes(bytes: Buffer, deps: BrandExtractionDeps): Promise<string | null> {
  try {
    const png = await sharp(bytes, { limitInputPixels: 40_000_000 })
      .resize(512, 512, { fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
    const key = `brand/${crypto.createHash('sha1').update(png).digest('hex')}.png`;
    await deps.blobStore.put(key, png, { contentType: 'image/png' });
    return `${deps.publicUrl}/cdn/${key}`;
  } catch {
    return null;
  }
}
