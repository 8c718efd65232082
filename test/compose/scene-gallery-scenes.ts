import { SCENE_LAYOUTS, type SceneLayoutName } from '@vitrine/contract';
import type { SceneCase, ShotPage } from './scene-kit.ts';

/**
 * Issue 38's scenes: every arrangement with two and with three shots, as a designer would use
 * it (a laptop with a phone in front, fanned phones, a light and dark pair, a grid of screens).
 */
const THREE: Record<SceneLayoutName, SceneCase> = {
  'side-by-side': {
    request: { background_preset: 'aurora', title: 'One product, every screen', padding: 64 },
    scene: { layout: 'side-by-side', spacing: 48, alignment: 'end' },
    shots: [
      { page: 'desktop', frame: { device: 'macbook-pro-16' } },
      { page: 'mobile', frame: { device: 'ipad-air-11' } },
      { page: 'mobile', frame: { device: 'iphone-16-pro' } },
    ],
  },
  overlap: {
    request: {
      background_preset: 'midnight',
      title: 'Work anywhere',
      subtitle: 'Desk or pocket',
      padding: 64,
    },
    scene: { layout: 'overlap', spacing: 48, alignment: 'end' },
    shots: [
      { page: 'desktop', frame: { device: 'macbook-pro-16' } },
      { page: 'mobile', frame: { device: 'iphone-16-pro' } },
      { page: 'mobile-dark', frame: { device: 'pixel-9' } },
    ],
  },
  fan: {
    request: { background_preset: 'sunset', title: 'Three screens, one flow', padding: 64 },
    scene: { layout: 'fan', spacing: 48, alignment: 'center' },
    shots: [
      { page: 'mobile', frame: { device: 'iphone-16-pro' } },
      { page: 'mobile-dark', frame: { device: 'iphone-16-pro' } },
      { page: 'mobile', frame: { device: 'iphone-16-pro', device_color: 'desert-titanium' } },
    ],
  },
  grid: {
    request: { background_preset: 'arctic', title: 'Feature tour', padding: 56 },
    scene: { layout: 'grid', spacing: 40, alignment: 'center' },
    shots: [
      { page: 'window', frame: { device: 'browser-macos' } },
      { page: 'window', frame: { device: 'browser-windows' } },
      { page: 'window', frame: { device: 'browser-minimal' } },
    ],
  },
  stack: {
    request: {
      background_preset: 'forest',
      title: 'Light and dark',
      title_position: 'top-left',
      padding: 56,
    },
    scene: { layout: 'stack', spacing: 36, alignment: 'center' },
    shots: [
      { page: 'window', frame: { device: 'browser-macos' } },
      { page: 'window', frame: { device: 'browser-macos', device_color: 'dark' } },
      { page: 'window', frame: { device: 'browser-minimal' } },
    ],
  },
  cascade: {
    request: { background_preset: 'dusk', title: 'Every window in its place', padding: 64 },
    scene: { layout: 'cascade', spacing: 48, alignment: 'end' },
    shots: [
      { page: 'window', frame: { device: 'browser-windows' } },
      { page: 'window', frame: { device: 'browser-macos' } },
      { page: 'window', frame: { device: 'browser-minimal' } },
    ],
  },
};

/** Two shots of the same arrangement: the first two of the three, over the same look. */
function twoOf(c: SceneCase): SceneCase {
  return { ...c, shots: c.shots.slice(0, 2) };
}

export const SCENE_GALLERY: Record<string, SceneCase> = Object.fromEntries(
  SCENE_LAYOUTS.flatMap((layout) => [
    [`scene-${layout}-2`, twoOf(THREE[layout])],
    [`scene-${layout}-3`, THREE[layout]],
  ]),
);

