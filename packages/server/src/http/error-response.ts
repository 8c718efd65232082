import type { ErrorEnvelope } from '@vitrine/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { AppError } from '../errors/app-error.ts';
import { dependencyOf, dependencyUnavailable } from '../errors/dependency-outage.ts';

interface ValidationIssue {
  path: string;
  message: string;
}

interface ZodLikeIssue {
  keyword: string;
  instancePath: string;
  message: string;
  params: Record<string, unknown>;
}

function fieldPath(instancePath: string, prefix: string | undefined): string {
  // An item of an array is named by its index in brackets (`shots[2].device`), like the
  // resolver's own messages.
  const path = instancePath
    .replace(/^\//, '')
    .replaceAll('/', '.')
    .replace(/\.(\d+)(?=\.|$)/g, '[$1]');
  return prefix === 'querystring' || prefix === 'params' || prefix === 'body' || !prefix
    ? path
    : `${prefix}.${path}`;
}

/** One human sentence per schema issue, naming the field and the valid values. */
function describeIssue(issue: ZodLikeIssue, context: string | undefined): ValidationIssue[] {
  const path = fieldPath(issue.instancePath, context);
  const p = issue.params;
  switch (issue.keyword) {
    case 'unrecognized_keys': {
      // Unknown keys are named (the contract's messages name the field), unless the name itself
      // is hostile: huge or full of markup, it is not sent back.
      const keys = ((p.keys as string[]) ?? []).map((key) =>
        /^[A-Za-z0-9_.$-]{1,64}$/.test(key) ? key : '(an unnamed field)',
      );
      return keys.map((key) => ({
        path: path ? `${path}.${key}` : key,
        message: `Unknown field: ${path ? `${path}.${key}` : key}`,
      }));
    }
    case 'invalid_value': {
      const values = (p.values as unknown[]) ?? [];
      return [{ path, message: `Invalid ${path}. Must be one of: ${values.map(String).join(', ')}` }];
    }
    case 'invalid_type':
      if (/received undefined/.test(issue.message))
        return [{ path, message: `Missing required field: ${path}` }];
      return [{ path, message: `Invalid ${path}: expected ${String(p.expected)}` }];
    case 'too_small':
    case 'too_big': {
      // A message given by the contract (e.g. a blank trimmed name) says more than the bound.
      if (!/^Too (small|big)/.test(issue.message))
        return [{ path, message: `Invalid ${path}: ${issue.message}` }];
      const bound = issue.keyword === 'too_small' ? p.minimum : p.maximum;
      const unit = p.origin === 'string' ? 'character' : p.origin === 'array' ? 'item' : '';
      const what = unit && bound !== 1 ? `${unit}s` : unit;
      const word = issue.keyword === 'too_small' ? 'at least' : 'at most';
      return [
        { path, message: `Invalid ${path}: must be ${word} ${String(bound)}${what ? ` ${what}` : ''}` },
      ];
    }
    default:
      return [{ path, message: `Invalid ${path}: ${issue.message}` }];
  }
}

function validationError(error: { validation: ZodLikeIssue[]; validationContext?: string }): AppError {
  const issues = error.validation.flatMap((issue) => describeIssue(issue, error.validationContext));
  const first = issues[0]?.message ?? 'Invalid request';
  const message = issues.length > 1 ? `${first} (and ${issues.length - 1} more problems)` : first;
  return new AppError('invalid_params', message, { details: { issues } });
}

/** The same 400 as request validation, for a body assembled and validated by a handler. */
export function invalidParamsFromZod(error: z.ZodError): AppError {
  const validation = error.issues.map((issue) => {
    const { code, path, message, ...params } = issue as unknown as {
      code: string;
      path: PropertyKey[];
      message: string;
    } & Record<string, unknown>;
    return { keyword: code, instancePath: `/${path.map(String).join('/')}`, message, params };
  });
  return validationError({ validation });
}

/** Turns anything thrown while handling a request into an AppError of the contract's table. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) {
    // An unexpected failure caused by a dependency that is down is a 503 the client can retry.
    const dependency = error.code === 'internal_error' ? dependencyOf(error.cause) : undefined;
    return dependency ? dependencyUnavailable(dependency, error) : error;
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    return validationError(error as unknown as { validation: ZodLikeIssue[]; validationContext?: string });
  }
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'The request body is too large', { cause: error });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_json', 'The body is not valid JSON', { cause: error });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('invalid_json', 'The body must be JSON, sent with Content-Type: application/json', {
        cause: error,
      });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('invalid_json', 'The Content-Length does not match the body', { cause: error });
  }
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    // Fastify's JSON parser: malformed JSON, or a forbidden __proto__ / constructor key.
    const poisoned = /prototype|constructor/i.test(error.message);
    return new AppError(
      'invalid_json',
      poisoned
        ? 'The body contains a forbidden key (__proto__ or constructor.prototype)'
        : 'The body is not valid JSON',
      { cause: error },
    );
  }
  if (
    typeof fastifyError.code === 'string' &&
    fastifyError.code.startsWith('FST_') &&
    typeof fastifyError.statusCode === 'number' &&
    fastifyError.statusCode >= 400 &&
    fastifyError.statusCode < 500
  ) {
    // Any other refusal of the framework is the client's doing, not a 500; its message may
    // quote the request, so it is logged, not sent.
    return new AppError('bad_request', 'The request could not be processed as sent', { cause: error });
  }
  const dependency = dependencyOf(error);
  if (dependency) return dependencyUnavailable(dependency, error);
  return new AppError('internal_error', 'Something went wrong on our side', { cause: error });
}

export function envelopeOf(error: AppError): ErrorEnvelope {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
      ...(error.retryAfter === undefined ? {} : { retry_after: error.retryAfter }),
    },
  };
}

/** Fastify's error handler: the contract's envelope, causes logged and never sent. */
export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const appError = toAppError(error);
  if (appError.status >= 500) {
    request.log.error({ err: appError.cause ?? error, code: appError.code }, 'request failed');
  } else if (appError.cause !== undefined) {
    request.log.info({ code: appError.code, cause: String(appError.cause) }, 'request refused');
  }
  if (appError.retryAfter !== undefined) reply.header('retry-after', String(appError.retryAfter));
  return reply.code(appError.status).type('application/json; charset=utf-8').send(envelopeOf(appError));
}
