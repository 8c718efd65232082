/**
 * The scene's paint, apart from its geometry: the background fill (gradient, solid, image or
 * transparent) and the shadow layers under the frame (a preset's ambient layers plus the key
 * shadow, warped with the frame when a camera turns it), with CSS colours parsed to Rgba.
 */
import { type PlacedCamera, shadowMatrix } from './camera/scene-camera.ts';
import { outsetRect } from './canvas-geometry.ts';
import { parseCssColor, type Rgba, withAlpha } from './css/css-color.ts';
import { parseCssGradient } from './css/css-gradient.ts';
import type { Rect, SceneBackground, SceneShadow } from './scene-types.ts';
import { keyShadowOf, SHADOW_PRESET_VALUES } from './shadow-presets.ts';
import type { ResolvedStyle } from './style-types.ts';

export const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };
export const color = (css: string | null, fallback: Rgba = WHITE): Rgba =>
  css ? (parseCssColor(css) ?? fallback) : fallback;

export function sceneBackground(s: ResolvedStyle): SceneBackground {
  switch (s.background_style) {
    case 'gradient':
      return {
        kind: 'gradient',
        gradient: parseCssGradient(s.background_gradient ?? ''),
        css: s.background_gradient ?? '',
      };
    case 'solid':
      return { kind: 'solid', color: color(s.background_color) };
    case 'image':
      return {
        kind: 'image',
        source: s.background_image_url
          ? { type: 'url', url: s.background_image_url }
          : { type: 'catalogue', ref: s.background ?? '' },
        fallback: { r: 30, g: 27, b: 75, a: 1 },
      };
    case 'none':
      // No background: transparent around the frame, white where the format has no alpha.
      return s.output.format === 'jpg' ? { kind: 'solid', color: WHITE } : { kind: 'transparent' };
    default:
      return { kind: 'transparent' };
  }
}

export function sceneShadows(
  s: ResolvedStyle,
  frame: Rect,
  radius: number,
  px: number,
  cam: PlacedCamera | null,
): SceneShadow[] {
  if (s.shadow === 'none' && s.shadow_opacity === 0) return [];
  const key = keyShadowOf(s);
  const preset = s.shadow === 'none' ? null : SHADOW_PRESET_VALUES[s.shadow];
  const strength = preset && preset.key.opacity > 0 ? s.shadow_opacity / preset.key.opacity : 1;
  const layers = [...(preset?.ambient ?? []).map((a) => ({ ...a, opacity: a.opacity * strength })), key];
  return layers
    .filter((l) => l.opacity > 0)
    .map((l) => {
      const rect = outsetRect(frame, l.spread * px);
      const offset = { x: l.offset_x * px, y: l.offset_y * px };
      return {
        rect: cam ? rect : { ...rect, x: rect.x + offset.x, y: rect.y + offset.y },
        radius: Math.max(0, radius + l.spread * px),
        sigma: (l.blur / 2) * px,
        color: withAlpha(color(l.color, { r: 0, g: 0, b: 0, a: 1 }), l.opacity),
        ...(cam ? { matrix: shadowMatrix(cam, offset) } : {}),
      };
    })
    .filter((l) => l.color.a > 0 && l.rect.width > 0 && l.rect.height > 0);
}
