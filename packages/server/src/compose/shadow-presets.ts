import type { ShadowPreset } from '@vitrine/contract';
import type { ResolvedStyle } from './style-types.ts';

/** One drop shadow in CSS px at dpr 1, as `box-shadow` would say it. */
export interface ShadowSpec {
  color: string;
  blur: number;
  offset_x: number;
  offset_y: number;
  spread: number;
  opacity: number;
}

/**
 * What each `shadow` preset expands to. `key` is the shadow the `shadow_*` fields describe (and
 * override); `ambient` are quieter companion layers (a contact shadow under the frame) that make
 * the lift read as real, scaled with the key's opacity. Values are tuned for a ~1440 px frame.
 */
export const SHADOW_PRESET_VALUES: Record<
  Exclude<ShadowPreset, 'none'>,
  { key: ShadowSpec; ambient: ShadowSpec[] }
> = {
  soft: {
    key: { color: '#0F172A', blur: 64, offset_x: 0, offset_y: 24, spread: -8, opacity: 0.4 },
    ambient: [{ color: '#0F172A', blur: 10, offset_x: 0, offset_y: 3, spread: 0, opacity: 0.14 }],
  },
  hard: {
    key: { color: '#0B0B12', blur: 0, offset_x: 16, offset_y: 16, spread: 0, opacity: 0.85 },
    ambient: [],
  },
  glow: {
    key: { color: '#FFFFFF', blur: 96, offset_x: 0, offset_y: 0, spread: 8, opacity: 0.5 },
    ambient: [],
  },
  float: {
    key: { color: '#0F172A', blur: 120, offset_x: 0, offset_y: 56, spread: -16, opacity: 0.5 },
    ambient: [{ color: '#0F172A', blur: 28, offset_x: 0, offset_y: 12, spread: -4, opacity: 0.2 }],
  },
};

/** The key shadow a style asks for (its shadow_* fields); a preset adds its ambient layers. */
export function keyShadowOf(s: ResolvedStyle): ShadowSpec {
  return {
    color: s.shadow_color,
    blur: s.shadow_blur,
    offset_x: s.shadow_offset_x,
    offset_y: s.shadow_offset_y,
    spread: s.shadow_spread,
    opacity: s.shadow_opacity,
  };
}
