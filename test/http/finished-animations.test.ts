import { describe, expect, it } from 'vitest';
import { serveDashboardData } from '../support/dashboard-data.ts';
import { useFixtureApp } from '../support/fixture-app.ts';
import { differingPixels } from '../support/pixel-difference.ts';

// Finished animations through the API (real Chart.js and CountUp.js): the default capture, raw
// and styled, equals the same page with the libraries' animations switched off.
describe('finished animations through /v1/raw and /v1/capture', () => {
  const app = useFixtureApp({ env: { VITRINE_BROWSER_CONCURRENCY: '2' }, credits: 200 });

  const page = (name: string) => `${app.fixtures.origin}/animations/${name}`;

  async function image(route: '/v1/raw' | '/v1/capture', json: Record<string, unknown>) {
    const res = await app.t.request('POST', route, { key: app.key.key, json: { cache_ttl: 0, ...json } });
    expect(res.status, res.text).toBe(201);
    const bytes = Buffer.from(await (await fetch(`${app.t.baseUrl}/cdn/r/${res.json.id}.png`)).arrayBuffer());
    return { bytes, warnings: res.json.warnings as string[] };
  }

  const cases = [
    { route: '/v1/raw', dpr: 1, extra: {} },
    { route: '/v1/raw', dpr: 2, extra: {} },
    { route: '/v1/capture', dpr: 1, extra: {} },
    { route: '/v1/capture', dpr: 2, extra: {} },
    { route: '/v1/capture', dpr: 1, extra: { compose_mode: 'browser' } },
  ] as const;
  for (const { route, dpr, extra } of cases) {
    it(`${route} ${JSON.stringify(extra)} at dpr ${dpr}: charts drawn and figures final`, async () => {
      const body = { viewport: { width: 800, height: 600 }, output: { format: 'png', dpr }, ...extra };
      const settled = await image(route, { url: page('charts.html?static'), ...body });
      const shot = await image(route, { url: page('charts.html'), ...body });
      expect(shot.warnings).toEqual([]);
      expect(await differingPixels(shot.bytes, settled.bytes, 32)).toBeLessThan(60);
    });
  }

  it('/v1/capture waits for the data a dashboard fetches through the egress proxy after its load', async () => {
    serveDashboardData(app.fixtures, 900);
    const body = { viewport: { width: 800, height: 600 } };
    const settled = await image('/v1/capture', { url: page('charts.html?static'), ...body });
    const shot = await image('/v1/capture', { url: page('charts.html?fetched'), ...body });
    expect(shot.warnings).toEqual([]);
    expect(await differingPixels(shot.bytes, settled.bytes, 32)).toBeLessThan(60);
  });

  it('says so when a page never settles', async () => {
    const res = await app.t.request('POST', '/v1/capture', {
      key: app.key.key,
      json: { url: page('never-settles.html'), cache_ttl: 0 },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.warnings).toEqual([expect.stringMatching(/kept animating/)]);
  });
});
