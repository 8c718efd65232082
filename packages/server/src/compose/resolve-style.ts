import type {
  AspectRatio,
  BackgroundPresetName,
  BorderPreset,
  ComposeFields,
  ComposeMode,
  OutputFormat,
  OutputOptions,
  ShadowPreset,
  TextAlign,
  TextVerticalAlign,
  TitlePosition,
} from '@vitrine/contract';
import { invalidParam } from '../errors/app-error.ts';
import { GRADIENT_PRESETS, type GradientPresetName, gradientCss } from './backgrounds/gradient-presets.ts';
import { BORDER_PRESETS } from './border-presets.ts';
import { type CameraValues, resolveCamera } from './camera/camera-presets.ts';
import { parseCssColor, relativeLuminance } from './css/css-color.ts';
import { GradientSyntaxError, type ParsedGradient, parseCssGradient } from './css/css-gradient.ts';
import { DEPTH_BLUR_DEFAULTS, type DepthBlurSettings } from './effects/depth-blur-mask.ts';
import { resolveDeviceFinish } from './frames/device-finish.ts';
import { GLOW_ON_LIGHT_COLOR, SHADOW_PRESETS } from './shadow-presets.ts';
import { FONT_NAMES, resolveFontFamily } from './text/font-families.ts';

/** The styling part of a capture request: the compose fields plus `output`. */
export type StyleRequest = ComposeFields & { output?: OutputOptions | undefined };

/**
 * Every effective styling value after defaults and presets, flat and JSON-serialisable, named
 * like the request fields: this is what `resolved_params` shows and what `buildScene` reads.
 * `background_style` may be `image` (a hosted or custom image background).
 */
export interface ResolvedStyle extends CameraValues, DepthBlurSettings {
  background_style: 'gradient' | 'solid' | 'none' | 'transparent' | 'image';
  background_preset: BackgroundPresetName | null;
  background_gradient: string | null;
  background_color: string | null;
  background: string | null;
  background_image_url: string | null;
  /** Whether light or dark text reads on the background; drives default text/border colours. */
  background_theme: 'light' | 'dark';
  padding: number;
  corner_radius: number;
  inset: number;
  inset_balance: boolean;
  auto_balance: boolean;
  shadow: ShadowPreset;
  shadow_color: string;
  shadow_blur: number;
  shadow_offset_x: number;
  shadow_offset_y: number;
  shadow_spread: number;
  shadow_opacity: number;
  border: BorderPreset;
  border_color: string | null;
  border_width: number;
  aspect_ratio: AspectRatio;
  frame_ratio: AspectRatio;
  device: ComposeFields['device'] | null;
  device_color: string | null;
  device_scale: number;
  layout: NonNullable<ComposeFields['layout']>;
  perspective: NonNullable<ComposeFields['perspective']>;
  perspective_intensity: number;
  camera_preset: ComposeFields['camera_preset'] | null;
  title: string | null;
  title_font: string;
  title_size: number;
  title_color: string;
  title_position: TitlePosition;
  subtitle: string | null;
  subtitle_font: string;
  subtitle_size: number;
  subtitle_color: string;
  badge: string | null;
  watermark: string | null;
  text_enabled: boolean;
  text_content: string | null;
  text_x: number;
  text_y: number;
  text_size: number;
  text_color: string;
  text_gradient: string | null;
  text_shadow: string | null;
  text_font: string;
  text_weight: number;
  text_align: TextAlign;
  text_max_width: number | null;
  text_line_height: number;
  text_fit_min: number;
  text_box_h: number | null;
  text_autofit: boolean;
  text_vertical_align: TextVerticalAlign;
  output: {
    format: OutputFormat;
    width: number | null;
    height: number | null;
    quality: number | null;
    dpr: number;
  };
  compose_mode: ComposeMode;
}

/**
 * Depth-blur fields with per-type defaults; the type defaults to `lens` when the camera is
 * tilted (focus follows the plane), `tilt` otherwise.
 */
