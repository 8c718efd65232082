import { AppError } from './app-error.ts';

/**
 * The services a request or a job can fail on (issue 41). `blob_store` is the local image disk,
 * `object_store` the S3-compatible store; `browser` is Chromium, `webhook_receiver` a user's
 * webhook endpoint.
 */
export const DEPENDENCIES = [
  'database',
  'redis',
  'object_store',
  'blob_store',
  'browser',
  'webhook_receiver',
] as const;
export type Dependency = (typeof DEPENDENCIES)[number];

const TAG = Symbol.for('vitrine.dependency');

/** Marks an error as coming from `dependency` (where the adapter knows it), and returns it. */
export function tagDependency<E>(error: E, dependency: Dependency): E {
  if (typeof error === 'object' && error !== null) {
    (error as Record<symbol, unknown>)[TAG] = dependency;
  }
  return error;
}

/**
 * Connection-level failures of the PostgreSQL driver (`pg`): a server that went away mid-query,
 * a pool that could not connect in time. SQLSTATE class 08 (connection exception) and 57P01-03
 * (administrator shutdown, crash shutdown, cannot connect now) come from the server itself.
 */
const DATABASE_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed and is not queryable)/;
const DATABASE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[1-3])$/;
/** ioredis with its offline queue off (rate limits) or its retries exhausted (BullMQ). */
const REDIS_MESSAGES =
  /^(Stream isn't writeable and enableOfflineQueue options is false|Connection is closed\.|Reached the max retries per request limit)/;

/**
 * The dependency an error says is unavailable, from a tag, an AppError's `details.dependency`, or
 * the drivers' connection errors, looked for along the `cause` chain; undefined for anything else
 * (a bug, a bad page) so that it stays a 500 or a capture failure.
 */
export function dependencyOf(error: unknown): Dependency | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const tagged = (current as Record<symbol, unknown>)[TAG];
    if (typeof tagged === 'string') return tagged as Dependency;
    if (current instanceof AppError) {
      const named = current.details?.dependency;
      if (typeof named === 'string' && (DEPENDENCIES as readonly string[]).includes(named)) {
        return named as Dependency;
      }
    }
    const { code, message, name } = current as { code?: unknown; message?: unknown; name?: unknown };
    if (typeof code === 'string' && DATABASE_SQLSTATE.test(code)) return 'database';
    if (typeof message === 'string' && DATABASE_MESSAGES.test(message)) return 'database';
    if (typeof message === 'string' && REDIS_MESSAGES.test(message)) return 'redis';
    if (name === 'MaxRetriesPerRequestError') return 'redis';
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

const LABELS: Record<Dependency, string> = {
  database: 'The database',
  redis: 'Redis',
  object_store: 'The object store',
  blob_store: 'The image storage disk',
  browser: 'The browser',
  webhook_receiver: 'The webhook receiver',
};

/** Seconds a client is told to wait before retrying a request that met an outage. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/**
 * The 503 a request gets when a service it needs is down: `overloaded` (retry later), naming the
 * dependency in `details` and never its address or driver message (those stay in the log).
 */
export function dependencyUnavailable(
  dependency: Dependency,
  cause?: unknown,
  reason = 'is unavailable',
): AppError {
  return new AppError('overloaded', `${LABELS[dependency]} ${reason}; try again in a few seconds`, {
    retryAfter: OUTAGE_RETRY_AFTER_SECONDS,
    details: { dependency },
    cause,
  });
}
