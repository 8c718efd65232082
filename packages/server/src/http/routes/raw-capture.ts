import type { CaptureService } from '../../captures/capture-service.ts';
import { clientAbortSignal } from '../client-abort-signal.ts';
import type { RouteHandlers } from '../route-handler.ts';

/** POST /v1/raw: the unstyled capture, through the same capture service as every capture. */
export function rawCaptureHandlers(deps: {
  captures: CaptureService;
}): Pick<RouteHandlers, 'createRawCapture'> {
  return {
    createRawCapture: async ({ principal, body, reply }) => {
      const request = await deps.captures.resolve(body, principal, 'raw');
      const submitted = await deps.captures.submit(request, principal, clientAbortSignal(reply.raw));
      if (submitted.status !== 'rendered') throw new Error('An unstyled capture is never queued');
      return submitted.result;
    },
  };
}
