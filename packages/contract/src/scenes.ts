import { z } from 'zod';
import { CAPTURE_DEFAULTS as D } from './capture-defaults.ts';

/**
 * Scenes (issue 38): several shots in one image. A capture request may carry `shots` (two to
 * six) and a `scene` saying how they are laid out; one background, one camera and one set of
 * titles frame the whole scene, each shot keeps its own frame and shadow. The top-level
 * `layout` keeps its meaning (the device crop); the scene's arrangement is `scene.layout`.
 */
export const SCENE_LAYOUTS = ['side-by-side', 'overlap', 'fan', 'grid', 'stack', 'cascade'] as const;
export type SceneLayoutName = (typeof SCENE_LAYOUTS)[number];
/** Where shots sit across the arrangement's main axis (a row's top or bottom, a column's left or right). */
export const SCENE_ALIGNMENTS = ['center', 'start', 'end'] as const;
export type SceneAlignment = (typeof SCENE_ALIGNMENTS)[number];

export const SCENE_LIMITS = {
  shots: { min: 2, max: 6 },
  spacing: { min: 0, max: 512 },
} as const;

/**
 * The fields a shot may set for itself: what it shows (its page, viewport, colour scheme, part of
 * the page) and how it is framed (its device and finish). Every other field of the request (the
 * browser's identity, blocking, actions, headers, cookies, the look, the titles) applies to the
 * whole scene. A shot without `url` shows the request's.
 */
export const SHOT_FIELDS = [
  'url',
  'viewport',
  'capture_dpr',
  'device',
  'device_color',
  'device_scale',
  'dark_mode',
  'full_page',
  'element',
  'selector',
  'wait_for',
  'hide_selectors',
  'inject_css',
  'frame_ratio',
] as const;

const enumOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `Must be one of: ${values.join(', ')}` });

export const sceneSchema = z
  .strictObject({
    layout: enumOf(SCENE_LAYOUTS).optional().meta({
      description:
        'side-by-side (a row), overlap (the first shot behind, the others in front of its lower right corner: a laptop with a phone), fan (rotated, fanned out), grid, stack (a column), cascade (stepped diagonally, each in front of the one before)',
      default: D.scene.layout,
    }),
    spacing: z
      .number({ error: 'Must be a number' })
      .min(SCENE_LIMITS.spacing.min)
      .max(SCENE_LIMITS.spacing.max)
      .optional()
      .meta({
        description: 'CSS px between shots (side-by-side, grid, stack) in the finished image',
        default: D.scene.spacing,
      }),
    alignment: enumOf(SCENE_ALIGNMENTS).optional().meta({
      description:
        "Across the arrangement: a row's top (start), middle or bottom (end); a column's left, middle or right",
      default: D.scene.alignment,
    }),
  })
  .meta({ id: 'Scene', description: 'How the shots of `shots` are laid out (with `shots` only)' });
export type SceneRequest = z.infer<typeof sceneSchema>;
