import { type ErrorCode, statusForCode } from '@vitrine/contract';

export interface AppErrorOptions {
  details?: Record<string, unknown>;
  /** Seconds the client should wait (429, 503); sent as `retry_after` and `Retry-After`. */
  retryAfter?: number;
  /** The underlying failure: logged, never sent to the client. */
  cause?: unknown;
}

/**
 * The one error type of the service. Its HTTP status comes from the contract's code table; the
 * message is public and names the field and valid values; the cause stays in the log.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = statusForCode(code);
    this.details = options.details;
    this.retryAfter = options.retryAfter;
  }
}

/** A 400 `invalid_params` naming one field, in the same shape as schema validation failures. */
export function invalidParam(path: string, message: string): AppError {
  return new AppError('invalid_params', `Invalid ${path}. ${message}`, {
    details: { issues: [{ path, message }] },
  });
}

export function notFound(what: string): AppError {
  return new AppError('not_found', `${what} not found`);
}
