import type { ErrorCode } from '@vitrine/contract';

/**
 * Exit codes of `vitrine`. Every error code of the contract maps to one (the Record makes the
 * compiler insist when a code is added), so scripts can tell "fix the request" from "sign in"
 * from "try again later" without parsing messages.
 */
export const EXIT = {
  ok: 0,
  /** A bug in the CLI or an answer it cannot understand. */
  unexpected: 1,
  /** Bad flags or arguments, or a request the service refused as invalid. */
  usage: 2,
  /** Not signed in, or the key is unknown or revoked; also signed-URL failures. */
  unauthorized: 3,
  /** The key lacks the scope the command needs. */
  forbidden: 4,
  notFound: 5,
  conflict: 6,
  insufficientCredits: 7,
  /** The URL is refused by the server's network policy. */
  targetNotAllowed: 8,
  /** The page or the render failed (also a failed async job). */
  captureFailed: 9,
  /** Rate limited or overloaded: try again later. */
  tryLater: 10,
  /** The device login was denied or expired. */
  loginFailed: 11,
  /** The server failed (500). */
  serverError: 12,
  /** The server could not be reached. */
  unreachable: 13,
  /** `vitrine sync --check`: some shots are out of date. */
  stale: 14,
} as const;

export const EXIT_CODE_FOR_ERROR: Record<ErrorCode, number> = {
  invalid_params: EXIT.usage,
  invalid_json: EXIT.usage,
  auth_profile_mismatch: EXIT.usage,
  payload_too_large: EXIT.usage,
  bad_request: EXIT.usage,
  uri_too_long: EXIT.usage,
  headers_too_large: EXIT.usage,
  method_not_allowed: EXIT.usage,
  request_timeout: EXIT.tryLater,
  unauthorized: EXIT.unauthorized,
  signature_invalid: EXIT.unauthorized,
  signature_expired: EXIT.unauthorized,
  forbidden_scope: EXIT.forbidden,
  not_found: EXIT.notFound,
  conflict: EXIT.conflict,
  insufficient_credits: EXIT.insufficientCredits,
  target_not_allowed: EXIT.targetNotAllowed,
  capture_failed: EXIT.captureFailed,
  rate_limited: EXIT.tryLater,
  slow_down: EXIT.tryLater,
  overloaded: EXIT.tryLater,
  expired_token: EXIT.loginFailed,
  access_denied: EXIT.loginFailed,
  internal_error: EXIT.serverError,
};

/** What each exit code means, for `vitrine --help` and docs/cli.md. */
export const EXIT_CODE_MEANINGS: readonly { code: number; meaning: string }[] = [
  { code: EXIT.ok, meaning: 'Success' },
  { code: EXIT.unexpected, meaning: 'Unexpected failure in the CLI, or an answer it could not read' },
  { code: EXIT.usage, meaning: 'Bad flags or arguments, or the service refused the request as invalid' },
  {
    code: EXIT.unauthorized,
    meaning: 'Not signed in, or the API key is unknown or revoked; signed-URL failures',
  },
  { code: EXIT.forbidden, meaning: 'The API key lacks the scope this command needs' },
  { code: EXIT.notFound, meaning: 'No such project, job or key (or not yours)' },
  { code: EXIT.conflict, meaning: 'Conflict: a project for that domain exists' },
  { code: EXIT.insufficientCredits, meaning: 'Not enough credits' },
  { code: EXIT.targetNotAllowed, meaning: "The URL is refused by the server's network policy" },
  { code: EXIT.captureFailed, meaning: 'The page or the render failed (including a failed async job)' },
  { code: EXIT.tryLater, meaning: 'Rate limited or overloaded: try again later' },
  { code: EXIT.loginFailed, meaning: 'The device login was denied, or its code expired' },
  { code: EXIT.serverError, meaning: 'The server failed' },
  { code: EXIT.unreachable, meaning: 'The server could not be reached' },
  { code: EXIT.stale, meaning: '`vitrine sync --check`: some shots are out of date' },
];

/** The error every command throws: a one-line message and its exit code; never a stack trace. */
export class CliError extends Error {
  readonly exitCode: number;
  readonly code: ErrorCode | undefined;
  constructor(message: string, exitCode: number, code?: ErrorCode) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
    this.code = code;
  }
}
