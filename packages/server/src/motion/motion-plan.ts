import { MOTION_LIMITS, type MotionEasing, type MotionType, type VideoFormat } from '@vitrine/contract';
import type { ScrollTargetOption } from '../image/page-scroll.ts';

/** Where a scroll ends: CSS pixels from the top, the top of an element, or the page's end. */
export type ScrollTarget = ScrollTargetOption;

/**
 * A motion capture resolved into plain data (every default applied): what the motion stage
 * animates and how the video is encoded. Part of a ResolvedCapture, so a queued job carries it.
 */
export interface MotionPlan {
  type: MotionType;
  format: VideoFormat;
  /** Seconds, holds included. */
  duration: number;
  fps: number;
  easing: MotionEasing;
  /** Seconds still at the start and the end (scroll, reveal; a float loop has none). */
  holdStart: number;
  holdEnd: number;
  /** scroll only. */
  scrollTo: ScrollTarget | null;
  /** scroll only: a gentle camera move during the scroll. */
  drift: boolean;
  /** 1..100, mp4 and webm (mapped onto the codec's quality scale); absent: the codec's default. */
  quality: number | undefined;
}

/** Frames of the clip: `duration x fps`, at least 1. */
export function frameCount(plan: Pick<MotionPlan, 'duration' | 'fps'>): number {
  return Math.max(1, Math.round(plan.duration * plan.fps));
}

const EASINGS: Record<MotionEasing, (t: number) => number> = {
  linear: (t) => t,
  'ease-in': (t) => t * t * t,
  'ease-out': (t) => 1 - (1 - t) ** 3,
  'ease-in-out': (t) => (t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2),
};

/**
 * How far the motion has gone at frame `index` (0 = start, 1 = end): still during the holds,
 * eased in between. The last frame is exactly 1, so a clip ends on the requested position even
 * without a hold.
 */
export function progressAt(plan: MotionPlan, index: number): number {
  const frames = frameCount(plan);
  if (frames === 1) return 1;
  const t = (index / (frames - 1)) * plan.duration;
  const moving = plan.duration - plan.holdStart - plan.holdEnd;
  if (moving <= 0) return t >= plan.duration ? 1 : 0;
  const linear = Math.min(1, Math.max(0, (t - plan.holdStart) / moving));
  return EASINGS[plan.easing](linear);
}

/**
 * The phase of a loop at frame `index`, in [0, 1): frame `frames` would equal frame 0 again, so
 * a GIF or WebM that repeats shows no seam.
 */
export function loopPhaseAt(plan: MotionPlan, index: number): number {
  return index / frameCount(plan);
}

/** The largest side a video of `format` may have, in output pixels. */
export function videoSideLimit(format: VideoFormat): number {
  return format === 'gif' ? MOTION_LIMITS.gif.side : MOTION_LIMITS.videoSide;
}
