import { z } from 'zod';
import { CAPTURE_DEFAULTS as D } from './capture-defaults.ts';

/** `device` values of interface.md 4.6. */
export const DEVICES = [
  'iphone-16-pro',
  'macbook-pro-16',
  'ipad-pro-m4',
  'browser-macos',
  'browser-windows',
  'iphone-16',
  'pixel-9',
  'galaxy-s25',
  'ipad-air-11',
  'android-tablet',
  'macbook-air-13',
  'laptop-windows',
  'desktop-display',
  'watch',
  'browser-minimal',
  'terminal',
] as const;
/**
 * `canvas` presets: the sizes people post, in output pixels (sources in docs/decisions.md,
 * "Issue 38"). A preset sets output.width and output.height.
 */
export const CANVAS_PRESETS = {
  og: { width: 1200, height: 630 },
  twitter: { width: 1200, height: 675 },
  linkedin: { width: 1200, height: 627 },
  'product-hunt': { width: 1270, height: 760 },
  'instagram-square': { width: 1080, height: 1080 },
  'instagram-story': { width: 1080, height: 1920 },
  'app-store': { width: 1320, height: 2868 },
  'google-play': { width: 1080, height: 1920 },
  youtube: { width: 1280, height: 720 },
} as const;
export const CANVAS_NAMES = Object.keys(CANVAS_PRESETS) as [
  keyof typeof CANVAS_PRESETS,
  ...(keyof typeof CANVAS_PRESETS)[],
];
export const DEVICE_LAYOUTS = ['default', 'bottom-cropped', 'top-cropped'] as const;
export const BACKGROUND_STYLES = ['gradient', 'solid', 'none', 'transparent'] as const;
/** The eight named gradients plus `custom` (= `background_gradient`). */
export const BACKGROUND_PRESETS = [
  'aurora',
  'sunset',
  'ocean',
  'midnight',
  'arctic',
  'dusk',
  'forest',
  'ember',
  'custom',
] as const;
export const SHADOW_PRESETS = ['none', 'soft', 'hard', 'glow', 'float'] as const;
export const BORDER_PRESETS = ['none', 'subtle', 'bold', 'glass'] as const;
export const ASPECT_RATIOS = ['auto', '16:9', '4:3', '1:1', '3:2', '9:16', '21:9'] as const;
export const PERSPECTIVES = [
  'none',
  'tilt-left',
  'tilt-right',
  'tilt-up',
  'tilt-down',
  'tilt-left-strong',
  'tilt-right-strong',
  'iso-left',
  'iso-right',
] as const;
export const CAMERA_PRESETS = ['hero', 'dashboard', 'flat', 'cinematic', 'detail'] as const;
export const DEPTH_BLUR_TYPES = ['dir', 'radial', 'tilt', 'lens'] as const;
export const DEPTH_BLUR_DIRECTIONS = ['top', 'bottom', 'left', 'right'] as const;
export const TITLE_POSITIONS = ['above', 'below', 'bottom-left', 'top-left', 'overlay-bottom'] as const;
export const TEXT_ALIGNS = ['left', 'center', 'right'] as const;
export const TEXT_VERTICAL_ALIGNS = ['top', 'middle', 'bottom'] as const;
export const COMPOSE_MODES = ['satori', 'browser'] as const;

export type Device = (typeof DEVICES)[number];
export type CanvasName = keyof typeof CANVAS_PRESETS;
export type DeviceLayout = (typeof DEVICE_LAYOUTS)[number];
export type BackgroundStyle = (typeof BACKGROUND_STYLES)[number];
export type BackgroundPresetName = (typeof BACKGROUND_PRESETS)[number];
export type ShadowPreset = (typeof SHADOW_PRESETS)[number];
export type BorderPreset = (typeof BORDER_PRESETS)[number];
export type AspectRatio = (typeof ASPECT_RATIOS)[number];
export type TitlePosition = (typeof TITLE_POSITIONS)[number];
export type TextAlign = (typeof TEXT_ALIGNS)[number];
export type TextVerticalAlign = (typeof TEXT_VERTICAL_ALIGNS)[number];
export type ComposeMode = (typeof COMPOSE_MODES)[number];
export type Perspective = (typeof PERSPECTIVES)[number];
export type CameraPresetName = (typeof CAMERA_PRESETS)[number];
export type DepthBlurType = (typeof DEPTH_BLUR_TYPES)[number];
export type DepthBlurDirection = (typeof DEPTH_BLUR_DIRECTIONS)[number];

