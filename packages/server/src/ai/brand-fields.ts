import type { Brand } from '@vitrine/contract';
import { converter, formatHex, parse, wcagLuminance } from 'culori';
import type { BrandTitleFont } from '../brand/brand-font.ts';
import { resolveFontFamily } from '../compose/index.ts';
import type { ChosenFields, PageSignals, ScreenshotPalette } from './ai-types.ts';

const toOklch = converter('oklch');

/** A CSS colour as #rrggbb, or null when it is not a colour or is transparent. */
export function hexOf(css: string | null | undefined): string | null {
  if (!css) return null;
  const value = css.includes(':') ? css.slice(css.indexOf(':') + 1).trim() : css;
  const colour = parse(value);
  if (!colour || (colour.alpha !== undefined && colour.alpha < 0.5)) return null;
  return formatHex(colour) ?? null;
}

/** A colour with some saturation: not a grey of the page's background or text. */
function isBrandish(hex: string): boolean {
  const c = toOklch(hex);
  return !!c && (c.c ?? 0) > 0.06 && (c.l ?? 0) > 0.2 && (c.l ?? 0) < 0.92;
}

/**
 * The brand a page shows, from its own signals (same page load): declared colours (custom
 * properties, theme-color) first, then computed colours of primary buttons, links and headings,
 * then the screenshot's palette; fonts from computed heading and body families; dark mode from
 * the palette's luminance. What is not there is null, never invented.
 */
export function brandOfPage(s: PageSignals, palette: ScreenshotPalette, sourceUrl: string): Brand {
  const declared = [...s.colors.customProperties, s.themeColor].map(hexOf);
  const computed = [...s.colors.buttons, ...s.colors.links, ...s.colors.headings].map(hexOf);
  const candidates = [...declared, ...computed, ...palette.colors].filter(
    (c): c is string => c !== null && isBrandish(c),
  );
  const unique = [...new Set(candidates)];
  const byLuminance = [...palette.colors].sort((a, b) => wcagLuminance(b) - wcagLuminance(a));
  const dark = palette.luminance < 0.25;
  const background = hexOf(s.colors.body?.background) ?? palette.colors[0] ?? null;
  const text =
    hexOf(s.colors.body?.text) ?? (dark ? byLuminance[0] : byLuminance[byLuminance.length - 1]) ?? null;
  return {
    name:
      s.ogSiteName ??
      s.title
        .split(/\s+[|\u2013\u2014:-]\s+/)
        .pop()
        ?.trim() ??
      null,
    description: s.metaDescription ?? s.ogDescription,
    logo_url: null,
    icon_url: null,
    og_image_url: null,
    colors: {
      primary: unique[0] ?? null,
      secondary: unique[1] ?? null,
      accent: unique[2] ?? null,
      background,
      text,
      palette: palette.colors.slice(0, 8),
    },
    fonts: { heading: s.fonts.heading, body: s.fonts.body },
    dark_mode: dark,
    source_url: sourceUrl,
    extracted_at: new Date().toISOString(),
  };
}

/**
 * Fields a brand sets: primary and secondary colours as the gradient's stops, the heading font on
 * the title (the site's own file when `titleFont` is one, set by the AI step; the nearest
 * catalogue family when it could not be used; else the family when the catalogue has it), a
 * dark preset for a dark brand without colours.
 */
export function brandFields(
  brand: Brand,
  titleFont: BrandTitleFont | null = null,
): { fields: ChosenFields; reasons: string[] } {
  const fields: ChosenFields = {};
  const reasons: string[] = [];
  const colors = brand.colors;
  const primary = hexOf(colors.primary);
  if (primary) {
    const secondary = hexOf(colors.secondary) ?? shade(primary);
    fields.background_preset = 'custom';
    fields.background_gradient = `linear-gradient(135deg, ${primary} 0%, ${secondary} 100%)`;
    reasons.push(`brand colours ${primary} and ${secondary} as the gradient`);
  } else if (brand.dark_mode) {
    fields.background_preset = 'midnight';
    reasons.push('brand is dark: midnight background');
  }
  const heading = brand.fonts.heading;
  if (titleFont?.kind === 'own') {
    reasons.push(`brand font ${titleFont.name} on the title, drawn from the site's own file`);
  } else if (titleFont) {
    fields.title_font = titleFont.family;
    reasons.push(titleFont.reason);
  } else if (heading && resolveFontFamily(heading)) {
    fields.title_font = heading;
    reasons.push(`brand heading font ${heading} on the title`);
  } else if (heading) {
    reasons.push(`brand heading font ${heading} is not in the font catalogue; title font unchanged`);
  }
  return { fields, reasons };
}

/** A darker, hue-shifted partner of a colour, for a one-colour brand's gradient. */
function shade(hex: string): string {
  const c = toOklch(hex);
  if (!c) return hex;
  return formatHex({ ...c, l: Math.max(0.15, (c.l ?? 0.5) - 0.22), h: ((c.h ?? 0) + 25) % 360 }) ?? hex;
}