function resolveDepthBlur(r: StyleRequest, camera: CameraValues): DepthBlurSettings {
  const type = r.depth_blur_type ?? (camera.tilt_x !== 0 || camera.tilt_y !== 0 ? 'lens' : 'tilt');
  const d = DEPTH_BLUR_DEFAULTS[type];
  return {
    depth_blur: r.depth_blur ?? 0,
    depth_blur_type: type,
    depth_blur_direction: r.depth_blur_direction ?? 'top',
    depth_blur_angle: r.depth_blur_angle ?? 0,
    depth_blur_position: r.depth_blur_position ?? d.position,
    depth_blur_band: r.depth_blur_band ?? d.band,
    depth_blur_width: r.depth_blur_width ?? d.width,
  };
}

const COLOR_HINT =
  'Must be a CSS color: #rgb, #rrggbb, #rrggbbaa, rgb(), rgba(), hsl(), hsla() or a color name';

function checkColor(field: string, value: string | undefined): string | undefined {
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

function checkFont(field: string, value: string | undefined, fallback: string): string {
  if (value === undefined) return fallback;
  const family = resolveFontFamily(value);
  if (!family) throw invalidParam(field, `Unknown font. Must be one of: ${FONT_NAMES.join(', ')}`);
  return family.family;
}

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

function resolveBackground(r: StyleRequest): BackgroundFields {
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
    const color = r.background_color ?? '#FFFFFF';
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
  const preset = GRADIENT_PRESETS[(r.background_preset ?? 'aurora') as GradientPresetName];
  return {
    ...base,
    background_style: 'gradient' as const,
    background_preset: preset.id,
    background_gradient: gradientCss(preset),
    background_theme: preset.theme,
  };
}

/**
 * Applies the contract's defaults and expands presets (contract.md 4): gradient aurora, padding
 * 64, corner_radius 12, shadow soft, png at dpr 1; explicit fields win over presets. Validates
 * what the schema cannot (colours, gradients, fonts, combinations) with 400s naming the field.
 * `background_style: none` with padding 0 and no device gives the plain screenshot (no corner
 * radius or shadow unless asked for).
 */
export function resolveStyle(r: StyleRequest): ResolvedStyle {
  const bg = resolveBackground(r);
  const format = r.output?.format ?? 'png';
  if (bg.background_style === 'transparent' && format === 'jpg') {
    throw invalidParam(
      'background_style',
      'transparent needs output.format png or webp: jpg has no alpha channel',
    );
  }
  const dark = bg.background_theme === 'dark';
  const padding = r.padding ?? 64;
  const plain = bg.background_style === 'none' && padding === 0 && !r.device;

  const shadow = r.shadow ?? (plain ? 'none' : 'soft');
  for (const f of ['shadow_color', 'border_color', 'title_color', 'subtitle_color', 'text_color'] as const) {
    checkColor(f, r[f]);
  }
  const key =
    shadow === 'none'
      ? { color: '#000000', blur: 0, offset_x: 0, offset_y: 0, spread: 0, opacity: 0 }
      : SHADOW_PRESETS[shadow].key;
  const keyColor = shadow === 'glow' && !dark ? GLOW_ON_LIGHT_COLOR : key.color;

  const border = r.border ?? (r.border_width !== undefined || r.border_color !== undefined ? 'bold' : 'none');
  const borderPreset = border === 'none' ? null : BORDER_PRESETS[border];

  if (r.text_gradient !== undefined) gradientOrThrow('text_gradient', r.text_gradient);
  if (
    r.text_shadow !== undefined &&
    !/^\s*-?[\d.]+(px)?\s+-?[\d.]+(px)?(\s+[\d.]+(px)?)?\s+\S.*$/.test(r.text_shadow)
  ) {
    throw invalidParam(
      'text_shadow',
      'Must be a CSS text-shadow "x y blur color", e.g. "0 2px 12px rgba(0,0,0,0.4)"',
    );
  }
  const textSize = r.text_size ?? 64;
  if (r.text_fit_min !== undefined && r.text_fit_min > textSize) {
    throw invalidParam('text_fit_min', `Must not exceed text_size (${textSize})`);
  }
  const ink = dark ? '#FFFFFF' : '#0F172A';
  const titlePosition = r.title_position ?? 'above';
  const overlay = titlePosition === 'overlay-bottom';
  const { device, device_color, device_scale, layout, perspective } = r;
  const camera = resolveCamera(r);
  return {
    ...bg,
    padding,
    corner_radius: r.corner_radius ?? (plain ? 0 : 12),
    inset: r.inset ?? 0,
    inset_balance: r.inset_balance ?? false,
    auto_balance: r.auto_balance ?? false,
    shadow,
    shadow_color: r.shadow_color ?? keyColor,
    shadow_blur: r.shadow_blur ?? key.blur,
    shadow_offset_x: r.shadow_offset_x ?? key.offset_x,
    shadow_offset_y: r.shadow_offset_y ?? key.offset_y,
    shadow_spread: r.shadow_spread ?? key.spread,
    shadow_opacity: r.shadow_opacity ?? key.opacity,
    border,
    border_color:
      r.border_color ??
      (borderPreset ? (dark ? borderPreset.color.onDark : borderPreset.color.onLight) : null),
    border_width: r.border_width ?? borderPreset?.width ?? 0,
    aspect_ratio: r.aspect_ratio ?? 'auto',
    frame_ratio: r.frame_ratio ?? 'auto',
    device: device ?? null,
    device_color: device ? resolveDeviceFinish(device, device_color).name : (device_color ?? null),
    device_scale: device_scale ?? 1,
    layout: layout ?? 'default',
    perspective: perspective ?? 'none',
    perspective_intensity: r.perspective_intensity ?? 1,
    camera_preset: r.camera_preset ?? null,
    ...camera,
    ...resolveDepthBlur(r, camera),
    title: r.title ?? null,
    title_font: checkFont('title_font', r.title_font, 'Inter'),
    title_size: r.title_size ?? 56,
    title_color: r.title_color ?? (overlay ? '#FFFFFF' : ink),
    title_position: titlePosition,
    subtitle: r.subtitle ?? null,
    subtitle_font: checkFont('subtitle_font', r.subtitle_font, 'Inter'),
    subtitle_size: r.subtitle_size ?? 24,
    subtitle_color: r.subtitle_color ?? (dark || overlay ? 'rgba(255, 255, 255, 0.8)' : '#475569'),
    badge: r.badge ?? null,
    watermark: r.watermark ?? null,
    text_enabled: r.text_enabled ?? r.text_content !== undefined,
    text_content: r.text_content ?? null,
    text_x: r.text_x ?? 0.5,
    text_y: r.text_y ?? 0.5,
    text_size: textSize,
    text_color: r.text_color ?? ink,
    text_gradient: r.text_gradient ?? null,
    text_shadow: r.text_shadow ?? null,
    text_font: checkFont('text_font', r.text_font, 'Inter'),
    text_weight: r.text_weight ?? 700,
    text_align: r.text_align ?? 'center',
    text_max_width: r.text_max_width ?? null,
    text_line_height: r.text_line_height ?? 1.15,
    text_fit_min: r.text_fit_min ?? Math.min(textSize, Math.max(12, Math.round(textSize * 0.4))),
    text_box_h: r.text_box_h ?? null,
    text_autofit: r.text_autofit ?? false,
    text_vertical_align: r.text_vertical_align ?? 'middle',
    output: {
      format,
      width: r.output?.width ?? null,
      height: r.output?.height ?? null,
      quality: r.output?.quality ?? null,
      dpr: r.output?.dpr ?? 1,
    },
    compose_mode: r.compose_mode ?? 'satori',
  };
}
