import type { StyleRequest } from '../../packages/server/src/captures/resolve/resolve-style.ts';
import { half } from './gallery-scenes.ts';

/**
 * Camera and depth-blur looks (issue 5): every perspective preset, every camera preset and
 * every depth-blur type, at the gallery's 0.5 scale. Shared by the raster references and the
 * browser parity test.
 */
export const CAMERA_GALLERY: Record<string, StyleRequest> = {
  'perspective-tilt-left': half({ perspective: 'tilt-left' }),
  'perspective-tilt-right': half({ perspective: 'tilt-right', background_preset: 'ocean' }),
  'perspective-tilt-up': half({ perspective: 'tilt-up', background_preset: 'midnight' }),
  'perspective-tilt-down': half({ perspective: 'tilt-down', background_preset: 'sunset' }),
  'perspective-tilt-left-strong': half({ perspective: 'tilt-left-strong', background_preset: 'dusk' }),
  'perspective-tilt-right-strong': half({
    perspective: 'tilt-right-strong',
    background_preset: 'arctic',
    shadow: 'float',
  }),
  'perspective-iso-left': half({ perspective: 'iso-left', background_preset: 'forest' }),
  'perspective-iso-right': half({ perspective: 'iso-right', background_preset: 'ember', border: 'bold' }),
  'perspective-half-intensity-title': half({
    perspective: 'tilt-left-strong',
    perspective_intensity: 0.5,
    title: 'Tilted, with a title',
  }),
  'camera-hero': half({ camera_preset: 'hero', background_preset: 'midnight' }),
  'camera-dashboard': half({ camera_preset: 'dashboard', background_preset: 'ocean' }),
  'camera-flat': half({ camera_preset: 'flat', frame_scale: 0.8 }),
  'camera-cinematic': half({ camera_preset: 'cinematic', background_preset: 'dusk', aspect_ratio: '16:9' }),
  'camera-detail': half({ camera_preset: 'detail', background_preset: 'sunset' }),
  'blur-dir': half({ depth_blur: 80, depth_blur_type: 'dir', depth_blur_direction: 'bottom' }),
  'blur-dir-angle': half({
    depth_blur: 70,
    depth_blur_type: 'dir',
    depth_blur_direction: 'right',
    depth_blur_angle: 30,
    background_preset: 'ocean',
  }),
  'blur-radial': half({ depth_blur: 80, depth_blur_type: 'radial', background_preset: 'midnight' }),
  'blur-tilt': half({
    depth_blur: 80,
    depth_blur_type: 'tilt',
    depth_blur_position: 0.35,
    depth_blur_band: 0.15,
    depth_blur_width: 0.3,
    depth_blur_angle: -10,
    background_preset: 'forest',
  }),
  'blur-lens-tilt-strong': half({
    perspective: 'tilt-left-strong',
    depth_blur: 70,
    depth_blur_type: 'lens',
    depth_blur_position: 0.6,
    background_preset: 'dusk',
  }),
  'device-iphone-tilt-right': half({
    device: 'iphone-16-pro',
    perspective: 'tilt-right',
    background_preset: 'midnight',
  }),
};
