/**
 * Request fields to resolved style: the contract's defaults applied (withDefaults), the derived
 * values (DERIVED), shadow, border and camera presets expanded (explicit fields win), and the
 * checks the schema cannot make. The background's resolution and the field checks live beside it.
 */
import { CAPTURE_DEFAULTS, type DepthBlurType } from '@vitrine/contract';
import {
  BORDER_PRESET_VALUES,
  type CameraValues,
  type DepthBlurSettings,
  type ResolvedStyle,
  SHADOW_PRESET_VALUES,
} from '../../compose/index.ts';
import { invalidParam } from '../../errors/app-error.ts';
import type { OutputSettings } from '../../image/output-settings.ts';
import { canvasTextScale, outputWithCanvas } from './canvas-preset.ts';
import { DERIVED, type WithDefaults, withDefaults } from './defaults.ts';
import { resolveBackground } from './resolve-background.ts';
import { resolveCamera } from './resolve-camera.ts';
import { stillFormatOf } from './resolve-motion.ts';
import { checkColor, checkDeviceColor, checkFont, gradientOrThrow } from './style-field-checks.ts';
import type { StyleRequest } from './style-request.ts';

export { gradientOrThrow } from './style-field-checks.ts';
export type { StyleRequest } from './style-request.ts';
export type { ResolvedStyle };

/**
 * The output settings after defaults, in their one shape (OutputSettings): the plan's `output`
 * and the resolved style's are this one value.
 */
export function resolveOutput(output: StyleRequest['output']): OutputSettings {
  // The table's `output` fills the keys the request leaves out (format and dpr).
  const o = withDefaults({ output }).output as NonNullable<StyleRequest['output']> &
    Pick<OutputSettings, 'format' | 'dpr'>;
  return {
    // A video's still (its poster) is a JPEG; the video itself is the motion plan's.
    format: stillFormatOf(o.format) ?? CAPTURE_DEFAULTS.output.format,
    width: o.width ?? null,
    height: o.height ?? null,
    quality: o.quality ?? null,
    dpr: o.dpr,
  };
}

/**
 * Depth-blur fields with per-type defaults; the type defaults to `lens` when the camera is
 * tilted (focus follows the plane), `tilt` otherwise.
 */
function resolveDepthBlur(r: WithDefaults<StyleRequest>, camera: CameraValues): DepthBlurSettings {
  const tilted = camera.tilt_x !== 0 || camera.tilt_y !== 0;
  const type: DepthBlurType =
    r.depth_blur_type ?? (tilted ? DERIVED.depthBlurType.tilted : DERIVED.depthBlurType.flat);
  const d = DERIVED.depthBlurByType[type];
  return {
    depth_blur: r.depth_blur,
    depth_blur_type: type,
    depth_blur_direction: r.depth_blur_direction,
    depth_blur_angle: r.depth_blur_angle,
    depth_blur_position: r.depth_blur_position ?? d.position,
    depth_blur_band: r.depth_blur_band ?? d.band,
    depth_blur_width: r.depth_blur_width ?? d.width,
  };
}

/**
 * Applies the contract's defaults (CAPTURE_DEFAULTS) and expands presets (docs/api-decisions.md,
 * "Defaults"); explicit fields win over presets. Validates what the schema cannot (colours,
 * gradients, fonts, combinations) with 400s naming the field. `background_style: none` with
 * padding 0 and no device gives the plain screenshot (no corner radius or shadow unless asked for).
 * `output` is the resolved output when the caller has it (the plan's), else resolved here.
 */
