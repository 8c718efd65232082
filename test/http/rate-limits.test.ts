import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { REDIS_URL } from '../support/test-services.ts';

const LIMITS = { VITRINE_RATE_LIMIT_DEFAULT_PER_MINUTE: '5' };

describe('rate limits in memory', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { env: LIMITS });
  });
  afterAll(() => t.close());

  it('counts per key, sends RateLimit headers and answers 429 with retry_after', async () => {
    const a = await t.createKey();
    const b = await t.createKey();
    const statuses: number[] = [];
    let last: Awaited<ReturnType<TestApp['request']>> | undefined;
    for (let i = 0; i < 6; i++) {
      last = await t.request('GET', '/v1/usage', { key: a.key });
      statuses.push(last.status);
      if (i === 0) {
        expect(last.headers.get('ratelimit-limit')).toBe('5');
        expect(last.headers.get('ratelimit-remaining')).toBe('4');
        expect(Number(last.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(last!.json.error.code).toBe('rate_limited');
    expect(last!.json.error.retry_after).toBeGreaterThan(0);
    expect(last!.headers.get('retry-after')).toBe(String(last!.json.error.retry_after));
    expect(last!.headers.get('ratelimit-remaining')).toBe('0');
    // Another key has its own window.
    expect((await t.request('GET', '/v1/usage', { key: b.key })).status).toBe(200);
  });
});

describe('rate limits shared through Redis', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    // Two app instances on one PostgreSQL schema and one Redis: two processes of one deployment.
    const env = { ...LIMITS, REDIS_URL };
    first = await startTestApp('postgres', { env });
    second = await startTestApp('postgres', { env, sharedSchema: first.schema });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('counts one window across both processes', async () => {
    const key = await first.createKey();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const app = i % 2 === 0 ? first : second;
      statuses.push((await app.request('GET', '/v1/usage', { key: key.key })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('reports Redis in readiness', async () => {
    const ready = await first.request('GET', '/readyz');
    expect(ready.json).toEqual({
      status: 'ready',
      checks: { database: 'ok', redis: 'ok', blob_store: 'ok' },
    });
  });
});
