import { z } from 'zod';

/**
 * Motion (issue 37): a capture rendered as a short video of its styled look instead of one
 * image. `scroll` moves the page inside the frame; `reveal` animates the look in (the camera
 * from flat to the requested tilt, or a gentle zoom when the look is flat); `float` loops a
 * slowly swaying device. `drift` adds a gentle camera move to a scroll.
 */
export const MOTION_TYPES = ['scroll', 'reveal', 'float'] as const;
export type MotionType = (typeof MOTION_TYPES)[number];

export const MOTION_EASINGS = ['linear', 'ease-in', 'ease-out', 'ease-in-out'] as const;
export type MotionEasing = (typeof MOTION_EASINGS)[number];

/** The encoded video formats `output.format` takes with `motion` (and only with it). */
export const VIDEO_FORMATS = ['mp4', 'webm', 'gif'] as const;
export type VideoFormat = (typeof VIDEO_FORMATS)[number];

/**
 * Bounds of a motion capture. Sides are output pixels (after `output.dpr`); a GIF is small by
 * nature (256 colours, one palette per clip), so it has its own smaller side, frame rate and
 * length.
 */
export const MOTION_LIMITS = {
  durationSeconds: { min: 1, max: 20 },
  fps: { min: 1, max: 60 },
  holdSeconds: { min: 0, max: 5 },
  videoSide: 2560,
  gif: { side: 1000, fps: 30, durationSeconds: 12 },
  scrollToPixels: 16_384,
} as const;

/** What `{"motion": {"type": ...}}` alone means. */
export const MOTION_DEFAULTS = {
  duration: 6,
  fps: 30,
  gifFps: 15,
  easing: 'ease-in-out',
  hold_start: 0.5,
  hold_end: 0.5,
  scroll_to: 'end',
  drift: false,
  format: 'mp4',
} as const;

const seconds = (bounds: { min: number; max: number }) => z.number().min(bounds.min).max(bounds.max);

export const motionSchema = z
  .strictObject({
    type: z.enum(MOTION_TYPES),
    duration: seconds(MOTION_LIMITS.durationSeconds)
      .optional()
      .meta({ description: 'Seconds, holds included', default: MOTION_DEFAULTS.duration }),
    fps: z
      .number()
      .int()
      .min(MOTION_LIMITS.fps.min)
      .max(MOTION_LIMITS.fps.max)
      .optional()
      .meta({
        description: `Frames per second; default ${MOTION_DEFAULTS.fps} (${MOTION_DEFAULTS.gifFps} for gif, at most ${MOTION_LIMITS.gif.fps})`,
      }),
    easing: z.enum(MOTION_EASINGS).optional().meta({ default: MOTION_DEFAULTS.easing }),
    hold_start: seconds(MOTION_LIMITS.holdSeconds).optional().meta({
      description: 'Seconds still at the start (scroll, reveal)',
      default: MOTION_DEFAULTS.hold_start,
    }),
    hold_end: seconds(MOTION_LIMITS.holdSeconds)
      .optional()
      .meta({ description: 'Seconds still at the end (scroll, reveal)', default: MOTION_DEFAULTS.hold_end }),
    scroll_to: z
      .union([
        z.number().int().min(1).max(MOTION_LIMITS.scrollToPixels),
        z.literal('end'),
        z.string().min(1).max(1000),
      ])
      .optional()
      .meta({
        description:
          'scroll only: how far the page scrolls: CSS pixels, a CSS selector (its top reaches the top of the screen), or "end"',
        default: MOTION_DEFAULTS.scroll_to,
      }),
    drift: z.boolean().optional().meta({
      description: 'scroll only: a gentle camera move during the scroll',
      default: MOTION_DEFAULTS.drift,
    }),
  })
  .meta({
    id: 'Motion',
    description:
      'Renders the capture as a video (output.format mp4, webm or gif; mp4 when omitted). Runs as a job unless `async: false`.',
  });
export type Motion = z.infer<typeof motionSchema>;

/** `video` of a capture result with motion. */
export const videoResultSchema = z
  .object({
    duration_ms: z.number().int(),
    fps: z.number().int(),
    frames: z.number().int(),
    codec: z.string(),
    poster_url: z.string(),
  })
  .meta({ id: 'VideoResult' });
export type VideoResult = z.infer<typeof videoResultSchema>;
