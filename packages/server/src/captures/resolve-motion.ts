import {
  type CaptureRequest,
  type CreditPrices,
  MOTION_DEFAULTS,
  MOTION_LIMITS,
  OUTPUT_FORMATS,
  type OutputFormat,
  type RawCaptureRequest,
  VIDEO_FORMATS,
  type VideoFormat,
} from '@vitrine/contract';
import { invalidParam } from '../errors/app-error.ts';
import { type MotionPlan, type ScrollTarget, videoSideLimit } from '../motion/motion-plan.ts';

const isVideoFormat = (format: string | undefined): format is VideoFormat =>
  (VIDEO_FORMATS as readonly string[]).includes(format ?? '');

function scrollTargetOf(scrollTo: NonNullable<CaptureRequest['motion']>['scroll_to']): ScrollTarget {
  const target = scrollTo ?? MOTION_DEFAULTS.scroll_to;
  if (target === 'end') return { kind: 'end' };
  if (typeof target === 'number') return { kind: 'pixels', y: target };
  return { kind: 'selector', selector: target };
}

/**
 * `motion` and `output.format` of a request, checked together: a video format needs `motion`
 * and `motion` needs a video format (mp4 when the request names none). Every default applied;
 * each refusal names its field and what it accepts. Returns null for a still capture.
 */
export function resolveMotion(body: CaptureRequest | RawCaptureRequest): MotionPlan | null {
  const requested = body.output?.format;
  const motion = 'motion' in body ? body.motion : undefined;
  if (!motion) {
    if (isVideoFormat(requested)) {
      throw invalidParam(
        'output.format',
        `${requested} is a video format: it needs \`motion\` (POST /v1/capture); images are ${OUTPUT_FORMATS.join(', ')}`,
      );
    }
    return null;
  }
  if (requested !== undefined && !isVideoFormat(requested)) {
    throw invalidParam(
      'output.format',
      `motion renders a video: output.format must be one of ${VIDEO_FORMATS.join(', ')}`,
    );
  }
  const format: VideoFormat = requested ?? MOTION_DEFAULTS.format;
  const styled = body as CaptureRequest;
  if (motion.type !== 'scroll') {
    if (motion.scroll_to !== undefined)
      throw invalidParam('motion.scroll_to', 'scroll_to is for motion type scroll');
    if (motion.drift !== undefined) throw invalidParam('motion.drift', 'drift is for motion type scroll');
  } else if (styled.selector !== undefined || styled.element !== undefined) {
    throw invalidParam(
      styled.selector !== undefined ? 'selector' : 'element',
      'a scroll video scrolls the whole page: not with selector or element',
    );
  }
  const duration = motion.duration ?? MOTION_DEFAULTS.duration;
  const isFloat = motion.type === 'float';
  // The default holds shrink with a short clip (a sixth of it at most), so a valid duration
  // alone is never refused for holds the request did not ask for.
  const defaultHold = Math.min(MOTION_DEFAULTS.hold_start, Math.round((duration / 6) * 100) / 100);
  const holdStart = isFloat ? 0 : (motion.hold_start ?? defaultHold);
  const holdEnd = isFloat ? 0 : (motion.hold_end ?? defaultHold);
  if (isFloat && (motion.hold_start !== undefined || motion.hold_end !== undefined)) {
    throw invalidParam(
      motion.hold_start !== undefined ? 'motion.hold_start' : 'motion.hold_end',
      'a float loops: it has no holds',
    );
  }
  if (holdStart + holdEnd >= duration) {
    throw invalidParam(
      'motion.hold_start',
      `hold_start + hold_end must be shorter than duration (${duration} s)`,
    );
  }
  const fps = motion.fps ?? (format === 'gif' ? MOTION_DEFAULTS.gifFps : MOTION_DEFAULTS.fps);
  if (format === 'gif') {
    if (fps > MOTION_LIMITS.gif.fps)
      throw invalidParam('motion.fps', `a gif plays at most ${MOTION_LIMITS.gif.fps} frames per second`);
    if (duration > MOTION_LIMITS.gif.durationSeconds)
      throw invalidParam(
        'motion.duration',
        `a gif lasts at most ${MOTION_LIMITS.gif.durationSeconds} seconds`,
      );
  }
  const side = videoSideLimit(format);
  const dpr = body.output?.dpr ?? 1;
  for (const field of ['width', 'height'] as const) {
    const value = body.output?.[field];
    if (value !== undefined && value * dpr > side) {
      throw invalidParam(
        `output.${field}`,
        `a ${format} is at most ${side} px on each side (output.${field} x output.dpr); larger looks are scaled down to fit`,
      );
    }
  }
  if (format === 'gif' && body.output?.quality !== undefined) {
    throw invalidParam(
      'output.quality',
      'a gif has 256 colours per clip and no quality setting; quality is for mp4 and webm',
    );
  }
  return {
    type: motion.type,
    format,
    duration,
    fps,
    easing: motion.easing ?? MOTION_DEFAULTS.easing,
    holdStart,
    holdEnd,
    scrollTo: motion.type === 'scroll' ? scrollTargetOf(motion.scroll_to) : null,
    drift: motion.type === 'scroll' ? (motion.drift ?? MOTION_DEFAULTS.drift) : false,
    quality: body.output?.quality,
  };
}

/** Credits a video adds to its capture: `video_second` per started second. */
export function motionCostOf(motion: MotionPlan | null, prices: CreditPrices): number {
  return motion ? Math.ceil(motion.duration) * prices.video_second : 0;
}

/** The still format of a request whose `output.format` may be a video's (its poster's then). */
export function stillFormatOf(format: string | undefined): OutputFormat | undefined {
  return isVideoFormat(format) ? 'jpg' : (format as OutputFormat | undefined);
}
