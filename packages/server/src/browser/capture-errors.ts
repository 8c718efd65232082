import type { CaptureFailureReason } from '@vitrine/contract';
import { AppError } from '../errors/app-error.ts';

/** The reasons the capture stage itself reports in `details.reason` of a 422 `capture_failed`. */
export type PageFailureReason = Extract<
  CaptureFailureReason,
  | 'navigation_timeout'
  | 'target_unreachable'
  | 'selector_not_found'
  | 'render_failed'
  | 'too_large'
  | 'action_failed'
>;

/** A 422 `capture_failed` with its reason; the cause is kept for the log, never sent. */
export function captureFailed(
  reason: PageFailureReason,
  message: string,
  options: { cause?: unknown; details?: Record<string, unknown> } = {},
): AppError {
  return new AppError('capture_failed', message, {
    details: { reason, ...options.details },
    cause: options.cause,
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Maps a failure of `page.goto` to a public error. Every network failure is the same
 * `target_unreachable` (no oracle about the target's network, security.md 1.5), and no
 * `net::ERR_*` string ever reaches the message.
 */
export function navigationError(error: unknown, timeoutMs: number): AppError {
  if (error instanceof AppError) return error;
  const text = messageOf(error);
  if (error instanceof Error && error.name === 'TimeoutError') {
    return captureFailed('navigation_timeout', `The page did not finish loading within ${timeoutMs} ms`, {
      cause: error,
    });
  }
  if (/net::ERR_|NS_ERROR_|Download is starting|interrupted by another navigation/i.test(text)) {
    return targetUnreachable(error);
  }
  return renderFailed(error);
}

/** The one answer for a target that could not be reached, refused and failed alike. */
export function targetUnreachable(cause?: unknown): AppError {
  return captureFailed('target_unreachable', 'The target could not be reached', { cause });
}

/** Any other failure inside the browser: a crashed or closed page, a protocol error. */
export function renderFailed(error: unknown, message = 'The page could not be rendered'): AppError {
  if (error instanceof AppError) return error;
  return captureFailed('render_failed', message, { cause: error });
}