/** A scene laid out for a canvas preset: fitted, never stretched. */
export const SCENE_CANVAS_GALLERY: Record<string, SceneCase> = {
  'scene-og-overlap': {
    request: { canvas: 'og', background_preset: 'ocean', title: 'Ship faster' },
    scene: { layout: 'overlap', spacing: 48, alignment: 'end' },
    shots: [
      { page: 'desktop', frame: { device: 'macbook-air-13' } },
      { page: 'mobile', frame: { device: 'iphone-16' } },
    ],
  },
  'scene-instagram-story-stack': {
    request: { canvas: 'instagram-story', background_preset: 'ember', title: 'Before and after' },
    scene: { layout: 'stack', spacing: 48, alignment: 'center' },
    shots: [
      { page: 'window', frame: { device: 'browser-macos' } },
      { page: 'window', frame: { device: 'browser-macos', device_color: 'dark' } },
    ],
  },
};

export type { ShotPage };

/**
 * One camera for the whole scene (issue 38): the shots laid out, then the group seen through
 * the scene's camera as one plane (their shadows on it), with depth blur across the group.
 */
export const SCENE_CAMERA_GALLERY: Record<string, SceneCase> = {
  'scene-camera-overlap-tilt-left': {
    request: {
      background_preset: 'midnight',
      title: 'Work anywhere',
      perspective: 'tilt-left',
      padding: 64,
    },
    scene: { layout: 'overlap', spacing: 48, alignment: 'end' },
    shots: [
      { page: 'desktop', frame: { device: 'macbook-pro-16' } },
      { page: 'mobile', frame: { device: 'iphone-16-pro' } },
    ],
  },
  'scene-camera-side-by-side-hero-blur': {
    request: {
      background_preset: 'aurora',
      title: 'One product, every screen',
      camera_preset: 'hero',
      depth_blur: 40,
      padding: 64,
    },
    scene: { layout: 'side-by-side', spacing: 48, alignment: 'end' },
    shots: [
      { page: 'desktop', frame: { device: 'macbook-pro-16' } },
      { page: 'mobile', frame: { device: 'ipad-air-11' } },
      { page: 'mobile', frame: { device: 'iphone-16-pro' } },
    ],
  },
  'scene-camera-fan-iso-right': {
    request: { background_preset: 'sunset', title: 'Three screens, one flow', perspective: 'iso-right' },
    scene: { layout: 'fan', spacing: 48, alignment: 'center' },
    shots: [
      { page: 'mobile', frame: { device: 'iphone-16-pro' } },
      { page: 'mobile-dark', frame: { device: 'iphone-16-pro' } },
      { page: 'mobile', frame: { device: 'iphone-16-pro', device_color: 'desert-titanium' } },
    ],
  },
  'scene-camera-og-grid-dashboard': {
    request: { canvas: 'og', background_preset: 'arctic', title: 'Feature tour', camera_preset: 'dashboard' },
    scene: { layout: 'grid', spacing: 40, alignment: 'center' },
    shots: [
      { page: 'window', frame: { device: 'browser-macos' } },
      { page: 'window', frame: { device: 'browser-windows' } },
      { page: 'window', frame: { device: 'browser-minimal' } },
      { page: 'window', frame: { device: 'browser-macos', device_color: 'dark' } },
    ],
  },
};

/** A watermark drawn once on the scene: in the band below the content, or over the shots when no band is free. */
export const SCENE_WATERMARK_GALLERY: Record<string, SceneCase> = {
  'scene-watermark-side-by-side': {
    request: { background_preset: 'ocean', title: 'Ship faster', watermark: 'vitrine.dev', padding: 64 },
    scene: { layout: 'side-by-side', spacing: 48, alignment: 'end' },
    shots: [
      { page: 'desktop', frame: { device: 'macbook-air-13' } },
      { page: 'mobile', frame: { device: 'iphone-16' } },
    ],
  },
  'scene-watermark-over-shots': {
    request: { background_preset: 'dusk', watermark: 'vitrine.dev', padding: 16, perspective: 'tilt-right' },
    scene: { layout: 'cascade', spacing: 48, alignment: 'end' },
    shots: [
      { page: 'window', frame: { device: 'browser-windows' } },
      { page: 'window', frame: { device: 'browser-macos' } },
    ],
  },
};
