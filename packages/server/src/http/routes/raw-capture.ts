import type { CaptureService } from '../../captures/capture-service.ts';
import { clientAbortSignal } from '../client-abort-signal.ts';
import type { RouteHandlers } from '../route-handler.ts';

/** POST /v1/raw: the unstyled capture, through the same capture service as every capture. */
export function rawCaptureHandlers(deps: {
  captures: CaptureService;
}): Pick<RouteHandlers, 'createRawCapture'> {
  return {
    createRawCapture: async ({ principal, body, reply }) => {
      const captured = await deps.captures.capture(body, principal, 'raw', clientAbortSignal(reply.raw));
      if (captured.status !== 'rendered') throw new Error('An unstyled capture is never queued');
      return captured.result;
    },
  };
}
