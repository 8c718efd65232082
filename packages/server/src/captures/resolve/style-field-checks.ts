/**
 * Checks of style fields the request schema cannot make: CSS colours, CSS gradients and font
 * names, each failing with a 400 that names the field and says what it must be.
 */

import { parseCssColor } from '../../compose/css/css-color.ts';
import {
  GradientSyntaxError,
  type ParsedGradient,
  parseCssGradient,
} from '../../compose/css/css-gradient.ts';
import { FONT_NAMES, resolveFontFamily } from '../../compose/text/font-families.ts';
import { invalidParam } from '../../errors/app-error.ts';

const COLOR_HINT =
  'Must be a CSS color: #rgb, #rrggbb, #rrggbbaa, rgb(), rgba(), hsl(), hsla() or a color name';

export function checkColor(field: string, value: string | undefined): string | undefined {
  if (value !== undefined && parseCssColor(value) === null) throw invalidParam(field, COLOR_HINT);
  return value;
}

/** Parses a gradient field or throws a 400 naming it. */
export function gradientOrThrow(field: string, css: string): ParsedGradient {
  try {
    return parseCssGradient(css);
  } catch (err) {
    if (!(err instanceof GradientSyntaxError)) throw err;
    throw invalidParam(
      field,
      `Must be a CSS linear-gradient(), radial-gradient() or conic-gradient() with colour stops: ${err.message}`,
    );
  }
}

export function checkFont(field: string, value: string | undefined, fallback: string): string {
  if (value === undefined) return fallback;
  const family = resolveFontFamily(value);
  if (!family) throw invalidParam(field, `Unknown font. Must be one of: ${FONT_NAMES.join(', ')}`);
  return family.family;
}
