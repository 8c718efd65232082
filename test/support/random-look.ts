import {
  ASPECT_RATIOS,
  BACKGROUND_PRESETS,
  BACKGROUND_STYLES,
  BORDER_PRESETS,
  CAMERA_PRESETS,
  COMPOSE_LIMITS,
  COMPOSE_MODES,
  DEPTH_BLUR_DIRECTIONS,
  DEPTH_BLUR_TYPES,
  DEVICE_LAYOUTS,
  DEVICES,
  PERSPECTIVES,
  SHADOW_PRESETS,
  TEXT_ALIGNS,
  TEXT_VERTICAL_ALIGNS,
  TITLE_POSITIONS,
} from '@vitrine/contract';

/** mulberry32: a small seeded generator, so a failing look can be reproduced from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A random valid look (styling fields of the capture request, within the contract's enums and
 * limits), for load tests of the compose modes. Each group of fields is present or not.
 */
export function randomLook(random: () => number): Record<string, unknown> {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const chance = (p: number) => random() < p;
  const num = (bounds: { min: number; max: number }, digits = 2) =>
    Number((bounds.min + random() * (bounds.max - bounds.min)).toFixed(digits));
  const int = (min: number, max: number) => Math.floor(min + random() * (max - min + 1));
  const color = () =>
    pick(['#0f172a', '#ffffff', '#e11d48', 'rgb(10, 200, 120)', 'rgba(0,0,0,0.5)', 'hsl(210 80% 50%)']);
  const look: Record<string, unknown> = { compose_mode: pick(COMPOSE_MODES) };
  if (chance(0.4)) {
    look.device = pick(DEVICES);
    if (chance(0.5)) look.layout = pick(DEVICE_LAYOUTS);
    if (chance(0.3)) look.device_scale = num(COMPOSE_LIMITS.deviceScale);
  }
  if (chance(0.7)) {
    const style = pick(BACKGROUND_STYLES);
    look.background_style = style;
    const gradient = style === 'gradient' ? random() : 1;
    if (gradient < 0.4) look.background_preset = pick(BACKGROUND_PRESETS);
    else if (gradient < 0.7)
      look.background_gradient = `linear-gradient(${int(0, 360)}deg, ${color()}, ${color()})`;
    if (style === 'solid') look.background_color = color();
  }
  if (chance(0.6)) look.padding = int(0, 200);
  if (chance(0.5)) look.corner_radius = int(0, 64);
  if (chance(0.5)) look.shadow = pick(SHADOW_PRESETS);
  if (chance(0.2)) {
    look.shadow_blur = num(COMPOSE_LIMITS.shadowBlur, 0);
    look.shadow_offset_y = int(-80, 80);
    look.shadow_color = color();
  }
  if (chance(0.3)) look.border = pick(BORDER_PRESETS);
  if (chance(0.3)) look.aspect_ratio = pick(ASPECT_RATIOS);
  if (chance(0.2)) look.inset = int(0, 64);
  if (chance(0.4)) {
    look.perspective = pick(PERSPECTIVES);
    if (chance(0.5)) look.perspective_intensity = num(COMPOSE_LIMITS.perspectiveIntensity);
  } else if (chance(0.2)) {
    look.camera_preset = pick(CAMERA_PRESETS);
    if (chance(0.5)) look.tilt_x = int(-60, 60);
    if (chance(0.5)) look.roll = int(-45, 45);
    if (chance(0.3)) look.zoom = num({ min: 0.5, max: 2 });
  }
  if (chance(0.3)) {
    look.depth_blur = int(1, 100);
    look.depth_blur_type = pick(DEPTH_BLUR_TYPES);
    if (chance(0.5)) look.depth_blur_direction = pick(DEPTH_BLUR_DIRECTIONS);
    if (chance(0.3)) look.depth_blur_position = num(COMPOSE_LIMITS.unit);
  }
  if (chance(0.4)) {
    look.title = pick(['Ship faster', 'Dashboards that explain themselves', 'Ünïcödé 漢字 ✨', 'A']);
    look.title_position = pick(TITLE_POSITIONS);
    if (chance(0.5)) look.subtitle = 'The same screenshot, styled';
    if (chance(0.3)) look.title_size = int(COMPOSE_LIMITS.titleSize.min, 120);
  }
  if (chance(0.2)) look.badge = 'NEW';
  if (chance(0.2)) look.watermark = 'vitrine.test';
  if (chance(0.3)) {
    look.text_enabled = true;
    look.text_content = pick(['Hello', 'Two\nlines of text', 'Emoji 🎉 and CJK 日本語']);
    look.text_x = num(COMPOSE_LIMITS.unit);
    look.text_y = num(COMPOSE_LIMITS.unit);
    look.text_size = int(12, 160);
    look.text_align = pick(TEXT_ALIGNS);
    if (chance(0.3)) look.text_gradient = `linear-gradient(90deg, ${color()}, ${color()})`;
    if (chance(0.3)) look.text_shadow = `2px 2px 4px ${color()}`;
    if (chance(0.3)) {
      look.text_autofit = true;
      look.text_box_h = int(40, 400);
      look.text_max_width = int(80, 800);
      look.text_vertical_align = pick(TEXT_VERTICAL_ALIGNS);
    }
  }
  look.viewport = { width: int(320, 1280), height: int(240, 900) };
  look.output = { format: pick(['png', 'webp', 'jpg'] as const) };
  return look;
}

/** The look that answered 500 once under load (issue 10). */
export const ONCE_FAILED_LOOK: Record<string, unknown> = {
  compose_mode: 'browser',
  device: 'browser-macos',
  perspective: 'iso-right',
  depth_blur: 40,
  depth_blur_type: 'radial',
  title: 'Launch day',
  title_position: 'overlay-bottom',
  background_style: 'gradient',
  background_gradient: 'linear-gradient(135deg, #0ea5e9, #9333ea)',
  text_enabled: true,
  text_content: 'Now in beta',
  viewport: { width: 351, height: 277 },
  output: { format: 'webp' },
};
