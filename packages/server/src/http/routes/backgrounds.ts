import type { BACKGROUND_ROUTES, BackgroundAssetItem, GradientPresetItem } from '@vitrine/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  type BackgroundUrls,
  COVER_SIZE,
  createBackgroundUrls,
  FULL_SIZE,
  THUMBNAIL_SIZE,
} from '../../backgrounds/asset-urls.ts';
import type { BackgroundAsset, BackgroundCatalogue } from '../../backgrounds/catalogue.ts';
import { pageBackgrounds, slicePacks } from '../../backgrounds/catalogue-search.ts';
import { BACKGROUND_FORMATS, type BackgroundFormat } from '../../backgrounds/render-background.ts';
import type { BackgroundRenderCache, CachedRender } from '../../backgrounds/render-cache.ts';
import { GRADIENT_PRESET_NAMES, GRADIENT_PRESETS, gradientCss } from '../../compose/index.ts';
import { invalidParam, notFound } from '../../errors/app-error.ts';
import type { RouteHandler } from '../route-handler.ts';

/** The eight named gradients as listed in `presets` (interface.md 2.3). */
export function gradientPresetItems(): GradientPresetItem[] {
  return GRADIENT_PRESET_NAMES.map((name) => {
    const preset = GRADIENT_PRESETS[name];
    return {
      id: preset.id,
      name: preset.name,
      type: 'gradient_preset',
      background_style: 'gradient',
      background_preset: preset.id,
      css: gradientCss(preset),
      stops: preset.stops.map((s) => ({ color: s.color, position: s.position })),
    };
  });
}

/** An asset as the API lists it (interface.md 2.4). */
export function backgroundAssetItem(asset: BackgroundAsset, urls: BackgroundUrls): BackgroundAssetItem {
  return {
    id: asset.id,
    name: asset.name,
    slug: asset.slug,
    type: asset.type,
    subtype: asset.subtype,
    group: asset.group,
    pack: asset.pack,
    theme: asset.theme,
    format: asset.format,
    tags: [...asset.tags],
    background: asset.background,
    image_url: urls.image(asset),
    thumbnail_url: urls.thumbnail(asset),
    config: asset.config,
    service_params: { ...asset.service_params },
  };
}

export interface BackgroundHandlers {
  listBackgrounds: RouteHandler<typeof BACKGROUND_ROUTES.listBackgrounds>;
  listBackgroundPacks: RouteHandler<typeof BACKGROUND_ROUTES.listBackgroundPacks>;
}

/** Handlers of GET /v1/backgrounds and GET /v1/backgrounds/packs. */
export function backgroundHandlers(catalogue: BackgroundCatalogue, publicUrl: string): BackgroundHandlers {
  const urls = createBackgroundUrls(publicUrl);
  const presets = gradientPresetItems();
  return {
    listBackgrounds: async ({ query }) => {
      const { items, total } = pageBackgrounds(catalogue, query, query);
      return {
        presets,
        backgrounds: items.map((asset) => backgroundAssetItem(asset, urls)),
        total,
        limit: query.limit,
        offset: query.offset,
      };
    },
    listBackgroundPacks: async ({ query }) => ({
      packs: slicePacks(catalogue, query).map((slice) => ({
        group: slice.group,
        pack: slice.pack,
        theme: slice.theme,
        count: slice.assets.length,
        cover_url: urls.cover(slice.pack, slice.theme),
        thumbnail_url: urls.thumbnail(slice.assets[0] as BackgroundAsset),
      })),
    }),
  };
}

/** Bounds of an on-demand variant: enough for a 3x capture of a large canvas, not a memory bomb. */
export const VARIANT_LIMITS = {
  min: 16,
  max: 7680,
  maxPixels: 7680 * 4320,
  minScale: 0.25,
  maxScale: 4,
} as const;

const variantQuerySchema = z.object({
  w: z.coerce.number().int().min(VARIANT_LIMITS.min).max(VARIANT_LIMITS.max).optional(),
  h: z.coerce.number().int().min(VARIANT_LIMITS.min).max(VARIANT_LIMITS.max).optional(),
  scale: z.coerce.number().min(VARIANT_LIMITS.minScale).max(VARIANT_LIMITS.maxScale).optional(),
  v: z.string().max(20).optional(),
});

