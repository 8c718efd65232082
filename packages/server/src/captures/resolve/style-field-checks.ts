/**
 * Checks of style fields the request schema cannot make: CSS colours, CSS gradients and font
 * names, each failing with a 400 that names the field and says what it must be.
 */
import type { Device } from '@vitrine/contract';
import {
  FONT_NAMES,
  FRAME_CATALOGUE,
  findDeviceFinish,
  GradientSyntaxError,
  type ParsedGradient,
  parseCssColor,
  parseCssGradient,
  resolveFontFamily,
} from '../../compose/index.ts';
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

/** A font name (the default applied) as its catalogue family, or a 400 naming the field. */
export function checkFont(field: string, value: string): string {
  const family = resolveFontFamily(value);
  if (!family) throw invalidParam(field, `Unknown font. Must be one of: ${FONT_NAMES.join(', ')}`);
  return family.family;
}

/** A device's `device_color`: one of its named finishes or a CSS colour; its canonical name. */
export function checkDeviceColor(device: Device, value: string | undefined): string {
  const finish = findDeviceFinish(device, value);
  if (!finish) {
    const { finishes } = FRAME_CATALOGUE[device];
    throw invalidParam(
      'device_color',
      `Unknown finish for ${device}. Must be one of: ${finishes.join(', ')}, or a CSS color`,
    );
  }
  return finish.name;
}
