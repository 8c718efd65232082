/**
 * Why a scene cannot be drawn: the layout leaves the screenshot no room (`no_room`: the look's
 * padding or titles are too large for the output size), or the canvas would be over the size
 * limits (`too_large`). The compositor knows no HTTP: the capture runner turns these into the
 * contract's errors (captures/run-capture.ts).
 */
export class ComposeError extends Error {
  readonly reason: 'no_room' | 'too_large';
  readonly details: Record<string, unknown>;

  constructor(reason: 'no_room' | 'too_large', message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ComposeError';
    this.reason = reason;
    this.details = details;
  }
}
