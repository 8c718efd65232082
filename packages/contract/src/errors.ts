import { z } from 'zod';

/**
 * The error-code table of docs/api-decisions.md section 2: every error the API returns has one of these
 * codes, and its HTTP status comes from here and nowhere else.
 */
export const ERROR_CODES = {
  invalid_params: {
    status: 400,
    description: 'Validation failure; `details.issues` lists `{path, message}`.',
  },
  invalid_json: { status: 400, description: 'The body is not JSON, or not a JSON object.' },
  bad_request: {
    status: 400,
    description:
      'The request is not well-formed HTTP: a malformed request line or header, or a URL that is not valid percent-encoding.',
  },
  auth_profile_mismatch: {
    status: 400,
    description: "The auth profile's domain does not cover the capture URL's host.",
  },
  unauthorized: { status: 401, description: 'Missing, malformed, unknown or revoked API key.' },
  signature_invalid: {
    status: 401,
    description: 'Signed URL: bad signature, or `expires` malformed or too far ahead.',
  },
  signature_expired: { status: 401, description: 'Signed URL: `expires` is in the past.' },
  insufficient_credits: {
    status: 402,
    description:
      'The cost exceeds the remaining credits; `details: {required, remaining}`. Checked before any work.',
  },
  forbidden_scope: { status: 403, description: 'The key lacks the scope; `details.required_scope`.' },
  target_not_allowed: { status: 403, description: 'The URL is refused by the network policy.' },
  not_found: { status: 404, description: 'Unknown id, or one owned by another account.' },
  method_not_allowed: {
    status: 405,
    description:
      'The path exists but not with this method; the `Allow` header (and `details.allow`) lists its methods.',
  },
  conflict: {
    status: 409,
    description:
      'The account already has a project for that domain; or an `Idempotency-Key` was used before with a different batch.',
  },
  expired_token: {
    status: 410,
    description: 'Device flow: the code expired, was already redeemed, or is unknown.',
  },
  access_denied: { status: 410, description: 'Device flow: the user denied the request.' },
  request_timeout: {
    status: 408,
    description: "The request (headers and body) did not arrive within the server's request timeout.",
  },
  payload_too_large: { status: 413, description: 'The body is over the limit (default 256 KiB).' },
  uri_too_long: {
    status: 414,
    description:
      'A path segment (an id) is over 200 characters, or the request line is over the header limit.',
  },
  headers_too_large: {
    status: 431,
    description: 'The request line and headers together are over the limit (16 KiB).',
  },
  capture_failed: {
    status: 422,
    description: 'Valid request, but the page or render failed; `details.reason` says why.',
  },
  rate_limited: {
    status: 429,
    description: 'Too many requests; `retry_after` seconds and the `Retry-After` header.',
  },
  slow_down: {
    status: 429,
    description: 'Device flow: polled sooner than `interval`; the interval grows by 5 s.',
  },
  internal_error: { status: 500, description: 'Unexpected failure; the message never leaks internals.' },
  overloaded: {
    status: 503,
    description:
      'The render queue is full, or a service the request needs (database, Redis, object store, image disk) is unavailable for now: `details.dependency` names it. Retry after `retry_after` seconds.',
  },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as ErrorCode[];

/** HTTP status for an error code. */
export function statusForCode(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}

/** Reasons reported in `details.reason` of a 422 `capture_failed`. */
export const CAPTURE_FAILURE_REASONS = [
  'navigation_timeout',
  'target_unreachable',
  'selector_not_found',
  'element_not_found',
  'render_failed',
  'image_fetch_failed',
  'too_large',
  'action_failed',
] as const;
export type CaptureFailureReason = (typeof CAPTURE_FAILURE_REASONS)[number];

export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODE_NAMES as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
      retry_after: z.number().int().optional(),
    }),
  })
  .meta({ id: 'Error' });

export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
