import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

describe('the font catalogue over HTTP (issue 34)', () => {
  let t: TestApp;
  let fixtures: RunningServer;
  let owner: TestKey;
  beforeAll(async () => {
    fixtures = await startFixtureServer();
    t = await startTestApp('sqlite', { env: { VITRINE_ALLOW_TARGETS: '127.0.0.2' } });
    owner = await t.createKey({ credits: 100 });
  });
  afterAll(async () => {
    await t.close();
    await fixtures.close();
  });

  it('lists at least 40 families with their weights, publicly', async () => {
    const res = await t.request('GET', '/v1/fonts');
    expect(res.status, res.text).toBe(200);
    const families = res.json.fonts.map((f: { family: string }) => f.family);
    expect(families.length).toBeGreaterThanOrEqual(40);
    expect(families).toEqual(
      expect.arrayContaining(['Inter', 'Poppins', 'Montserrat', 'Roboto', 'Open Sans']),
    );
    expect(new Set(families).size).toBe(families.length);
    expect(res.json.fonts.find((f: { family: string }) => f.family === 'Playfair Display')).toMatchObject({
      genre: 'serif',
      weights: expect.arrayContaining([400, 700]),
      license: 'OFL-1.1',
      package: '@fontsource/playfair-display',
    });
    expect(res.json.generic['sans-serif']).toBe('Inter');
  });

  it('refuses an unknown family with a 400 that lists the catalogue', async () => {
    const res = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { url: `${fixtures.origin}/capture/simple.html`, title: 'Hi', title_font: 'Comic Sans' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(
      /^Invalid title_font\. Unknown font\. Must be one of: Inter, Lora, .*Poppins.*Space Grotesk/,
    );
  });

  it.each(['satori', 'browser'])(
    'draws catalogue families in compose mode %s without warnings',
    async (mode) => {
      const res = await t.request('POST', '/v1/capture', {
        key: owner.key,
        json: {
          url: `${fixtures.origin}/capture/simple.html`,
          viewport: { width: 800, height: 600 },
          compose_mode: mode,
          title: 'Poppins title',
          title_font: 'poppins',
          subtitle: 'Subtitle in Space Grotesk',
          subtitle_font: 'Space Grotesk',
          text_enabled: true,
          text_content: 'Overlay in IBM Plex Mono',
          text_font: 'IBM Plex Mono',
        },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.json.warnings).toEqual([]);
    },
  );
});
