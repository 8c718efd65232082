import { type ErrorCode, ROUTES, type RouteDefinition, type RouteId } from '@vitrine/contract';
import { type Answer, HttpTransport, VitrineError } from '@vitrine/sdk';
import type { z } from 'zod';
import { CliError, EXIT, EXIT_CODE_FOR_ERROR } from './exit-codes.ts';

/** An error answer of the service, in the contract's envelope. */
export class ApiError extends CliError {
  readonly status: number;
  readonly retryAfter: number | undefined;
  readonly details: Record<string, unknown> | undefined;
  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    extra: { retryAfter?: number | undefined; details?: Record<string, unknown> | undefined },
  ) {
    super(message, EXIT_CODE_FOR_ERROR[code], code);
    this.name = 'ApiError';
    this.status = status;
    this.retryAfter = extra.retryAfter;
    this.details = extra.details;
  }
}

type Route<R extends RouteId> = (typeof ROUTES)[R];
type Input<S> = S extends z.ZodType ? z.input<S> : never;

export interface CallOptions<R extends RouteId> {
  params?: Route<R> extends { params: z.ZodType } ? Input<Route<R>['params']> : never;
  query?: Record<string, string | number | undefined>;
  body?: Route<R> extends { body: z.ZodType } ? Input<Route<R>['body']> : never;
  timeoutMs?: number;
  headers?: Record<string, string>;
}

/** The schemas of a route's success answers: the main one and any alternative (a 202). */
type SuccessSchemas<D> = D extends { success: { schema: infer S }; alternatives: readonly (infer A)[] }
  ? S | (A extends { schema: infer T } ? T : never)
  : D extends { success: { schema: infer S } }
    ? S
    : never;

export interface ApiAnswer<R extends RouteId> {
  status: number;
  body: SuccessSchemas<Route<R>> extends infer S extends z.ZodType ? z.output<S> : unknown;
}

const DEFAULT_TIMEOUT_MS = 60_000;

function contractMismatch(route: RouteDefinition): CliError {
  return new CliError(
    `The server's answer to ${route.method} ${route.path} does not match this CLI's contract (is the server a different version?)`,
    EXIT.unexpected,
  );
}

export interface ApiClient {
  readonly baseUrl: string;
  call<R extends RouteId>(route: R, options?: CallOptions<R>): Promise<ApiAnswer<R>>;
  /** Downloads bytes from a URL the service handed out (an image URL). */
  download(url: string, timeoutMs?: number): Promise<{ bytes: Buffer; contentType: string | null }>;
}

/**
 * The CLI's error for a failed call: the service's envelope as ApiError (its exit code follows
 * the error code), anything else as the CLI's own message.
 */
function cliErrorOf(baseUrl: string, error: unknown): unknown {
  if (!(error instanceof VitrineError)) return error;
  switch (error.code) {
    case 'network_error':
      return new CliError(`Cannot reach the Vitrine server at ${baseUrl} (no answer)`, EXIT.unreachable);
    case 'timeout':
      return new CliError(
        `Cannot reach the Vitrine server at ${baseUrl} (it did not answer in time)`,
        EXIT.unreachable,
      );
    case 'unexpected_response':
      return new CliError(`The server answered ${error.status} without an error message`, EXIT.unexpected);
    default:
      return new ApiError(error.status, error.code, error.message, {
        retryAfter: error.retryAfter,
        details: error.details,
      });
  }
}

/**
 * Calls the API through the contract's route table, so method, path and body shape are the
 * server's own; the HTTP exchange is the SDK's (@vitrine/sdk: JSON, the error envelope, retries
 * of 429 and 503 after `retry_after`). Error answers become ApiError (with the service's message
 * and the matching exit code); success bodies are checked against the contract's schemas.
 */
export function createApiClient(options: {
  baseUrl: string;
  apiKey?: string | undefined;
  userAgent: string;
}): ApiClient {
  const { baseUrl } = options;
  const transport = { baseUrl, userAgent: options.userAgent, timeoutMs: DEFAULT_TIMEOUT_MS };
  const withKey = new HttpTransport({ ...transport, apiKey: options.apiKey });
  // Public routes get no key: a stored key that went stale must not fail a login.
  const anonymous = new HttpTransport(transport);

  async function call<R extends RouteId>(id: R, callOptions: CallOptions<R> = {}): Promise<ApiAnswer<R>> {
    const route = ROUTES[id] as RouteDefinition;
    let path = route.path;
    for (const [name, value] of Object.entries((callOptions.params ?? {}) as Record<string, string>)) {
      path = path.replace(`:${name}`, encodeURIComponent(value));
    }
    let answer: Answer<unknown>;
    try {
      answer = await (route.access.kind === 'public' ? anonymous : withKey).send(route.method, path, {
        query: callOptions.query,
        body: callOptions.body,
        timeoutMs: callOptions.timeoutMs,
        headers: callOptions.headers,
      });
    } catch (error) {
      const failure = cliErrorOf(baseUrl, error);
      if (
        failure instanceof CliError &&
        error instanceof VitrineError &&
        error.status >= 200 &&
        error.status < 300
      ) {
        throw contractMismatch(route);
      }
      throw failure;
    }
    const schemas = [route.success, ...(route.alternatives ?? [])];
    const expected = schemas.find((s) => s.status === answer.status) ?? route.success;
    const parsed = expected.schema.safeParse(answer.body);
    if (!parsed.success) throw contractMismatch(route);
    return { status: answer.status, body: parsed.data as ApiAnswer<R>['body'] };
  }

  async function request(url: string, init: RequestInit, timeoutMs: number): Promise<Response> {
    try {
      return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const reason =
        error instanceof Error && error.name === 'TimeoutError' ? 'it did not answer in time' : 'no answer';
      throw new CliError(`Cannot reach the Vitrine server at ${baseUrl} (${reason})`, EXIT.unreachable);
    }
  }

  async function download(url: string, timeoutMs = DEFAULT_TIMEOUT_MS) {
    const response = await request(url, { headers: { 'user-agent': options.userAgent } }, timeoutMs);
    if (!response.ok)
      throw new CliError(`Downloading ${url} failed with HTTP ${response.status}`, EXIT.unexpected);
    return {
      bytes: Buffer.from(await response.arrayBuffer()),
      contentType: response.headers.get('content-type'),
    };
  }

  return { baseUrl, call, download };
}