/**
 * Numeric bounds of the styling fields (docs/api-decisions.md section 4 where it states them, otherwise chosen so
 * that every accepted value still renders something sensible). Lengths are CSS px at dpr 1.
 */
export const COMPOSE_LIMITS = {
  deviceScale: { min: 0.25, max: 2 },
  padding: { min: 0, max: 512 },
  cornerRadius: { min: 0, max: 256 },
  shadowBlur: { min: 0, max: 256 },
  shadowOffset: { min: -512, max: 512 },
  shadowSpread: { min: -256, max: 256 },
  shadowOpacity: { min: 0, max: 1 },
  borderWidth: { min: 0, max: 64 },
  inset: { min: 0, max: 256 },
  perspectiveIntensity: { min: 0, max: 2 },
  tiltDegrees: { min: -80, max: 80 },
  rollDegrees: { min: -180, max: 180 },
  zoom: { min: 0.1, max: 4 },
  cameraOffset: { min: -1, max: 1 },
  frameScale: { min: 0.1, max: 2 },
  depthBlur: { min: 0, max: 100 },
  depthBlurAngle: { min: -360, max: 360 },
  unit: { min: 0, max: 1 },
  titleSize: { min: 8, max: 256 },
  textSize: { min: 6, max: 512 },
  textWeight: { min: 100, max: 900 },
  textBox: { min: 1, max: 6144 },
  textLineHeight: { min: 0.7, max: 3 },
  titleChars: 200,
  badgeChars: 40,
  watermarkChars: 80,
  textChars: 1000,
  colorChars: 100,
  gradientChars: 2000,
  fontNameChars: 64,
} as const;

type Bounds = { readonly min: number; readonly max: number };

/** An enum whose error message names every valid value (docs/api-decisions.md section 2). */
function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `Must be one of: ${values.join(', ')}` });
}

function between(b: Bounds) {
  return z.number({ error: 'Must be a number' }).min(b.min).max(b.max);
}

const color = () =>
  z
    .string()
    .min(1)
    .max(COMPOSE_LIMITS.colorChars)
    .meta({ description: 'Any CSS color: #rgb, #rrggbb(aa), rgb(), rgba(), hsl(), hsla(), a named color' });
const fontName = () =>
  z.string().min(1).max(COMPOSE_LIMITS.fontNameChars).meta({
    description:
      'A family of the font catalogue (GET /v1/fonts: Inter, Roboto, Poppins, Montserrat, Playfair Display and 37 more) or a generic family (sans-serif, serif, monospace, ...)',
  });
const unit = () => between(COMPOSE_LIMITS.unit);

/** "Device frame" fields. */
export const deviceFieldsShape = {
  device: oneOf(DEVICES).optional(),
  device_color: color().optional().meta({
    description:
      'A named finish of the device (GET /v1/devices lists them; e.g. black-titanium, obsidian, silver, dark) or a CSS color',
  }),
  device_scale: between(COMPOSE_LIMITS.deviceScale).optional().meta({ default: D.device_scale }),
  layout: oneOf(DEVICE_LAYOUTS).optional().meta({ default: D.layout }),
};

/** "Background" fields. */
export const backgroundFieldsShape = {
  background_style: oneOf(BACKGROUND_STYLES).optional().meta({
    description: 'Without it: image when a background image is given, solid for a lone background_color',
    default: D.background_style,
  }),
  background_preset: oneOf(BACKGROUND_PRESETS).optional().meta({ default: D.background_preset }),
  background_color: color()
    .optional()
    .meta({ description: 'Any CSS color (background_style solid)', default: D.background_color }),
  background_gradient: z
    .string()
    .min(1)
    .max(COMPOSE_LIMITS.gradientChars)
    .optional()
    .meta({ description: 'A CSS linear-gradient(), radial-gradient() or conic-gradient()' }),
  background: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: 'A hosted background reference `pack/slug` (GET /v1/backgrounds)' }),
  background_image_url: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .meta({ description: 'Public raster image URL; overrides `background`' }),
};

