import type { FONT_ROUTES, FontListResponse } from '@vitrine/contract';
import { FONT_FAMILIES, GENERIC_FONT_FAMILIES } from '../../compose/index.ts';
import type { RouteHandler } from '../route-handler.ts';

export interface FontHandlers {
  listFonts: RouteHandler<typeof FONT_ROUTES.listFonts>;
}

/** The catalogue as GET /v1/fonts lists it: the same table the renderers load their faces from. */
export function fontList(): FontListResponse {
  return {
    fonts: FONT_FAMILIES.map((f) => ({
      family: f.family,
      genre: f.genre,
      weights: [...f.weights],
      subsets: [...f.subsets],
      license: f.license,
      package: f.packageName,
    })),
    generic: { ...GENERIC_FONT_FAMILIES },
  };
}

/** Handler of GET /v1/fonts. */
export function fontHandlers(): FontHandlers {
  const list = fontList();
  return { listFonts: async () => list };
}
