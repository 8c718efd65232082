/**
 * The static defaults of the capture fields (docs/api-decisions.md section 4: what `{"url": ...}` alone
 * produces), in one table. The schemas show them in the OpenAPI document (`default`) and the
 * server resolves requests from here; nothing else writes these values down. Defaults that
 * depend on other fields are resolved in code, each in one place: a device's own viewport, DPR
 * and user agent; the plain look (`background_style: none`, padding 0, no device) drops the
 * corner radius and shadow; text and border colours follow the background's theme; depth-blur
 * geometry follows its type.
 */
export const CAPTURE_DEFAULTS = {
  // Target and browser
  viewport: { width: 1440, height: 900 },
  emulate_mobile: false,
  dark_mode: false,
  full_page: false,
  // Device frame
  device_scale: 1,
  layout: 'default',
  // Background
  background_style: 'gradient',
  background_preset: 'aurora',
  background_color: '#FFFFFF',
  // Frame geometry, border and shadow
  padding: 64,
  corner_radius: 12,
  shadow: 'soft',
  border: 'none',
  aspect_ratio: 'auto',
  frame_ratio: 'auto',
  inset: 0,
  inset_balance: false,
  auto_balance: false,
  // Perspective and camera
  perspective: 'none',
  perspective_intensity: 1,
  // Depth blur
  depth_blur: 0,
  depth_blur_direction: 'top',
  depth_blur_angle: 0,
  // Title, subtitle, badge
  title_font: 'Inter',
  title_size: 56,
  title_position: 'above',
  subtitle_font: 'Inter',
  subtitle_size: 24,
  // Free text overlay
  text_x: 0.5,
  text_y: 0.5,
  text_size: 64,
  text_font: 'Inter',
  text_weight: 700,
  text_align: 'center',
  text_line_height: 1.15,
  text_autofit: false,
  text_vertical_align: 'middle',
  // Output and delivery
  output: { format: 'png', dpr: 1 },
  cache_ttl: 86_400,
  show_resolved_params: false,
  compose_mode: 'satori',
  async: false,
  // Scenes (several shots in one image)
  scene: { layout: 'side-by-side', spacing: 48, alignment: 'center' },
} as const;

export type CaptureDefaults = typeof CAPTURE_DEFAULTS;

/**
 * Credits per capture (docs/api-decisions.md section 3): the defaults of the `VITRINE_PRICE_*` settings.
 * A capture costs `capture`, plus `full_page` for a full-page capture, plus `over_8_megapixels`
 * when the output is larger, plus `video_second` per started second of a video (`motion`); an
 * unstyled capture (`POST /v1/raw`) costs `raw`; a cached result 0.
 */
export const CREDIT_PRICE_DEFAULTS = {
  capture: 1,
  full_page: 1,
  over_8_megapixels: 1,
  raw: 1,
  ai_style: 2,
  ai_copy: 1,
  ai_brand: 2,
  video_second: 1,
} as const;

export type CreditPrices = { [K in keyof typeof CREDIT_PRICE_DEFAULTS]: number };