export function resolveStyle(request: StyleRequest, resolvedOutput?: OutputSettings): ResolvedStyle {
  const r = withDefaults(request);
  const output = resolvedOutput ?? resolveOutput(outputWithCanvas(request));
  // A canvas preset scales the default padding and text sizes with its short side.
  const grow = canvasTextScale(request.canvas);
  const padding = request.padding ?? Math.round(CAPTURE_DEFAULTS.padding * grow);
  const bg = resolveBackground(r);
  if (bg.background_style === 'transparent' && output.format === 'jpg') {
    // A video (its still is a JPEG) has no alpha channel either.
    const requested = request.output?.format ?? output.format;
    throw invalidParam(
      'background_style',
      `transparent needs output.format png or webp: ${requested} has no alpha channel`,
    );
  }
  const theme = bg.background_theme;
  const plain = bg.background_style === 'none' && padding === 0 && !r.device;

  const shadow = r.shadow ?? (plain ? DERIVED.plain.shadow : CAPTURE_DEFAULTS.shadow);
  for (const f of ['shadow_color', 'border_color', 'title_color', 'subtitle_color', 'text_color'] as const) {
    checkColor(f, r[f]);
  }
  const key = shadow === 'none' ? DERIVED.noShadow : SHADOW_PRESET_VALUES[shadow].key;
  const keyColor = shadow === 'glow' && theme === 'light' ? DERIVED.glowOnLight : key.color;

  const border =
    r.border ??
    (r.border_width !== undefined || r.border_color !== undefined
      ? DERIVED.borderWhenStyled
      : CAPTURE_DEFAULTS.border);
  const borderPreset = border === 'none' ? null : BORDER_PRESET_VALUES[border];

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
  const textSize = r.text_size;
  if (r.text_fit_min !== undefined && r.text_fit_min > textSize) {
    throw invalidParam('text_fit_min', `Must not exceed text_size (${textSize})`);
  }
  const ink = DERIVED.ink[theme];
  const overlay = r.title_position === 'overlay-bottom';
  const { device, device_color } = r;
  const camera = resolveCamera(r);
  return {
    ...bg,
    padding,
    corner_radius: r.corner_radius ?? (plain ? DERIVED.plain.corner_radius : CAPTURE_DEFAULTS.corner_radius),
    inset: r.inset,
    inset_balance: r.inset_balance,
    auto_balance: r.auto_balance,
    shadow,
    shadow_color: r.shadow_color ?? keyColor,
    shadow_blur: r.shadow_blur ?? key.blur,
    shadow_offset_x: r.shadow_offset_x ?? key.offset_x,
    shadow_offset_y: r.shadow_offset_y ?? key.offset_y,
    shadow_spread: r.shadow_spread ?? key.spread,
    shadow_opacity: r.shadow_opacity ?? key.opacity,
    border,
    border_color:
      r.border_color ?? (borderPreset ? borderPreset.color[theme === 'dark' ? 'onDark' : 'onLight'] : null),
    border_width: r.border_width ?? borderPreset?.width ?? 0,
    aspect_ratio: r.aspect_ratio,
    frame_ratio: r.frame_ratio,
    device: device ?? null,
    device_color: device ? checkDeviceColor(device, device_color) : (device_color ?? null),
    device_scale: r.device_scale,
    layout: r.layout,
    perspective: r.perspective,
    perspective_intensity: r.perspective_intensity,
    camera_preset: r.camera_preset ?? null,
    ...camera,
    ...resolveDepthBlur(r, camera),
    title: r.title ?? null,
    title_font: checkFont('title_font', r.title_font),
    title_size: request.title_size ?? Math.round(CAPTURE_DEFAULTS.title_size * grow),
    title_color: r.title_color ?? (overlay ? DERIVED.overlayTitleInk : ink),
    title_position: r.title_position,
    subtitle: r.subtitle ?? null,
    subtitle_font: checkFont('subtitle_font', r.subtitle_font),
    subtitle_size: request.subtitle_size ?? Math.round(CAPTURE_DEFAULTS.subtitle_size * grow),
    subtitle_color: r.subtitle_color ?? (overlay ? DERIVED.overlaySubtitleInk : DERIVED.subtitleInk[theme]),
    badge: r.badge ?? null,
    watermark: r.watermark ?? null,
    text_enabled: r.text_enabled ?? r.text_content !== undefined,
    text_content: r.text_content ?? null,
    text_x: r.text_x,
    text_y: r.text_y,
    text_size: textSize,
    text_color: r.text_color ?? ink,
    text_gradient: r.text_gradient ?? null,
    text_shadow: r.text_shadow ?? null,
    text_font: checkFont('text_font', r.text_font),
    text_weight: r.text_weight,
    text_align: r.text_align,
    text_max_width: r.text_max_width ?? null,
    text_line_height: r.text_line_height,
    text_fit_min: r.text_fit_min ?? DERIVED.textFitMin(textSize),
    text_box_h: r.text_box_h ?? null,
    text_autofit: r.text_autofit,
    text_vertical_align: r.text_vertical_align,
    output,
    compose_mode: r.compose_mode,
  };
}
