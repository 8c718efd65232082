/**
 * The background fields of a resolved style: which style applies (gradient, solid, image, none,
 * transparent) when the request leaves it open, the gradient preset expanded to its CSS, and
 * whether light or dark text reads on the result (the theme other defaults follow).
 */
import { CAPTURE_DEFAULTS } from '@vitrine/contract';
import type { ResolvedStyle } from '../../compose/index.ts';
import {
  GRADIENT_PRESETS,
  type GradientPresetName,
  gradientCss,
  parseCssColor,
  relativeLuminance,
} from '../../compose/index.ts';
import { invalidParam } from '../../errors/app-error.ts';
import { checkColor, gradientOrThrow } from './style-field-checks.ts';
import type { StyleRequest } from './style-request.ts';

function themeOf(colors: string[]): 'light' | 'dark' {
  const lum = colors.map((c) => relativeLuminance(parseCssColor(c) ?? { r: 0, g: 0, b: 0, a: 1 }));
  return lum.reduce((a, b) => a + b, 0) / Math.max(1, lum.length) > 0.4 ? 'light' : 'dark';
}

type BackgroundFields = Pick<
  ResolvedStyle,
  | 'background_style'
  | 'background_preset'
  | 'background_gradient'
  | 'background_color'
  | 'background'
  | 'background_image_url'
  | 'background_theme'
>;

export function resolveBackground(r: StyleRequest): BackgroundFields {
  checkColor('background_color', r.background_color);
  if (r.background_image_url !== undefined) {
    let ok = false;
    try {
      ok = ['http:', 'https:'].includes(new URL(r.background_image_url).protocol);
    } catch {}
    if (!ok) throw invalidParam('background_image_url', 'Must be an http or https URL');
  }
  const image = r.background_image_url ?? r.background;
  const style: ResolvedStyle['background_style'] =
    r.background_style ??
    (image
      ? 'image'
      : r.background_color && !r.background_gradient && !r.background_preset
        ? 'solid'
        : 'gradient');
  const base = {
    background_preset: null,
    background_gradient: null,
    background_color: null,
    background: null,
    background_image_url: null,
  };
  if (style === 'solid') {
    const color = r.background_color ?? CAPTURE_DEFAULTS.background_color;
    return { ...base, background_style: style, background_color: color, background_theme: themeOf([color]) };
  }
  if (style === 'none' || style === 'transparent')
    return { ...base, background_style: style, background_theme: 'light' as const };
  if (style === 'image') {
    return {
      ...base,
      background_style: style,
      background: r.background_image_url ? null : (r.background ?? null),
      background_image_url: r.background_image_url ?? null,
      background_theme: 'dark' as const,
    };
  }
  const custom =
    r.background_preset === 'custom' ||
    (r.background_gradient !== undefined && r.background_preset === undefined);
  if (custom) {
    if (!r.background_gradient)
      throw invalidParam('background_gradient', 'Required when background_preset is custom');
    const parsed = gradientOrThrow('background_gradient', r.background_gradient);
    const colors = parsed.stops.map((s) => `rgb(${s.color.r}, ${s.color.g}, ${s.color.b})`);
    return {
      ...base,
      background_style: 'gradient' as const,
      background_preset: 'custom' as const,
      background_gradient: r.background_gradient,
      background_theme: themeOf(colors),
    };
  }
  const preset =
    GRADIENT_PRESETS[(r.background_preset ?? CAPTURE_DEFAULTS.background_preset) as GradientPresetName];
  return {
    ...base,
    background_style: 'gradient' as const,
    background_preset: preset.id,
    background_gradient: gradientCss(preset),
    background_theme: preset.theme,
  };
}
