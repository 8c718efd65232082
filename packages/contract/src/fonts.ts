import { z } from 'zod';
import type { RouteDefinition } from './routes.ts';

/** One family of the font catalogue. */
export const fontFamilyItemSchema = z.object({
  family: z.string().meta({ description: 'The name `title_font`, `subtitle_font` and `text_font` accept' }),
  genre: z.enum(['sans', 'serif', 'mono']).meta({
    description: 'Which system faces stand in for the scripts the family lacks (sans, serif or mono designs)',
  }),
  weights: z.array(z.number().int()).meta({
    description: 'The weights drawn; another requested weight gets the nearest of these',
  }),
  subsets: z.array(z.string()).meta({
    description:
      "The family's own scripts; text in other scripts is drawn in the matching Noto face, in both compose modes",
  }),
  license: z.string().meta({ description: 'SPDX licence of the font files' }),
  package: z.string().meta({ description: 'The npm package the files come from' }),
});
export type FontFamilyItem = z.infer<typeof fontFamilyItemSchema>;

export const fontListResponseSchema = z.object({
  fonts: z.array(fontFamilyItemSchema),
  generic: z.record(z.string(), z.string()).meta({
    description: 'Generic CSS family names also accepted, and the family each one is drawn in',
  }),
});
export type FontListResponse = z.infer<typeof fontListResponseSchema>;

/** The font catalogue's route, spread into `ROUTES` (public, like the background catalogue). */
export const FONT_ROUTES = {
  listFonts: {
    operationId: 'listFonts',
    method: 'GET',
    path: '/v1/fonts',
    summary: 'The font catalogue: the families title_font, subtitle_font and text_font accept',
    tag: 'Fonts',
    access: { kind: 'public' },
    rateLimit: 'default',
    success: {
      status: 200,
      schema: fontListResponseSchema,
      description: 'Every family, and the generic names',
    },
    errors: [],
  },
} as const satisfies Record<string, RouteDefinition>;
