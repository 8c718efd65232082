import type { ServerResponse } from 'node:http';

/** Aborts when the client goes away before the answer, so abandoned work frees its browser slot. */
export function clientAbortSignal(response: ServerResponse): AbortSignal {
  const controller = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) controller.abort(new Error('client closed the connection'));
  });
  return controller.signal;
}