/** "Frame geometry, border and shadow" fields. */
export const frameFieldsShape = {
  padding: between(COMPOSE_LIMITS.padding).optional().meta({ description: 'CSS px', default: D.padding }),
  corner_radius: between(COMPOSE_LIMITS.cornerRadius).optional().meta({
    description: 'CSS px; 0 for the plain look (background none, padding 0)',
    default: D.corner_radius,
  }),
  shadow: oneOf(SHADOW_PRESETS)
    .optional()
    .meta({ description: 'none for the plain look (background none, padding 0)', default: D.shadow }),
  shadow_color: color().optional(),
  shadow_blur: between(COMPOSE_LIMITS.shadowBlur).optional(),
  shadow_offset_x: between(COMPOSE_LIMITS.shadowOffset).optional(),
  shadow_offset_y: between(COMPOSE_LIMITS.shadowOffset).optional(),
  shadow_spread: between(COMPOSE_LIMITS.shadowSpread).optional(),
  shadow_opacity: between(COMPOSE_LIMITS.shadowOpacity).optional(),
  border: oneOf(BORDER_PRESETS)
    .optional()
    .meta({ description: 'bold when only border_width or border_color is given', default: D.border }),
  border_color: color().optional(),
  border_width: between(COMPOSE_LIMITS.borderWidth).optional(),
  aspect_ratio: oneOf(ASPECT_RATIOS)
    .optional()
    .meta({ description: 'Canvas ratio', default: D.aspect_ratio }),
  canvas: oneOf(CANVAS_NAMES)
    .optional()
    .meta({
      description: `A canvas size people post, in output pixels: ${Object.entries(CANVAS_PRESETS)
        .map(([k, v]) => `${k} ${v.width}x${v.height}`)
        .join(
          ', ',
        )}. Sets output.width and output.height (not with them, and with output.dpr 1); the scene is laid out for it, never stretched`,
    }),
  frame_ratio: oneOf(ASPECT_RATIOS)
    .optional()
    .meta({ description: 'Ratio of the framed screenshot (crops the capture)', default: D.frame_ratio }),
  inset: between(COMPOSE_LIMITS.inset).optional().meta({ description: 'CSS px', default: D.inset }),
  inset_balance: z.boolean().optional().meta({ default: D.inset_balance }),
  auto_balance: z.boolean().optional().meta({ default: D.auto_balance }),
};

/** "Perspective and camera" fields: presets expand to tilt, roll, zoom, offset and frame scale. */
export const perspectiveFieldsShape = {
  perspective: oneOf(PERSPECTIVES).optional().meta({ default: D.perspective }),
  perspective_intensity: between(COMPOSE_LIMITS.perspectiveIntensity)
    .optional()
    .meta({ default: D.perspective_intensity }),
  camera_preset: oneOf(CAMERA_PRESETS).optional(),
  tilt_x: between(COMPOSE_LIMITS.tiltDegrees).optional().meta({ description: 'Degrees' }),
  tilt_y: between(COMPOSE_LIMITS.tiltDegrees).optional().meta({ description: 'Degrees' }),
  roll: between(COMPOSE_LIMITS.rollDegrees).optional().meta({ description: 'Degrees' }),
  zoom: between(COMPOSE_LIMITS.zoom).optional(),
  offset_x: between(COMPOSE_LIMITS.cameraOffset).optional().meta({ description: 'Fraction of the canvas' }),
  offset_y: between(COMPOSE_LIMITS.cameraOffset).optional().meta({ description: 'Fraction of the canvas' }),
  frame_scale: between(COMPOSE_LIMITS.frameScale).optional(),
};

/** "Depth blur" fields: geometry defaults follow `depth_blur_type`. */
export const depthBlurFieldsShape = {
  depth_blur: between(COMPOSE_LIMITS.depthBlur)
    .optional()
    .meta({ description: 'Strength 0..100', default: D.depth_blur }),
  depth_blur_type: oneOf(DEPTH_BLUR_TYPES)
    .optional()
    .meta({ description: 'Default lens when the camera is tilted, tilt otherwise' }),
  depth_blur_direction: oneOf(DEPTH_BLUR_DIRECTIONS).optional().meta({ default: D.depth_blur_direction }),
  depth_blur_angle: between(COMPOSE_LIMITS.depthBlurAngle)
    .optional()
    .meta({ description: 'Degrees', default: D.depth_blur_angle }),
  depth_blur_position: unit().optional(),
  depth_blur_band: unit().optional(),
  depth_blur_width: unit().optional(),
};

