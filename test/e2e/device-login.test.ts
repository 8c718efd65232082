import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../packages/server/src/logger.ts';
import { launchTestChromium } from '../support/capture-test-kit.ts';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { startTestApp, type TestApp, uniqueName } from '../support/test-app.ts';

const BIN = path.resolve(import.meta.dirname, '../../bin/vitrine');
const PASSWORD = 'e2e password, long enough';

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A real `bin/vitrine` process; its output can be read while it runs. */
function vitrine(args: string[], env: NodeJS.ProcessEnv) {
  const child: ChildProcess = spawn(BIN, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const done = new Promise<Finished>((resolve) => {
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done, stderr: () => stderr };
}

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Issue 11's end-to-end proof: the real `vitrine login` prints a code, a user signs in and
 * approves it on /device in real Chromium, and the stored key then captures a fixture page into
 * a valid image with the real `vitrine capture`.
 */
describe('vitrine login and capture, end to end', () => {
  let t: TestApp;
  let fixtures: RunningServer;
  let browser: Browser;
  let home: string;
  const log: string[] = [];

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        log.push(chunk.toString());
        done();
      },
    });
    t = await startTestApp('sqlite', {
      env: { VITRINE_ALLOW_TARGETS: '127.0.0.2' },
      appOptions: { logger: createLogger('info', sink) },
    });
    browser = await launchTestChromium();
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-e2e-login-'));
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await fixtures?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('login through /device in Chromium, then capture a fixture page to out.png', async () => {
    const email = `${uniqueName('e2e')}@example.com`;
    await t.app.services.accounts.createUser(email, PASSWORD);
    // No VITRINE_API_KEY: the captures below must use the key that login stored.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      VITRINE_URL: t.baseUrl,
    };

    const login = vitrine(['login'], env);
    const code = await waitFor(
      'the code',
      () => /^ {4}([A-Z]{4}-[A-Z]{4})$/m.exec(login.stderr())?.[1],
      60_000,
    );
    expect(login.stderr()).toContain(`${t.baseUrl}/device`);

    const page = await browser.newPage();
    await page.goto(`${t.baseUrl}/device`);
    expect(page.url()).toContain('/login?next=');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.baseUrl}/device`);
    await page.getByLabel('Code').fill(code.toLowerCase().replace('-', ' '));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Approve this sign-in?' }).waitFor();
    expect(await page.textContent('main')).toContain('Only approve if you started this yourself');
    expect(await page.textContent('main')).toContain('127.0.0.1');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: 'Approved' }).waitFor();
    const sessionCookie = (await page.context().cookies()).find((c) => c.name === 'vitrine_session')!;
    expect(sessionCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

    const loggedIn = await login.done;
    expect(loggedIn.code, loggedIn.stderr).toBe(0);
    expect(loggedIn.stdout).toContain(`Signed in to ${t.baseUrl} as ${email}`);
    const configPath = path.join(home, '.config', 'vitrine', 'config.json');
    expect(fs.statSync(configPath).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(fs.readFileSync(configPath, 'utf8')) as { api_key: string };

    const out = path.join(home, 'out.png');
    const capture = await vitrine(
      [
        'capture',
        `${fixtures.origin}/capture/dark.html`,
        '-o',
        out,
        '--viewport',
        '800x600',
        '--padding',
        '40',
      ],
      env,
    ).done;
    expect(capture.code, capture.stderr).toBe(0);
    expect(capture.stdout.trim()).toMatch(new RegExp(`^${t.baseUrl}/cdn/r/cap_[0-9A-Z]{26}\\.png$`));
    expect(capture.stderr).toContain('Saved');
    const meta = await sharp(fs.readFileSync(out)).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 880, height: 680 });

    // Queued: --async prints the job id, jobs status --watch waits for it.
    const queued = await vitrine(
      ['capture', `${fixtures.origin}/capture/dark.html`, '--async', '--format', 'webp'],
      env,
    ).done;
    expect(queued.code, queued.stderr).toBe(0);
    const jobId = queued.stdout.trim();
    expect(jobId).toMatch(/^job_[0-9A-Z]{26}$/);
    const watched = await vitrine(['jobs', 'status', jobId, '--watch', '--json'], env).done;
    expect(watched.code, watched.stderr).toBe(0);
    expect(JSON.parse(watched.stdout)).toMatchObject({
      id: jobId,
      status: 'completed',
      result: { format: 'webp' },
    });

    const waited = path.join(home, 'waited.webp');
    const wait = await vitrine(
      ['capture', `${fixtures.origin}/capture/dark.html`, '--wait', '--format', 'webp', '-o', waited],
      env,
    ).done;
    expect(wait.code, wait.stderr).toBe(0);
    expect((await sharp(fs.readFileSync(waited)).metadata()).format).toBe('webp');

    // The account page lists the device-login key, which the capture has used.
    await page.goto(`${t.baseUrl}/account`);
    const account = await page.textContent('main');
    expect(account).toContain('by device login');
    expect(account).toContain(`Device login: vitrine CLI`);

    const logText = log.join('');
    expect(logText).toContain('/v1/device/token');
    for (const secret of [
      stored.api_key,
      PASSWORD,
      sessionCookie.value,
      sessionCookie.value.split('.')[0]!,
    ]) {
      expect(logText.includes(secret)).toBe(false);
    }
  }, 240_000);

  it('the pages refuse to be shown inside a frame of another site', async () => {
    fixtures.route('/framing.html', (_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<iframe id="f" src="${t.baseUrl}/login"></iframe>`);
    });
    const page = await browser.newPage();
    await page.goto(`${fixtures.origin}/framing.html`);
    const frame = await waitFor('the frame', () => page.frames().find((f) => f !== page.mainFrame()), 10_000);
    await frame.waitForLoadState('load').catch(() => undefined);
    expect(frame.url()).not.toBe(`${t.baseUrl}/login`);
    expect(await frame.locator('input[name="password"]').count()).toBe(0);
  }, 60_000);
});
