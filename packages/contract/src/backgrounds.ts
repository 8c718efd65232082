import { z } from 'zod';
import { BACKGROUND_PRESETS } from './compose-fields.ts';
import type { RouteDefinition } from './routes.ts';

/** Asset groups of the hosted catalogue (interface.md 4.1). */
export const BACKGROUND_GROUPS = ['backgrounds', 'gradients', 'css-backgrounds'] as const;
export type BackgroundGroupName = (typeof BACKGROUND_GROUPS)[number];

export const BACKGROUND_THEMES = ['light', 'dark', 'mixed'] as const;
export type BackgroundThemeName = (typeof BACKGROUND_THEMES)[number];

/** The named gradients (`background_preset`); `custom` is accepted by captures, never listed. */
export const BACKGROUND_PRESET_NAMES = BACKGROUND_PRESETS;

export const BACKGROUND_LIST_DEFAULT_LIMIT = 50;
export const BACKGROUND_LIST_MAX_LIMIT = 200;

/**
 * A comma-separated query list (`a,b`); trimmed, lowercased, empty entries dropped. The document
 * shows it as what it is, an array of its items, serialised `style: form, explode: false` (set on
 * the query objects below): a repeated parameter is refused, as on every GET.
 */
function commaList<T extends z.ZodType>(items: T, description: string) {
  return z
    .preprocess((value) => {
      const raw = Array.isArray(value) ? value.join(',') : value;
      if (typeof raw !== 'string') return raw;
      const list = raw
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter((s) => s.length > 0);
      return list.length > 0 ? list : undefined;
    }, z.array(items).max(50).optional())
    .meta({ description });
}

/** How the comma-separated lists travel in the query string (OpenAPI parameter serialisation). */
const COMMA_SEPARATED = { style: 'form', explode: false } as const;

const groupList = commaList(
  z.enum(BACKGROUND_GROUPS),
  'Comma-separated asset groups. Default: backgrounds, gradients, css-backgrounds',
);

const themeParam = z
  .preprocess(
    (value) => (typeof value === 'string' && value.trim() !== '' ? value.trim().toLowerCase() : undefined),
    z.enum(BACKGROUND_THEMES).optional(),
  )
  .meta({ description: 'One of: light, dark, mixed' });

const searchParam = z
  .preprocess(
    (value) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined),
    z.string().max(200).optional(),
  )
  .meta({ description: 'Case-insensitive; every word must match the name, pack or a tag' });

/** Query of GET /v1/backgrounds/packs. */
export const backgroundPacksQuerySchema = z
  .object({
    group: groupList,
    type: commaList(z.string().max(100), 'Comma-separated asset types'),
    theme: themeParam,
    q: searchParam,
  })
  .meta(COMMA_SEPARATED);
export type BackgroundPacksQuery = z.output<typeof backgroundPacksQuerySchema>;

/** Query of GET /v1/backgrounds: the packs filters plus `pack` and paging. */
export const backgroundListQuerySchema = backgroundPacksQuerySchema
  .extend({
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .default(BACKGROUND_LIST_DEFAULT_LIMIT)
      .transform((n) => Math.min(n, BACKGROUND_LIST_MAX_LIMIT))
      .meta({
        description: `Default ${BACKGROUND_LIST_DEFAULT_LIMIT}; values above ${BACKGROUND_LIST_MAX_LIMIT} are treated as ${BACKGROUND_LIST_MAX_LIMIT}`,
      }),
    offset: z.coerce.number().int().min(0).default(0),
    pack: commaList(z.string().max(100), 'Comma-separated pack names'),
  })
  .meta(COMMA_SEPARATED);
export type BackgroundListQuery = z.output<typeof backgroundListQuerySchema>;

/** Interface.md 2.3. */
export const gradientPresetSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.literal('gradient_preset'),
    background_style: z.literal('gradient'),
    background_preset: z.enum(BACKGROUND_PRESET_NAMES),
    css: z.string(),
    stops: z.array(z.object({ color: z.string(), position: z.string() })),
  })
  .meta({ id: 'GradientPreset' });
export type GradientPresetItem = z.infer<typeof gradientPresetSchema>;

/** Interface.md 2.4. */
export const backgroundAssetSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string().nullable(),
    type: z.string().nullable(),
    subtype: z.string().nullable(),
    group: z.string().nullable(),
    pack: z.string().nullable(),
    theme: z.string().nullable(),
    format: z.string().nullable(),
    tags: z.array(z.string()),
    background: z
      .string()
      .nullable()
      .meta({ description: 'The reference usable in the capture field `background`' }),
    image_url: z.url().nullable(),
    thumbnail_url: z.url().nullable(),
    config: z.unknown().nullable(),
    service_params: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'BackgroundAsset' });
export type BackgroundAssetItem = z.infer<typeof backgroundAssetSchema>;

/** Interface.md 2.5. */
export const backgroundPackSchema = z
  .object({
    group: z.string().nullable(),
    pack: z.string().nullable(),
    theme: z.string().nullable(),
    count: z.number().int(),
    cover_url: z.url().nullable(),
    thumbnail_url: z.url().nullable(),
  })
  .meta({ id: 'BackgroundPack' });
export type BackgroundPackItem = z.infer<typeof backgroundPackSchema>;

export const backgroundListResponseSchema = z.object({
  presets: z.array(gradientPresetSchema),
  backgrounds: z.array(backgroundAssetSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type BackgroundListResponse = z.infer<typeof backgroundListResponseSchema>;

export const backgroundPacksResponseSchema = z.object({ packs: z.array(backgroundPackSchema) });
export type BackgroundPacksResponse = z.infer<typeof backgroundPacksResponseSchema>;

/** The two catalogue routes, to be spread into `ROUTES` (docs/api-decisions.md section 7: public). */
export const BACKGROUND_ROUTES = {
  listBackgrounds: {
    operationId: 'listBackgrounds',
    method: 'GET',
    path: '/v1/backgrounds',
    summary: 'Gradient presets and hosted background assets',
    tag: 'Backgrounds',
    access: { kind: 'public' },
    rateLimit: 'default',
    query: backgroundListQuerySchema,
    success: {
      status: 200,
      schema: backgroundListResponseSchema,
      description: 'Presets and one page of assets',
    },
    errors: ['invalid_params'],
  },
  listBackgroundPacks: {
    operationId: 'listBackgroundPacks',
    method: 'GET',
    path: '/v1/backgrounds/packs',
    summary: 'Background packs with counts and cover thumbnails',
    tag: 'Backgrounds',
    access: { kind: 'public' },
    rateLimit: 'default',
    query: backgroundPacksQuerySchema,
    success: {
      status: 200,
      schema: backgroundPacksResponseSchema,
      description: 'Packs, one per pack and theme',
    },
    errors: ['invalid_params'],
  },
} as const satisfies Record<string, RouteDefinition>;
