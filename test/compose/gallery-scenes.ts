import type { StyleRequest } from '../../packages/server/src/captures/resolve/resolve-style.ts';
import { GRADIENT_PRESET_NAMES } from '../../packages/server/src/compose/backgrounds/gradient-presets.ts';

/** Halved lengths for a 720x450 fake app (0.5 scale), so references stay small. */
export const half = (r: StyleRequest): StyleRequest => ({
  padding: 32,
  corner_radius: 8,
  title_size: 28,
  subtitle_size: 13,
  ...r,
});

/** The gallery: one request per look, shared by the raster references and the browser parity test. */
export const GALLERY: Record<string, StyleRequest> = {
  ...Object.fromEntries(GRADIENT_PRESET_NAMES.map((p) => [`preset-${p}`, half({ background_preset: p })])),
  'shadow-none': half({ shadow: 'none' }),
  'shadow-hard': half({
    shadow: 'hard',
    shadow_offset_x: 8,
    shadow_offset_y: 8,
    background_preset: 'arctic',
  }),
  'shadow-glow': half({ shadow: 'glow', background_preset: 'midnight' }),
  'shadow-float': half({ shadow: 'float', padding: 48, background_preset: 'arctic' }),
  'border-subtle': half({ border: 'subtle', background_preset: 'midnight' }),
  'border-bold': half({ border: 'bold', border_width: 4, background_preset: 'ember' }),
  'border-glass': half({ border: 'glass', border_width: 8, background_preset: 'dusk' }),
  'title-above': half({
    title: 'Ship dashboards your team loves',
    subtitle: 'Real-time analytics, zero setup.',
    badge: 'New in 2.0',
  }),
  'title-below': half({
    title: 'Your numbers, at a glance',
    title_position: 'below',
    background_preset: 'arctic',
  }),
  'title-top-left': half({
    title: 'Analytics for busy teams',
    subtitle: 'Connect your data in minutes.',
    title_position: 'top-left',
    title_font: 'DM Serif Display',
    background_preset: 'forest',
  }),
  'title-bottom-left': half({
    title: 'Built for clarity',
    title_position: 'bottom-left',
    title_font: 'Lora',
    background_preset: 'ocean',
  }),
  'title-overlay-bottom': half({
    title: 'Weekly signups up 24%',
    subtitle: 'Northwind dashboard',
    title_position: 'overlay-bottom',
    background_preset: 'sunset',
  }),
  transparent: half({ background_style: 'transparent', shadow: 'float' }),
  'solid-watermark': half({
    background_style: 'solid',
    background_color: '#F1F5F9',
    watermark: 'northwind.app',
    border: 'subtle',
  }),
  'custom-radial-square': half({
    background_gradient: 'radial-gradient(circle at 20% 10%, #FDE68A, #F472B6 45%, #312E81)',
    aspect_ratio: '1:1',
  }),
  'custom-conic': half({
    background_gradient: 'conic-gradient(from 200deg at 70% 40%, #22D3EE, #818CF8, #F472B6, #22D3EE)',
    aspect_ratio: '16:9',
  }),
  // Text blocks never collide: the free text keeps its anchor, the badge moves with its block.
  'text-clear-of-badge': half({
    badge: 'New',
    text_content: 'Ship faster with Vitrine',
    text_size: 40,
    text_y: 0.08,
    watermark: 'vitrine.dev',
  }),
  // Scripts beyond Latin: Cyrillic, Greek and Latin Extended from the bundled faces' other
  // subsets, Japanese, Chinese and Korean from the system's Noto CJK faces cut to the text.
  'title-scripts': half({
    title: 'Привет, Ωμέγα, Zażółć',
    subtitle: '日本語のタイトル · 中文标题 · 한국어 제목',
    background_preset: 'arctic',
  }),
  'title-serif-cjk': half({
    title: '季節のおたより',
    title_font: 'Lora',
    subtitle: 'Северное сияние',
    subtitle_font: 'Lora',
    title_position: 'below',
  }),
  'text-clear-of-title-below': half({
    title: 'Your numbers, at a glance',
    title_position: 'below',
    background_preset: 'midnight',
    text_content: 'Made with Vitrine',
    text_size: 22,
    text_y: 0.95,
    watermark: '@vitrine',
  }),
  'text-autofit': half({
    background_preset: 'midnight',
    aspect_ratio: '16:9',
    padding: 96,
    text_content: 'Everything your team needs, in one calm place 🚀',
    text_size: 80,
    text_max_width: 900,
    text_box_h: 64,
    text_fit_min: 20,
    text_autofit: true,
    text_y: 0.09,
    text_gradient: 'linear-gradient(90deg, #A5B4FC, #F0ABFC)',
  }),
};