function parseVariant(query: unknown) {
  const parsed = variantQuerySchema.safeParse(query);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? 'query');
    throw invalidParam(
      field,
      field === 'scale'
        ? `Must be a number from ${VARIANT_LIMITS.minScale} to ${VARIANT_LIMITS.maxScale}`
        : field === 'w' || field === 'h'
          ? `Must be an integer from ${VARIANT_LIMITS.min} to ${VARIANT_LIMITS.max}`
          : (issue?.message ?? 'Invalid value'),
    );
  }
  const width = parsed.data.w ?? FULL_SIZE.width;
  const height = parsed.data.h ?? FULL_SIZE.height;
  if (width * height > VARIANT_LIMITS.maxPixels) {
    throw invalidParam('w', `w x h must be at most ${VARIANT_LIMITS.maxPixels} pixels (7680x4320)`);
  }
  return { width, height, scale: parsed.data.scale ?? 1 };
}

function send(request: FastifyRequest, reply: FastifyReply, render: CachedRender): FastifyReply {
  reply
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('etag', render.etag)
    .header('x-content-type-options', 'nosniff');
  if (request.headers['if-none-match'] === render.etag) return reply.code(304).send();
  return reply.type(render.contentType).send(render.data);
}

export interface BackgroundAssetRouteDeps {
  catalogue: BackgroundCatalogue;
  cache: BackgroundRenderCache;
}

const FILE = /^(?:(thumbnail)\.webp|image\.(png|webp|jpg|jpeg))$/;
const COVER = /^cover(?:-(light|dark|mixed))?\.webp$/;

/**
 * Serves rendered assets under `/cdn/bg`: `/<pack>/<slug>/thumbnail.webp`,
 * `/<pack>/<slug>/image.<png|webp|jpg>?w=&h=&scale=` (default 2560x1600) and
 * `/<pack>/cover[-<theme>].webp`. Public, immutable, with ETags.
 */
export function registerBackgroundAssetRoutes(app: FastifyInstance, deps: BackgroundAssetRouteDeps): void {
  const hidden = { schema: { hide: true } };
  app.get<{ Params: { pack: string; slug: string; file: string } }>(
    '/cdn/bg/:pack/:slug/:file',
    hidden,
    async (request, reply) => {
      const { pack, slug, file } = request.params;
      const asset = deps.catalogue.find(`${pack}/${slug}`);
      const match = FILE.exec(file);
      if (!asset || !match) throw notFound('Background');
      if (match[1]) {
        return send(
          request,
          reply,
          await deps.cache.render(asset, { ...THUMBNAIL_SIZE, format: 'webp', scale: 0.5 }),
        );
      }
      const format = (match[2] === 'jpeg' ? 'jpg' : match[2]) as BackgroundFormat;
      if (!BACKGROUND_FORMATS.includes(format)) throw notFound('Background');
      const variant = parseVariant(request.query);
      const options = { ...variant, format };
      const etag = deps.cache.etagFor(deps.cache.keyFor(asset, options));
      if (request.headers['if-none-match'] === etag) {
        return reply
          .code(304)
          .header('etag', etag)
          .header('cache-control', 'public, max-age=31536000, immutable')
          .send();
      }
      return send(request, reply, await deps.cache.render(asset, options));
    },
  );
  app.get<{ Params: { pack: string; file: string } }>(
    '/cdn/bg/:pack/:file',
    hidden,
    async (request, reply) => {
      const match = COVER.exec(request.params.file);
      const pack = deps.catalogue.pack(request.params.pack);
      if (!pack || !match) throw notFound('Background pack');
      const theme = match[1];
      const assets = theme ? pack.assets.filter((a) => a.theme === theme) : pack.assets;
      if (assets.length === 0) throw notFound('Background pack');
      return send(
        request,
        reply,
        await deps.cache.cover(`${pack.pack}-${theme ?? 'all'}`, assets, COVER_SIZE),
      );
    },
  );
}
