import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchTestChromium } from '../support/capture-test-kit.ts';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { ensurePlaygroundBuilt } from '../support/playground-build.ts';
import { startTestApp, type TestApp, type TestKey, uniqueName } from '../support/test-app.ts';

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../../bin/vitrine');
const PASSWORD = 'playground password, long enough';

/** Pixels of an encoded image, with its size: equal pixels mean the same picture. */
async function pixels(image: Buffer): Promise<{ width: number; height: number; data: Buffer }> {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

async function snippetOf(page: Page, tab: string, ready: (text: string) => boolean): Promise<string> {
  await page.getByRole('tab', { name: tab }).click();
  const deadline = Date.now() + 30_000;
  for (;;) {
    const text = (await page.locator('#snippet').textContent()) ?? '';
    if (ready(text)) return text;
    if (Date.now() > deadline) throw new Error(`The ${tab} snippet never became ready: ${text}`);
    await page.waitForTimeout(100);
  }
}

/**
 * Issue 16 end to end in real Chromium: a signed-in user shapes a capture of a fixture page in
 * /playground; a control changes the request and the preview; the copied curl command, CLI
 * command and signed URL each produce the very picture the preview shows.
 */
describe('the playground, end to end', () => {
  let t: TestApp;
  let fixtures: RunningServer;
  let browser: Browser;
  let key: TestKey;
  let work: string;

  beforeAll(async () => {
    ensurePlaygroundBuilt();
    fixtures = await startFixtureServer();
    t = await startTestApp('sqlite', { env: { VITRINE_ALLOW_TARGETS: '127.0.0.2' } });
    const email = `${uniqueName('pg')}@example.com`;
    const user = await t.app.services.accounts.createUser(email, PASSWORD);
    await t.app.services.projects.ensureDefault(user.id);
    key = await t.createKey({ email });
    browser = await launchTestChromium();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-playground-'));
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await fixtures?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('needs a signed-in user', async () => {
    const res = await t.request('GET', '/playground');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login?next=%2Fplayground');
    const preview = await t.request('POST', '/playground/api/preview', {
      json: { capture: { url: 'https://example.com' } },
    });
    expect(preview.status).toBeGreaterThanOrEqual(401);
  });

  it('a control changes the request and the preview; curl, CLI and signed URL reproduce it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const previews: Record<string, unknown>[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/playground/api/preview')) {
        previews.push(
          (JSON.parse(request.postData() ?? '{}') as { capture: Record<string, unknown> }).capture,
        );
      }
    });
    page.on('response', async (response) => {
      if (process.env.PG_DEBUG && response.url().endsWith('/playground/api/preview')) {
        console.log('preview', response.status(), response.ok() ? '' : await response.text().catch(() => ''));
      }
    });
    /** The bytes of the image the preview shows (its blob: URL, read in the page). */
    const previewBytes = async (): Promise<Buffer> => {
      const base64 = await page.evaluate(async () => {
        const img = document.querySelector<HTMLImageElement>('#preview');
        if (!img) return '';
        const bytes = new Uint8Array(await (await fetch(img.src)).arrayBuffer());
        let binary = '';
        for (const b of bytes) binary += String.fromCharCode(b);
        return btoa(binary);
      });
      return Buffer.from(base64, 'base64');
    };
    const offsite: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(t.baseUrl) && !request.url().startsWith('blob:'))
        offsite.push(request.url());
    });

    await page.goto(`${t.baseUrl}/playground`);
    expect(page.url()).toContain('/login?next=');
    await page.getByLabel('Email').fill(key.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.baseUrl}/playground`);

    const target = `${fixtures.origin}/capture/dark.html`;
    page.on('console', (m) => process.env.PG_DEBUG && console.log('console:', m.text()));
    page.on('pageerror', (e) => process.env.PG_DEBUG && console.log('page error:', e.message));
    for (const group of ['Target and browser', 'Geometry, border and shadow']) {
      await page.locator('summary', { hasText: group }).click();
    }
    await page.getByLabel('Page URL').fill(target);
    await page.getByLabel('Page URL').press('Tab');
    // The viewport is small so the renders stay quick on a loaded machine.
    await page.getByLabel('width', { exact: true }).fill('800');
    await page.getByLabel('width', { exact: true }).press('Tab');
    await page.getByLabel('height', { exact: true }).fill('600');
    await page.getByLabel('height', { exact: true }).press('Tab');
    await expect
      .poll(() => previews.at(-1), { timeout: 60_000 })
      .toEqual({
        url: target,
        viewport: { width: 800, height: 600 },
      });
    await page.locator('.status', { hasText: 'Rendered' }).waitFor({ timeout: 60_000 });
    const before = await previewBytes();

    // A chip changes the request (only non-default fields) and the preview.
    await page.getByRole('radio', { name: 'hard', exact: true }).check();
    await page.getByLabel('padding value').fill('24');
    await page.getByLabel('padding value').press('Tab');
    const expected = { url: target, viewport: { width: 800, height: 600 }, shadow: 'hard', padding: 24 };
    await expect.poll(() => previews.at(-1), { timeout: 60_000 }).toEqual(expected);
    await expect
      .poll(async () => (await pixels(await previewBytes())).width, { timeout: 60_000 })
      .toBe(800 + 2 * 24);
    const after = await previewBytes();
    expect(after.equals(before)).toBe(false);
    const shown = await pixels(after);

    // curl (POST JSON), run by a real shell with a real key; its answer's URL is the image.
    const curl = await snippetOf(page, 'curl', (text) => text.startsWith('curl'));
    expect(curl).toContain('"shadow":"hard"');
    expect(curl).not.toContain('"format"');
    const curlOut = await run('bash', ['-c', curl], {
      env: { PATH: process.env.PATH, VITRINE_API_KEY: key.key },
      timeout: 120_000,
    });
    const curlResult = JSON.parse(curlOut.stdout) as { url: string };
    const curlImage = Buffer.from(await (await fetch(curlResult.url)).arrayBuffer());
    expect(await pixels(curlImage)).toEqual(shown);

    // The CLI command, run as written (with bin/vitrine as `vitrine`).
    const cli = await snippetOf(page, 'vitrine CLI', (text) => text.startsWith('vitrine capture'));
    expect(cli).toContain('--shadow hard');
    expect(cli).toContain('--padding 24');
    expect(cli).toContain('--viewport 800x600');
    const binDir = path.join(work, 'bin');
    fs.mkdirSync(binDir, { recursive: true });
    fs.symlinkSync(BIN, path.join(binDir, 'vitrine'));
    const cliRun = await run('bash', ['-c', cli], {
      cwd: work,
      env: {
        PATH: `${binDir}:${process.env.PATH}`,
        HOME: work,
        XDG_CONFIG_HOME: path.join(work, '.config'),
        VITRINE_URL: t.baseUrl,
        VITRINE_API_KEY: key.key,
      },
      timeout: 120_000,
    });
    expect(cliRun.stderr).toContain('Saved');
    expect(await pixels(fs.readFileSync(path.join(work, 'capture.png')))).toEqual(shown);

    // The signed URL, minted by the server for the chosen project, works as an <img> source.
    const signed = await snippetOf(page, 'Signed URL', (text) => text.startsWith('http'));
    expect(signed).toContain('project_id=prj_');
    expect(signed).toContain('signature=');
    const signedResponse = await fetch(signed);
    expect(signedResponse.status).toBe(200);
    expect(signedResponse.headers.get('content-type')).toBe('image/png');
    expect(await pixels(Buffer.from(await signedResponse.arrayBuffer()))).toEqual(shown);

    // JSON body and fetch snippet carry the same minimal body.
    expect(JSON.parse(await snippetOf(page, 'JSON body', (text) => text.startsWith('{')))).toEqual(expected);
    expect(await snippetOf(page, 'JS fetch', (text) => text.includes('fetch('))).toContain('"padding": 24');

    // A newer change cancels the preview in flight (the first is held back by the test).
    const failed: string[] = [];
    page.on('requestfailed', (request) => {
      if (request.url().endsWith('/playground/api/preview')) failed.push(request.failure()?.errorText ?? '');
    });
    let held = 0;
    await page.route('**/playground/api/preview', async (route) => {
      held += 1;
      if (held === 1) await new Promise((resolve) => setTimeout(resolve, 5000));
      await route.continue().catch(() => undefined);
    });
    const firstSent = page.waitForRequest((r) => r.url().endsWith('/playground/api/preview'));
    await page.getByLabel('padding value').fill('30');
    await page.getByLabel('padding value').press('Tab');
    await firstSent;
    await page.getByLabel('padding value').fill('32');
    await page.getByLabel('padding value').press('Tab');
    await expect.poll(() => failed, { timeout: 30_000 }).toContainEqual(expect.stringContaining('ABORTED'));
    await expect.poll(() => previews.at(-1)?.padding, { timeout: 30_000 }).toBe(32);
    await page.unroute('**/playground/api/preview');

    // A video: the Motion group's type chip and bounds; the preview plays in a <video>, and the
    // copied CLI command asks for it with --motion flags.
    await page.locator('summary', { hasText: 'Motion (video)' }).click();
    const motionGroup = page.locator('details', {
      has: page.locator('summary', { hasText: 'Motion (video)' }),
    });
    await motionGroup.getByLabel('duration value').fill('1');
    await motionGroup.getByLabel('duration value').press('Tab');
    await motionGroup.getByLabel('fps value').fill('4');
    await motionGroup.getByLabel('fps value').press('Tab');
    await motionGroup.getByRole('radio', { name: 'float', exact: true }).check();
    await expect
      .poll(() => previews.at(-1)?.motion, { timeout: 60_000 })
      .toEqual({ type: 'float', duration: 1, fps: 4 });
    await page.locator('video#preview').waitFor({ timeout: 120_000 });
    const videoType = await page.evaluate(async () => {
      const video = document.querySelector<HTMLVideoElement>('video#preview');
      return video ? (await (await fetch(video.src)).blob()).type : '';
    });
    expect(videoType).toBe('video/mp4');
    const videoCli = await snippetOf(page, 'vitrine CLI', (text) => text.startsWith('vitrine capture'));
    for (const flag of ['--motion float', '--motion-duration 1', '--motion-fps 4'])
      expect(videoCli).toContain(flag);
    expect(videoCli).toContain('-o capture.mp4');

    expect(offsite).toEqual([]);
    await context.close();
  }, 300_000);

  it('adds a shot, picks a scene layout and a canvas preset; the preview is the scene, and the CLI command asks for it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const previews: Record<string, unknown>[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/playground/api/preview')) {
        previews.push(
          (JSON.parse(request.postData() ?? '{}') as { capture: Record<string, unknown> }).capture,
        );
      }
    });
    await page.goto(`${t.baseUrl}/playground`);
    await page.getByLabel('Email').fill(key.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.baseUrl}/playground`);

    const target = `${fixtures.origin}/capture/simple.html?playground-scene`;
    await page.getByLabel('Page URL').fill(target);
    await page.getByLabel('Page URL').press('Tab');
    await page.locator('summary', { hasText: 'Scene (several shots)' }).click();
    await page.getByRole('button', { name: 'Add a shot' }).click();
    await page.getByLabel('shot 1 device').selectOption('browser-macos');
    await page.getByRole('radio', { name: 'overlap', exact: true }).check();
    await page.locator('summary', { hasText: 'Geometry, border and shadow' }).click();
    await page.getByLabel('canvas').selectOption('og');
    const expected = {
      url: target,
      canvas: 'og',
      shots: [{ device: 'browser-macos' }, { device: 'iphone-16-pro' }],
      scene: { layout: 'overlap' },
    };
    await expect.poll(() => previews.at(-1), { timeout: 60_000 }).toEqual(expected);
    await expect
      .poll(
        async () => {
          const base64 = await page.evaluate(async () => {
            const img = document.querySelector<HTMLImageElement>('#preview');
            if (!img?.src.startsWith('blob:')) return '';
            const bytes = new Uint8Array(await (await fetch(img.src)).arrayBuffer());
            let binary = '';
            for (const b of bytes) binary += String.fromCharCode(b);
            return btoa(binary);
          });
          if (!base64) return null;
          const { width, height } = await pixels(Buffer.from(base64, 'base64'));
          return [width, height];
        },
        { timeout: 120_000 },
      )
      .toEqual([1200, 630]);
    const cli = await snippetOf(page, 'vitrine CLI', (text) => text.startsWith('vitrine capture'));
    expect(cli).toContain(`--shot '{"device":"browser-macos"}'`);
    expect(cli).toContain('--scene-layout overlap');
    expect(cli).toContain('--canvas og');
    // Removing a shot leaves one: back to a single capture, without the scene's arrangement.
    await page.getByRole('button', { name: 'Remove shot 2' }).click();
    await expect.poll(() => previews.at(-1), { timeout: 60_000 }).toEqual({ url: target, canvas: 'og' });
    await context.close();
  }, 300_000);
});
