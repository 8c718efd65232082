/**
 * Where the tests find PostgreSQL and Redis. The global setup (global-setup.ts) starts instances
 * of its own and publishes their URLs in these variables; outside vitest (bench, a script) the
 * defaults are the usual local services.
 */
export const POSTGRES_URL =
  process.env.VITRINE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.VITRINE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The same PostgreSQL server, another database. */
export function postgresUrlOf(database: string): string {
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${database}`;
  return url.toString();
}
