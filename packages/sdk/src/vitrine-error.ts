import type { ApiErrorCode } from './types.ts';

/**
 * Codes of failures that happen before an answer of the API: the server could not be reached,
 * the attempt ran past its time, or the answer was not what the API documents.
 */
export type ClientErrorCode = 'network_error' | 'timeout' | 'unexpected_response';

/**
 * A failed call: the API's error envelope (`code`, `message`, `details`, `retry_after`) with the
 * HTTP status, or one of the client's own codes with `status` 0.
 */
export class VitrineError extends Error {
  readonly code: ApiErrorCode | ClientErrorCode;
  /** HTTP status of the answer; 0 when there was none. */
  readonly status: number;
  /** Seconds to wait before trying again (429 and 503), from `retry_after` or `Retry-After`. */
  readonly retryAfter: number | undefined;
  readonly details: Record<string, unknown> | undefined;
  /** The `X-Request-Id` of the answer, for the server's log. */
  readonly requestId: string | undefined;

  constructor(
    code: ApiErrorCode | ClientErrorCode,
    message: string,
    extra: {
      status?: number;
      retryAfter?: number | undefined;
      details?: Record<string, unknown> | undefined;
      requestId?: string | undefined;
      cause?: unknown;
    } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'VitrineError';
    this.code = code;
    this.status = extra.status ?? 0;
    this.retryAfter = extra.retryAfter;
    this.details = extra.details;
    this.requestId = extra.requestId;
  }
}
