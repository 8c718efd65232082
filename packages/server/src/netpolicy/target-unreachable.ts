import { AppError } from '../errors/app-error.ts';

/** The one public message for every network failure of a target (no oracle, contract section 2). */
export const TARGET_UNREACHABLE_MESSAGE = 'The target could not be reached.';

/** Socket, DNS and undici error codes that all mean "the target did not answer as expected". */
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NODATA',
  'EAI_NONAME',
  'EADDRNOTAVAIL',
  'EPROTO',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_HAS_EXPIRED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_ABORTED',
  'UND_ERR_INFO',
  'UND_ERR_RESPONSE',
]);

/** Families of codes from undici, the HTTP parser and TLS: all failures of the peer or the link. */
const NETWORK_ERROR_PREFIXES = /^(UND_ERR_|HPE_|ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|ERR_HTTP2_)/;

/**
 * A 422 `capture_failed` with `details.reason: target_unreachable`. The cause (a `net::ERR_*`
 * text, a socket code) goes to the log only, so refused, reset and timed out look the same.
 */
export function targetUnreachable(cause?: unknown): AppError {
  return new AppError('capture_failed', TARGET_UNREACHABLE_MESSAGE, {
    details: { reason: 'target_unreachable' },
    cause,
  });
}

/** True for the error produced by {@link targetUnreachable}. */
export function isTargetUnreachable(error: unknown): boolean {
  return (
    error instanceof AppError &&
    error.code === 'capture_failed' &&
    error.details?.reason === 'target_unreachable'
  );
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * True when an error is a network failure of the target: a Chromium `net::ERR_*` message (as
 * Playwright reports it), a socket or DNS error code, or an undici transport error, also when
 * wrapped as the `cause` of another error (as `fetch failed` does).
 */
export function isNetworkFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    if (current instanceof AppError) return false;
    const code = errorCode(current);
    if (code !== undefined && (NETWORK_ERROR_CODES.has(code) || NETWORK_ERROR_PREFIXES.test(code)))
      return true;
    const message = current instanceof Error ? current.message : String(current);
    if (/\bnet::ERR_[A-Z0-9_]+/.test(message)) return true;
    current = current instanceof Error ? current.cause : undefined;
  }
  return false;
}

/**
 * Maps a failure while reaching a target to what the client may see: an `AppError` passes
 * through, any network failure becomes {@link targetUnreachable}, anything else is returned as
 * is (the caller rethrows it as an internal error).
 */
export function toTargetError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  return isNetworkFailure(error) ? targetUnreachable(error) : error;
}
