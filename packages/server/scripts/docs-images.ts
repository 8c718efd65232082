/**
 * `make docs` renders the README's pictures from the code as it is: a small gallery of what
 * Vitrine produces (from the fixture pages) and screenshots of the playground, light and dark,
 * desktop and tablet. Everything runs locally: a test server on loopback, the fixture server,
 * Debian's Chromium.
 *
 *   node packages/server/scripts/docs-images.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startFixtureServer } from '../../../test/support/fixture-server.ts';
import { ensurePlaygroundBuilt } from '../../../test/support/playground-build.ts';
import { startTestApp, uniqueName } from '../../../test/support/test-app.ts';

const IMAGES = path.resolve(import.meta.dirname, '../../../docs/images');
const PASSWORD = 'docs images password';

ensurePlaygroundBuilt();
fs.mkdirSync(IMAGES, { recursive: true });
const fixtures = await startFixtureServer();
const t = await startTestApp('sqlite', { env: { VITRINE_ALLOW_TARGETS: '127.0.0.2' } });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const email = `${uniqueName('docs')}@example.com`;
  const user = await t.app.services.accounts.createUser(email, PASSWORD);
  await t.app.services.projects.ensureDefault(user.id);
  const { key } = await t.createKey({ email, credits: 1000 });
  // Real-looking pages (the AI fixtures: a product's dashboard, landing and pricing pages).
  const page = `${fixtures.origin}/ai/dashboard.html`;
  const landing = `${fixtures.origin}/ai/landing.html`;
  const pricing = `${fixtures.origin}/ai/pricing.html`;
  const hosted = (await t.request('GET', '/v1/backgrounds?limit=50')).json as {
    backgrounds: { background: string | null; theme: string | null }[];
  };
  const background = hosted.backgrounds.find((b) => b.background && b.theme === 'dark')?.background;

  const gallery: [string, Record<string, unknown>][] = [
    ['device-frame', { device: 'macbook-pro-16', background_preset: 'aurora' }],
    [
      'camera-depth-blur',
      { camera_preset: 'hero', depth_blur: 6, depth_blur_type: 'tilt', background_preset: 'ember' },
    ],
    [
      'title-card',
      {
        title: 'Ship faster',
        subtitle: 'Screenshots that look designed',
        badge: 'New',
        background_preset: 'ocean',
      },
    ],
    ['hosted-background', { ...(background ? { background } : {}), shadow: 'float', corner_radius: 16 }],
    // Scenes (issue 38): several shots in one image.
    [
      'scene-overlap',
      {
        title: 'Your numbers, on every screen',
        background_preset: 'midnight',
        shots: [
          { device: 'macbook-pro-16', viewport: { width: 1440, height: 900 } },
          { url: landing, device: 'iphone-16-pro' },
        ],
        scene: { layout: 'overlap' },
        output: undefined,
        canvas: 'og',
        viewport: undefined,
      },
    ],
    [
      'scene-fan',
      {
        title: 'Three screens, one flow',
        background_preset: 'sunset',
        shots: [
          { url: landing, device: 'iphone-16-pro' },
          { url: landing, device: 'iphone-16-pro', dark_mode: true, device_color: 'black-titanium' },
          { url: pricing, device: 'iphone-16-pro', device_color: 'desert-titanium' },
        ],
        scene: { layout: 'fan' },
        output: undefined,
        canvas: 'instagram-square',
        viewport: undefined,
      },
    ],
    [
      'scene-side-by-side',
      {
        title: 'The site and the app',
        background_preset: 'arctic',
        shots: [
          { url: landing, device: 'browser-macos' },
          { url: page, device: 'browser-macos', device_color: 'dark' },
        ],
        scene: { layout: 'side-by-side', spacing: 40 },
      },
    ],
    [
      'scene-camera',
      {
        title: 'Seen together',
        background_preset: 'dusk',
        perspective: 'tilt-left',
        depth_blur: 16,
        depth_blur_type: 'lens',
        depth_blur_position: 0.85,
        shots: [
          { device: 'macbook-air-13', viewport: { width: 1470, height: 956 } },
          { url: landing, device: 'pixel-9' },
        ],
        scene: { layout: 'overlap' },
        output: undefined,
        canvas: 'twitter',
        viewport: undefined,
      },
    ],
  ];
  for (const [name, look] of gallery) {
    const res = await t.request('POST', '/v1/capture', {
      key,
      json: {
        url: page,
        viewport: { width: 1280, height: 800 },
        output: { width: 960 },
        cache_ttl: 0,
        ...look,
      },
    });
    if (res.status !== 201) throw new Error(`${name}: ${res.status} ${res.text}`);
    const image = Buffer.from(await (await fetch(res.json.url as string)).arrayBuffer());
    fs.writeFileSync(path.join(IMAGES, `gallery-${name}.png`), image);
    console.log(`docs/images/gallery-${name}.png`);
  }

  for (const scheme of ['light', 'dark'] as const) {
    for (const [form, viewport] of [
      ['desktop', { width: 1440, height: 900 }],
      ['tablet', { width: 820, height: 1180 }],
    ] as const) {
      const context = await browser.newContext({
        viewport,
        colorScheme: scheme,
        hasTouch: form === 'tablet',
      });
      const tab = await context.newPage();
      await tab.goto(`${t.baseUrl}/login?next=${encodeURIComponent(`/playground?url=${page}`)}`);
      await tab.getByLabel('Email').fill(email);
      await tab.getByLabel('Password').fill(PASSWORD);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.waitForURL(/\/playground/);
      await tab.getByRole('radio', { name: 'iphone-16-pro' }).check();
      await tab.locator('.status', { hasText: 'Rendered' }).waitFor({ timeout: 120_000 });
      await tab.locator('.thumb img').first().waitFor({ timeout: 30_000 });
      await tab.evaluate(() => window.scrollTo(0, 0));
      await tab.waitForTimeout(500);
      const file = path.join(IMAGES, `playground-${form}-${scheme}.png`);
      await tab.screenshot({ path: file });
      console.log(`docs/images/${path.basename(file)}`);
      await context.close();
    }
  }
} finally {
  await browser.close();
  await t.close();
  await fixtures.close();
}
