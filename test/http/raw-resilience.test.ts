import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

// Issue 3's reliability promises, observed through the HTTP API with real Chromium.
describe('capture service under load and failure', () => {
  let t: TestApp;
  let fixtures: RunningServer;
  let key: TestKey;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    // A page whose main document arrives after a delay, so captures stay in flight.
    fixtures.route('/slow', (req, res) => {
      const ms = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('ms') ?? '1500');
      setTimeout(() => {
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<h1 style="font:40px sans-serif">slow page</h1>');
      }, ms);
    });
    t = await startTestApp('sqlite', {
      env: {
        VITRINE_ALLOW_TARGETS: '127.0.0.2',
        VITRINE_BROWSER_CONCURRENCY: '2',
        VITRINE_BROWSER_QUEUE_LIMIT: '6',
        VITRINE_RATE_LIMIT_CAPTURE_PER_MINUTE: '1000',
      },
    });
    key = await t.createKey({ credits: 100 });
    await t.app.warmUp();
  });
  afterAll(async () => {
    await t.close();
    await fixtures.close();
  });

  const capture = (path: string) =>
    t.request('POST', '/v1/raw', {
      key: key.key,
      json: { url: `${fixtures.origin}${path}`, viewport: { width: 400, height: 300 }, cache_ttl: 0 },
    });

  it('20 concurrent requests: at most 2 pages and 6 queued, the rest 503 with retry_after, credits exact', async () => {
    const before = (await t.request('GET', '/v1/usage', { key: key.key })).json.credits_remaining;
    let maxInFlight = 0;
    let maxQueued = 0;
    const sampler = setInterval(() => {
      const stats = t.app.browserPool.stats();
      maxInFlight = Math.max(maxInFlight, stats.inFlight);
      maxQueued = Math.max(maxQueued, stats.queued);
    }, 10);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => capture(`/slow?ms=800&i=${i}`)));
    clearInterval(sampler);

    const created = results.filter((r) => r.status === 201);
    const overloaded = results.filter((r) => r.status === 503);
    expect(created.length + overloaded.length).toBe(20);
    expect(created.length).toBe(8);
    for (const r of overloaded) {
      expect(r.json.error.code).toBe('overloaded');
      expect(r.json.error.retry_after).toBeGreaterThan(0);
      expect(r.headers.get('retry-after')).toBe(String(r.json.error.retry_after));
    }
    expect(maxInFlight).toBeLessThanOrEqual(2);
    expect(maxQueued).toBeLessThanOrEqual(6);
    const after = (await t.request('GET', '/v1/usage', { key: key.key })).json.credits_remaining;
    expect(before - after).toBe(created.length);
  });

  it('kill -9 of Chromium fails only the captures in flight, refunds them, and the next capture succeeds', async () => {
    const before = (await t.request('GET', '/v1/usage', { key: key.key })).json.credits_remaining;
    // The pages answer long after the kill, so both captures are still in flight when it comes,
    // however long a loaded machine takes to start the second one.
    const inFlight = [capture('/slow?ms=10000&k=1'), capture('/slow?ms=10000&k=2')];
    // Wait until both captures hold a page (a generous budget: 2 loaded cores), then kill the
    // browser process outright. A capture not yet holding a page would run on the next browser.
    for (let i = 0; i < 3000 && t.app.browserPool.stats().inFlight < 2; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(t.app.browserPool.stats().inFlight).toBe(2);
    const pid = t.app.browserPool.stats().browserPid;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');

    const failed = await Promise.all(inFlight);
    for (const r of failed) {
      expect(r.status).toBe(422);
      expect(r.json.error).toMatchObject({ code: 'capture_failed', details: { reason: 'render_failed' } });
    }
    expect((await t.request('GET', '/v1/usage', { key: key.key })).json.credits_remaining).toBe(before);

    const next = await capture('/capture/simple.html');
    expect(next.status, next.text).toBe(201);
    expect(t.app.browserPool.stats().browserPid).not.toBe(pid);
  }, 120_000);
});
