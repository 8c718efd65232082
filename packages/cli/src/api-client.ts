import {
  type ErrorCode,
  errorEnvelopeSchema,
  ROUTES,
  type RouteDefinition,
  type RouteId,
} from '@vitrine/contract';
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

export interface ApiClient {
  readonly baseUrl: string;
  call<R extends RouteId>(route: R, options?: CallOptions<R>): Promise<ApiAnswer<R>>;
  /** Downloads bytes from a URL the service handed out (an image URL). */
  download(url: string, timeoutMs?: number): Promise<{ bytes: Buffer; contentType: string | null }>;
}

function unreachable(baseUrl: string, error: unknown): CliError {
  const reason =
    error instanceof Error && error.name === 'TimeoutError' ? 'it did not answer in time' : 'no answer';
  return new CliError(`Cannot reach the Vitrine server at ${baseUrl} (${reason})`, EXIT.unreachable);
}

/**
 * Calls the API through the contract's route table, so method, path and body shape are the
 * server's own. Error answers become ApiError (with the service's message and the matching exit
 * code); success bodies are checked against the contract's schemas.
 */
export function createApiClient(options: {
  baseUrl: string;
  apiKey?: string | undefined;
  userAgent: string;
}): ApiClient {
  const { baseUrl } = options;

  async function request(url: string, init: RequestInit, timeoutMs: number): Promise<Response> {
    try {
      return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw unreachable(baseUrl, error);
    }
  }

  async function call<R extends RouteId>(id: R, callOptions: CallOptions<R> = {}): Promise<ApiAnswer<R>> {
    const route = ROUTES[id] as RouteDefinition;
    let path = route.path;
    for (const [name, value] of Object.entries((callOptions.params ?? {}) as Record<string, string>)) {
      path = path.replace(`:${name}`, encodeURIComponent(value));
    }
    const url = new URL(baseUrl + path);
    for (const [name, value] of Object.entries(callOptions.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { 'user-agent': options.userAgent, accept: 'application/json' };
    if (options.apiKey && route.access.kind !== 'public') headers.authorization = `Bearer ${options.apiKey}`;
    let body: string | undefined;
    if (callOptions.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(callOptions.body);
    }
    const response = await request(
      url.href,
      { method: route.method, headers, ...(body === undefined ? {} : { body }) },
      callOptions.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const envelope = errorEnvelopeSchema.safeParse(json);
      if (envelope.success) {
        const { code, message, retry_after, details } = envelope.data.error;
        throw new ApiError(response.status, code, message, { retryAfter: retry_after, details });
      }
      throw new CliError(`The server answered ${response.status} without an error message`, EXIT.unexpected);
    }
    const schemas = [route.success, ...(route.alternatives ?? [])];
    const expected = schemas.find((s) => s.status === response.status) ?? route.success;
    const parsed = expected.schema.safeParse(json);
    if (!parsed.success) {
      throw new CliError(
        `The server's answer to ${route.method} ${route.path} does not match this CLI's contract (is the server a different version?)`,
        EXIT.unexpected,
      );
    }
    return { status: response.status, body: parsed.data as ApiAnswer<R>['body'] };
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
