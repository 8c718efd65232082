import type { BorderPreset } from '@vitrine/contract';

/**
 * How a border is drawn. `rim`: a hairline over the screenshot's edge (does not grow the frame);
 * `solid`: a band around the screenshot; `glass`: a frosted band (the background blurred and
 * lightened beneath it, with a bright hairline on its outer edge).
 */
export type BorderKind = 'rim' | 'solid' | 'glass';

export interface BorderPresetSpec {
  kind: BorderKind;
  /** CSS px at dpr 1. */
  width: number;
  /** Colour on dark backgrounds and on light ones. */
  color: { onDark: string; onLight: string };
}

/** What each `border` preset expands to; explicit `border_color` / `border_width` override. */
export const BORDER_PRESET_VALUES: Record<Exclude<BorderPreset, 'none'>, BorderPresetSpec> = {
  subtle: {
    kind: 'rim',
    width: 1,
    color: { onDark: 'rgba(255, 255, 255, 0.35)', onLight: 'rgba(15, 23, 42, 0.12)' },
  },
  bold: { kind: 'solid', width: 8, color: { onDark: '#FFFFFF', onLight: '#0F172A' } },
  glass: {
    kind: 'glass',
    width: 14,
    color: { onDark: 'rgba(255, 255, 255, 0.22)', onLight: 'rgba(255, 255, 255, 0.5)' },
  },
};
