/**
 * Defaults, applied once. `withDefaults` fills every field the contract's table
 * (CAPTURE_DEFAULTS) gives a static default for and the request left out; the fields whose
 * default depends on other fields are left alone and resolved by the rules of DERIVED, the named
 * table beside it. No resolver writes `?? CAPTURE_DEFAULTS.x` by hand.
 */
import { CAPTURE_DEFAULTS, type DepthBlurType } from '@vitrine/contract';

type Defaults = typeof CAPTURE_DEFAULTS;

/**
 * Fields whose value depends on other fields (or on a device), so the static default is only the
 * last step of a rule in DERIVED or in the page resolver; `withDefaults` never fills them.
 * Delivery fields (`async`) are read by the capture service, not resolved into the plan.
 */
const CONDITIONAL = [
  // A device's own viewport and mobile emulation come before the static ones.
  'viewport',
  'emulate_mobile',
  // Inferred from the other background fields (an image, a colour, a gradient).
  'background_style',
  'background_preset',
  'background_color',
  // The plain look (no background, no padding, no device) drops them.
  'shadow',
  'corner_radius',
  // A border width or colour alone means the `bold` border.
  'border',
  'async',
] as const;

type ConditionalField = (typeof CONDITIONAL)[number];
type StaticField = Exclude<keyof Defaults, ConditionalField>;
const CONDITIONAL_FIELDS: ReadonlySet<string> = new Set(CONDITIONAL);

/** A request with every static default applied: those fields are no longer optional. */
export type WithDefaults<T> = T & {
  [K in StaticField & keyof T]-?: Exclude<T[K], undefined>;
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The request with the contract's static defaults applied: a field the request leaves out takes
 * the table's value; an object field (`output`) takes the table's value for each key it leaves
 * out. Conditional fields are kept as given (see CONDITIONAL). The request is not modified.
 */
export function withDefaults<T extends object>(request: T): WithDefaults<T> {
  const out: Record<string, unknown> = { ...(request as Record<string, unknown>) };
  for (const [field, fallback] of Object.entries(CAPTURE_DEFAULTS)) {
    if (CONDITIONAL_FIELDS.has(field)) continue;
    const given = out[field];
    if (given === undefined) {
      out[field] = isPlainObject(fallback) ? { ...fallback } : fallback;
    } else if (isPlainObject(fallback) && isPlainObject(given)) {
      const merged: Record<string, unknown> = { ...given };
      for (const [key, value] of Object.entries(fallback)) merged[key] ??= value;
      out[field] = merged;
    }
  }
  return out as WithDefaults<T>;
}

/** Ink on a light and a dark background (the background's theme decides which). */
interface ThemeInk {
  light: string;
  dark: string;
}

/**
 * Values derived from other fields rather than defaulted, each rule once. Read by the resolvers
 * in this folder; the compositor only ever sees their results.
 */
export const DERIVED = {
  /** Text (title, free text) on a light or dark background. */
  ink: { light: '#0F172A', dark: '#FFFFFF' } satisfies ThemeInk,
  /** The subtitle, quieter than the title. */
  subtitleInk: { light: '#475569', dark: 'rgba(255, 255, 255, 0.8)' } satisfies ThemeInk,
  /** A title over the screenshot (`title_position: overlay-bottom`) reads on its scrim. */
  overlayTitleInk: '#FFFFFF',
  /** The subtitle over the screenshot. */
  overlaySubtitleInk: 'rgba(255, 255, 255, 0.8)',
  /** Glow on a light background: a white halo would vanish, so it takes an accent colour. */
  glowOnLight: '#7C3AED',
  /** `shadow: none` as values. */
  noShadow: { color: '#000000', blur: 0, offset_x: 0, offset_y: 0, spread: 0, opacity: 0 },
  /** A border given only by its width or colour. */
  borderWhenStyled: 'bold',
  /** The plain look (`background_style: none`, padding 0, no device): no shadow, square corners. */
  plain: { shadow: 'none', corner_radius: 0 },
  /** Touch emulation follows mobile emulation, then the device; without either, none. */
  hasTouch: false,
  /** A tilted camera blurs with the focal plane (`lens`); a flat one with a band (`tilt`). */
  depthBlurType: { tilted: 'lens', flat: 'tilt' } satisfies Record<string, DepthBlurType>,
  /** Depth-blur geometry per type, when the request leaves it open. */
  depthBlurByType: {
    dir: { position: 0.5, band: 0, width: 0.6 },
    radial: { position: 0.5, band: 0.35, width: 0.5 },
    tilt: { position: 0.5, band: 0.25, width: 0.35 },
    lens: { position: 0.5, band: 0.08, width: 0.45 },
  } satisfies Record<DepthBlurType, { position: number; band: number; width: number }>,
  /** The smallest size autofit may shrink free text to: 40% of `text_size`, at least 12 px. */
  textFitMin: (textSize: number) => Math.min(textSize, Math.max(12, Math.round(textSize * 0.4))),
} as const;
