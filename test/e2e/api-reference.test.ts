import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchTestChromium } from '../support/capture-test-kit.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Issue 16 item 6: /docs is Scalar's reference, served entirely by this service, and its
 * "try it" client calls this server.
 */
describe('/docs in real Chromium', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    browser = await launchTestChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders with no request leaving the service; "try it" works for GET /v1/backgrounds and, with an API key, GET /v1/projects', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const offsite: string[] = [];
    const blocked: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(t.baseUrl) && !url.startsWith('data:') && !url.startsWith('blob:'))
        offsite.push(url);
    });
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) blocked.push(message.text());
      if (process.env.PG_DEBUG) console.log('console:', message.text());
    });
    await page.goto(`${t.baseUrl}/docs`);
    await page.getByRole('heading', { name: 'Vitrine API' }).first().waitFor({ timeout: 60_000 });
    // The introduction links to the playground; the playground links fields to the model entry.
    await page.getByRole('link', { name: 'playground' }).first().waitFor();
    await page.goto(`${t.baseUrl}/docs#tag/backgrounds/GET/v1/backgrounds`);
    await page.getByRole('button', { name: /Test Request.*get \/v1\/backgrounds\)/ }).click();
    const answered = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/v1/backgrounds' && r.request().method() === 'GET',
      { timeout: 60_000 },
    );
    await page.getByRole('button', { name: /^Send/ }).first().click();
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(new URL(response.url()).origin).toBe(t.baseUrl);
    // A public route: the reference sends no key (its operation says `security: []`).
    expect(response.request().headers().authorization).toBeUndefined();

    // A keyed route: the reader's API key goes in the client's bearer field.
    const key = await t.createKey();
    const keyed = await context.newPage();
    await keyed.goto(`${t.baseUrl}/docs#tag/projects/GET/v1/projects`);
    await keyed.getByRole('heading', { name: 'Vitrine API' }).first().waitFor({ timeout: 60_000 });
    await keyed.getByRole('button', { name: /Test Request.*get \/v1\/projects\)/ }).click();
    // Its collapsed Authentication section (the last one on the page: the client modal's).
    await keyed.getByText('Authentication', { exact: true }).last().click();
    await keyed.getByPlaceholder('Token').first().fill(key.key);
    const listed = keyed.waitForResponse(
      (r) => new URL(r.url()).pathname === '/v1/projects' && r.request().method() === 'GET',
      { timeout: 60_000 },
    );
    await keyed.getByRole('button', { name: /^Send/ }).first().click();
    const projects = await listed;
    expect(projects.request().headers().authorization).toBe(`Bearer ${key.key}`);
    expect(projects.status()).toBe(200);

    const model = await context.newPage();
    // The playground's field links point at the capture body's model entry.
    await model.goto(`${t.baseUrl}/docs#models/CaptureRequestInput`);
    await model.locator('[id$="models/CaptureRequestInput"]').first().waitFor({ timeout: 30_000 });
    await expect
      .poll(() => model.getByText('background_preset').first().isVisible(), { timeout: 30_000 })
      .toBe(true);
    expect(offsite).toEqual([]);
    expect(blocked).toEqual([]);
    await context.close();
  }, 180_000);
});