/** "Title, subtitle, badge" fields. */
export const titleFieldsShape = {
  title: z.string().min(1).max(COMPOSE_LIMITS.titleChars).optional(),
  title_font: fontName().optional().meta({ default: D.title_font }),
  title_size: between(COMPOSE_LIMITS.titleSize)
    .optional()
    .meta({ description: 'CSS px', default: D.title_size }),
  title_color: color().optional(),
  title_position: oneOf(TITLE_POSITIONS).optional().meta({ default: D.title_position }),
  subtitle: z.string().min(1).max(COMPOSE_LIMITS.titleChars).optional(),
  subtitle_font: fontName().optional().meta({ default: D.subtitle_font }),
  subtitle_color: color().optional(),
  subtitle_size: between(COMPOSE_LIMITS.titleSize)
    .optional()
    .meta({ description: 'CSS px', default: D.subtitle_size }),
  badge: z.string().min(1).max(COMPOSE_LIMITS.badgeChars).optional(),
  watermark: z.string().min(1).max(COMPOSE_LIMITS.watermarkChars).optional(),
};

/** "Free text overlay" fields. */
export const textOverlayFieldsShape = {
  text_enabled: z.boolean().optional(),
  text_content: z.string().min(1).max(COMPOSE_LIMITS.textChars).optional(),
  text_x: unit().optional().meta({ description: 'Anchor, fraction of the canvas width', default: D.text_x }),
  text_y: unit().optional().meta({ description: 'Anchor, fraction of the canvas height', default: D.text_y }),
  text_size: between(COMPOSE_LIMITS.textSize)
    .optional()
    .meta({ description: 'CSS px', default: D.text_size }),
  text_color: color().optional(),
  text_gradient: z
    .string()
    .min(1)
    .max(COMPOSE_LIMITS.gradientChars)
    .optional()
    .meta({ description: 'A CSS gradient filling the glyphs' }),
  text_shadow: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: 'CSS text-shadow: `x y blur color`' }),
  text_font: fontName().optional().meta({ default: D.text_font }),
  text_weight: between(COMPOSE_LIMITS.textWeight).int().optional().meta({ default: D.text_weight }),
  text_align: oneOf(TEXT_ALIGNS).optional().meta({ default: D.text_align }),
  text_max_width: between(COMPOSE_LIMITS.textBox).optional().meta({ description: 'CSS px' }),
  text_line_height: between(COMPOSE_LIMITS.textLineHeight)
    .optional()
    .meta({ description: 'Multiple of the size', default: D.text_line_height }),
  text_fit_min: between(COMPOSE_LIMITS.textSize)
    .optional()
    .meta({ description: 'Smallest autofit size, CSS px' }),
  text_box_h: between(COMPOSE_LIMITS.textBox).optional().meta({ description: 'CSS px' }),
  text_autofit: z.boolean().optional().meta({ default: D.text_autofit }),
  text_vertical_align: oneOf(TEXT_VERTICAL_ALIGNS).optional().meta({ default: D.text_vertical_align }),
};

export const composeModeFieldsShape = {
  compose_mode: oneOf(COMPOSE_MODES).optional().meta({
    description: '`satori`: the raster renderer (no browser); `browser`: Chromium draws the same scene',
    default: D.compose_mode,
  }),
};

/** Every styling field of interface.md 4.6, to spread into the capture request's strictObject. */
export const composeFieldsShape = {
  ...deviceFieldsShape,
  ...backgroundFieldsShape,
  ...frameFieldsShape,
  ...perspectiveFieldsShape,
  ...depthBlurFieldsShape,
  ...titleFieldsShape,
  ...textOverlayFieldsShape,
  ...composeModeFieldsShape,
};

export const composeFieldsSchema = z.strictObject(composeFieldsShape);
/** The styling fields as a client sends them (all optional). */
export type ComposeFields = z.infer<typeof composeFieldsSchema>;
