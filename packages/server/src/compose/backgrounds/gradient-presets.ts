import { BACKGROUND_PRESETS, type BackgroundPresetName } from '@vitrine/contract';
/**
 * The eight named gradients (`background_preset`). One source of truth: the composition engine
 * draws them and GET /v1/backgrounds lists them. Each is a designed linear gradient with three
 * stops; `theme` says whether light or dark text reads on it.
 */
export type GradientPresetName = Exclude<BackgroundPresetName, 'custom'>;
/** The named presets, in the contract's order (`custom` is not a preset of its own). */
export const GRADIENT_PRESET_NAMES = BACKGROUND_PRESETS.filter(
  (name): name is GradientPresetName => name !== 'custom',
);

export interface GradientStop {
  color: string;
  /** Percentage, e.g. `45%`. */
  position: string;
}

export interface GradientPreset {
  id: GradientPresetName;
  name: string;
  /** CSS angle in degrees (0 = to top, 90 = to right). */
  angle: number;
  stops: GradientStop[];
  theme: 'light' | 'dark';
}

function preset(
  id: GradientPresetName,
  name: string,
  angle: number,
  theme: 'light' | 'dark',
  colors: [string, number][],
) {
  return { id, name, angle, theme, stops: colors.map(([color, at]) => ({ color, position: `${at}%` })) };
}

export const GRADIENT_PRESETS: Record<GradientPresetName, GradientPreset> = {
  aurora: preset('aurora', 'Aurora', 135, 'dark', [
    ['#4338CA', 0],
    ['#7C3AED', 42],
    ['#2DD4BF', 100],
  ]),
  sunset: preset('sunset', 'Sunset', 135, 'dark', [
    ['#F97316', 0],
    ['#EC4899', 55],
    ['#8B5CF6', 100],
  ]),
  ocean: preset('ocean', 'Ocean', 160, 'dark', [
    ['#38BDF8', 0],
    ['#2563EB', 52],
    ['#1E3A8A', 100],
  ]),
  midnight: preset('midnight', 'Midnight', 150, 'dark', [
    ['#0B1120', 0],
    ['#1E1B4B', 55],
    ['#3730A3', 100],
  ]),
  arctic: preset('arctic', 'Arctic', 135, 'light', [
    ['#E0F2FE', 0],
    ['#F8FAFC', 48],
    ['#DDD6FE', 100],
  ]),
  dusk: preset('dusk', 'Dusk', 135, 'dark', [
    ['#1E1B4B', 0],
    ['#7E22CE', 50],
    ['#F472B6', 100],
  ]),
  forest: preset('forest', 'Forest', 145, 'dark', [
    ['#052E16', 0],
    ['#166534', 48],
    ['#65A30D', 100],
  ]),
  ember: preset('ember', 'Ember', 135, 'dark', [
    ['#450A0A', 0],
    ['#B91C1C', 45],
    ['#F59E0B', 100],
  ]),
};

/** The preset as a CSS `linear-gradient()`. */
export function gradientCss(p: GradientPreset): string {
  return `linear-gradient(${p.angle}deg, ${p.stops.map((s) => `${s.color} ${s.position}`).join(', ')})`;
}
