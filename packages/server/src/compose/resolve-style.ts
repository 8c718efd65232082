/**
 * Request fields to resolved style: the contract's defaults applied, shadow, border and camera
 * presets expanded (explicit fields win), depth-blur defaults by type, and the checks the schema
 * cannot make. The background's resolution and the field checks live beside it.
 */
import { CAPTURE_DEFAULTS as D, type OutputFormat } from '@vitrine/contract';
import { invalidParam } from '../errors/app-error.ts';
import { BORDER_PRESETS } from './border-presets.ts';
import { type CameraValues, resolveCamera } from './camera/camera-presets.ts';
import { canvasTextScale, outputWithCanvas } from './canvas-preset.ts';
import { DEPTH_BLUR_DEFAULTS, type DepthBlurSettings } from './effects/depth-blur-mask.ts';
import { resolveDeviceFinish } from './frames/device-finish.ts';
import { resolveBackground } from './resolve-background.ts';
import { GLOW_ON_LIGHT_COLOR, SHADOW_PRESETS } from './shadow-presets.ts';
import { checkColor, checkFont, gradientOrThrow } from './style-field-checks.ts';
import type { ResolvedStyle, StyleRequest } from './style-types.ts';

export { gradientOrThrow } from './style-field-checks.ts';
export type { ResolvedStyle, StyleRequest } from './style-types.ts';

/**
 * Depth-blur fields with per-type defaults; the type defaults to `lens` when the camera is
 * tilted (focus follows the plane), `tilt` otherwise.
 */
function resolveDepthBlur(r: StyleRequest, camera: CameraValues): DepthBlurSettings {
  const type = r.depth_blur_type ?? (camera.tilt_x !== 0 || camera.tilt_y !== 0 ? 'lens' : 'tilt');
  const d = DEPTH_BLUR_DEFAULTS[type];
  return {
    depth_blur: r.depth_blur ?? D.depth_blur,
    depth_blur_type: type,
    depth_blur_direction: r.depth_blur_direction ?? D.depth_blur_direction,
    depth_blur_angle: r.depth_blur_angle ?? D.depth_blur_angle,
    depth_blur_position: r.depth_blur_position ?? d.position,
    depth_blur_band: r.depth_blur_band ?? d.band,
    depth_blur_width: r.depth_blur_width ?? d.width,
  };
}

/**
 * Applies the contract's defaults (CAPTURE_DEFAULTS) and expands presets (contract.md 4);
 * explicit fields win over presets. Validates
 * what the schema cannot (colours, gradients, fonts, combinations) with 400s naming the field.
 * `background_style: none` with padding 0 and no device gives the plain screenshot (no corner
 * radius or shadow unless asked for).
 */
export function resolveStyle(request: StyleRequest): ResolvedStyle {
  const r = { ...request, output: outputWithCanvas(request) };
  // A canvas preset scales the default padding and text sizes with its short side.
  const grow = canvasTextScale(request.canvas);
  const bg = resolveBackground(r);
  const requested = r.output?.format ?? D.output.format;
  if (bg.background_style === 'transparent' && !['png', 'webp'].includes(requested)) {
    throw invalidParam(
      'background_style',
      `transparent needs output.format png or webp: ${requested} has no alpha channel`,
    );
  }
  // A video's still (its poster) is a JPEG.
  const format: OutputFormat = requested === 'png' || requested === 'webp' ? requested : 'jpg';
  const dark = bg.background_theme === 'dark';
  const padding = r.padding ?? Math.round(D.padding * grow);
  const plain = bg.background_style === 'none' && padding === 0 && !r.device;

  const shadow = r.shadow ?? (plain ? 'none' : D.shadow);
  for (const f of ['shadow_color', 'border_color', 'title_color', 'subtitle_color', 'text_color'] as const) {
    checkColor(f, r[f]);
  }
  const key =
    shadow === 'none'
      ? { color: '#000000', blur: 0, offset_x: 0, offset_y: 0, spread: 0, opacity: 0 }
      : SHADOW_PRESETS[shadow].key;
  const keyColor = shadow === 'glow' && !dark ? GLOW_ON_LIGHT_COLOR : key.color;

  const border =
    r.border ?? (r.border_width !== undefined || r.border_color !== undefined ? 'bold' : D.border);
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
  const textSize = r.text_size ?? D.text_size;
  if (r.text_fit_min !== undefined && r.text_fit_min > textSize) {
    throw invalidParam('text_fit_min', `Must not exceed text_size (${textSize})`);
  }
  const ink = dark ? '#FFFFFF' : '#0F172A';
  const titlePosition = r.title_position ?? D.title_position;
  const overlay = titlePosition === 'overlay-bottom';
  const { device, device_color, device_scale, layout, perspective } = r;
  const camera = resolveCamera(r);
  return {
    ...bg,
    padding,
    corner_radius: r.corner_radius ?? (plain ? 0 : D.corner_radius),
    inset: r.inset ?? D.inset,
    inset_balance: r.inset_balance ?? D.inset_balance,
    auto_balance: r.auto_balance ?? D.auto_balance,
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
    aspect_ratio: r.aspect_ratio ?? D.aspect_ratio,
    frame_ratio: r.frame_ratio ?? D.frame_ratio,
    device: device ?? null,
    device_color: device ? resolveDeviceFinish(device, device_color).name : (device_color ?? null),
    device_scale: device_scale ?? D.device_scale,
    layout: layout ?? D.layout,
    perspective: perspective ?? D.perspective,
    perspective_intensity: r.perspective_intensity ?? D.perspective_intensity,
    camera_preset: r.camera_preset ?? null,
    ...camera,
    ...resolveDepthBlur(r, camera),
    title: r.title ?? null,
    title_font: checkFont('title_font', r.title_font, D.title_font),
    title_size: r.title_size ?? Math.round(D.title_size * grow),
    title_color: r.title_color ?? (overlay ? '#FFFFFF' : ink),
    title_position: titlePosition,
    subtitle: r.subtitle ?? null,
    subtitle_font: checkFont('subtitle_font', r.subtitle_font, D.subtitle_font),
    subtitle_size: r.subtitle_size ?? Math.round(D.subtitle_size * grow),
    subtitle_color: r.subtitle_color ?? (dark || overlay ? 'rgba(255, 255, 255, 0.8)' : '#475569'),
    badge: r.badge ?? null,
    watermark: r.watermark ?? null,
    text_enabled: r.text_enabled ?? r.text_content !== undefined,
    text_content: r.text_content ?? null,
    text_x: r.text_x ?? D.text_x,
    text_y: r.text_y ?? D.text_y,
    text_size: textSize,
    text_color: r.text_color ?? ink,
    text_gradient: r.text_gradient ?? null,
    text_shadow: r.text_shadow ?? null,
    text_font: checkFont('text_font', r.text_font, D.text_font),
    text_weight: r.text_weight ?? D.text_weight,
    text_align: r.text_align ?? D.text_align,
    text_max_width: r.text_max_width ?? null,
    text_line_height: r.text_line_height ?? D.text_line_height,
    text_fit_min: r.text_fit_min ?? Math.min(textSize, Math.max(12, Math.round(textSize * 0.4))),
    text_box_h: r.text_box_h ?? null,
    text_autofit: r.text_autofit ?? D.text_autofit,
    text_vertical_align: r.text_vertical_align ?? D.text_vertical_align,
    output: {
      format,
      width: r.output?.width ?? null,
      height: r.output?.height ?? null,
      quality: r.output?.quality ?? null,
      dpr: r.output?.dpr ?? D.output.dpr,
    },
    compose_mode: r.compose_mode ?? D.compose_mode,
  };
}
