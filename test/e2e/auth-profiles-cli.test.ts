import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../packages/cli/src/exit-codes.ts';
import { near } from '../support/capture-test-kit.ts';
import { runVitrine } from '../support/cli-runner.ts';
import {
  COLOURS,
  type LoginFixtureApp,
  SESSION_COOKIE,
  startLoginFixtureApp,
} from '../support/login-fixture-app.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

const HOST = '127.0.0.2';

/** A virtual X display for the headed browser of `vitrine auth login` (xvfb, see scripts/install.sh). */
async function startXvfb(): Promise<{ display: string; stop(): void }> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const number = 100 + Math.floor(Math.random() * 800);
    if (fs.existsSync(`/tmp/.X11-unix/X${number}`) || fs.existsSync(`/tmp/.X${number}-lock`)) continue;
    const child: ChildProcess = spawn(
      'Xvfb',
      [`:${number}`, '-screen', '0', '1280x900x24', '-nolisten', 'tcp'],
      {
        stdio: 'ignore',
      },
    );
    const started = Date.now();
    while (Date.now() - started < 20_000) {
      if (child.exitCode !== null) break;
      if (fs.existsSync(`/tmp/.X11-unix/X${number}`)) {
        return { display: `:${number}`, stop: () => child.kill() };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill();
  }
  throw new Error('Xvfb did not start (is the xvfb package installed? make install does it as root)');
}

/** The auth profile commands of `vitrine`, and `vitrine auth login` in a real browser window. */
describe('vitrine auth-profiles and auth login', () => {
  let t: TestApp;
  let fixture: LoginFixtureApp;
  let owner: TestKey;
  let configDir: string;
  let tmp: string;
  let xvfb: Awaited<ReturnType<typeof startXvfb>>;
  const env = (extra: Record<string, string | undefined> = {}) => ({
    VITRINE_URL: t.baseUrl,
    VITRINE_API_KEY: owner.key,
    VITRINE_CONFIG_DIR: configDir,
    ...extra,
  });

  beforeAll(async () => {
    fixture = await startLoginFixtureApp();
    t = await startTestApp('sqlite', { env: { VITRINE_ALLOW_TARGETS: HOST } });
    owner = await t.createKey({ credits: 100 });
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-ap-cli-'));
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-ap-state-'));
    xvfb = await startXvfb();
  }, 60_000);
  afterAll(async () => {
    xvfb?.stop();
    await t?.close();
    await fixture?.close();
    fs.rmSync(configDir, { recursive: true, force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function capturesSignedIn(profileId: string): Promise<boolean> {
    const res = await t.request('POST', '/v1/raw', {
      key: owner.key,
      json: {
        url: fixture.url(HOST, '/dashboard'),
        auth_profile_id: profileId,
        viewport: { width: 400, height: 300 },
        cache_ttl: 0,
      },
    });
    expect(res.status, res.text).toBe(201);
    const bytes = Buffer.from(await (await fetch(res.json.url)).arrayBuffer());
    const { data } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    return near([data[0]!, data[1]!, data[2]!], COLOURS.signedIn);
  }

  it('imports a storage state, lists, shows, tests and removes it', async () => {
    const session = fixture.issueSession('Imported');
    const file = path.join(tmp, 'state.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        cookies: [
          {
            name: SESSION_COOKIE,
            value: session,
            domain: HOST,
            path: '/',
            expires: -1,
            httpOnly: true,
            secure: false,
            sameSite: 'Lax',
          },
          {
            name: 'other',
            value: 'x',
            domain: '.example.com',
            path: '/',
            expires: -1,
            httpOnly: false,
            secure: false,
            sameSite: 'Lax',
          },
        ],
        origins: [],
      }),
    );
    const imported = await runVitrine(
      ['auth-profiles', 'import', file, '--domain', HOST, '--name', 'Fixture'],
      env(),
    );
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('warning: Cookie other for .example.com dropped');
    expect(imported.stdout).not.toContain(session);
    const id = /ap_[0-9A-Z]{26}/.exec(imported.stdout)![0];

    const listed = await runVitrine(['auth-profiles', 'ls'], env());
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).toContain('Fixture');
    const shown = await runVitrine(['auth-profiles', 'get', id, '--json'], env());
    expect(JSON.parse(shown.stdout).profile).toMatchObject({ id, cookie_count: 1, status: 'active' });

    const tested = await runVitrine(
      ['auth-profiles', 'test', id, '--url', fixture.url(HOST, '/dashboard')],
      env(),
    );
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.stdout).toContain('ok: HTTP 200, 1 of 1 cookies sent');
    const failing = await runVitrine(
      ['auth-profiles', 'test', id, '--url', fixture.url(HOST, '/missing')],
      env(),
    );
    expect(failing.code).toBe(EXIT.captureFailed);

    const mismatch = await runVitrine(['auth-profiles', 'test', id, '--url', 'http://127.0.0.3/'], env());
    expect(mismatch.code).toBe(EXIT.usage);
    expect(mismatch.stderr).toContain('does not cover 127.0.0.3');

    expect((await runVitrine(['auth-profiles', 'import', file, '--domain', 'co.uk'], env())).code).toBe(
      EXIT.usage,
    );
    expect((await runVitrine(['auth-profiles', 'get', 'ap_nope'], env())).code).toBe(EXIT.usage);
    const removed = await runVitrine(['auth-profiles', 'rm', id], env());
    expect(removed.stdout).toBe(`Deleted ${id}\n`);
    expect((await runVitrine(['auth-profiles', 'get', id], env())).code).toBe(EXIT.notFound);
  }, 120_000);

  it('without a display, auth login says so and explains import', async () => {
    const res = await runVitrine(
      ['auth', 'login', '--url', fixture.url(HOST, '/login')],
      env({ DISPLAY: undefined, WAYLAND_DISPLAY: undefined }),
    );
    expect(res.code).toBe(EXIT.usage);
    expect(res.stderr).toContain('no display');
    expect(res.stderr).toContain('vitrine auth-profiles import state.json --domain');
  });

  it('auth login: the user signs in in a real browser window; the saved profile captures the signed-in page', async () => {
    const res = await runVitrine(
      [
        'auth',
        'login',
        '--url',
        fixture.url(HOST, '/login?auto=Browser%20User'),
        '--until-url',
        '**/dashboard',
        '--name',
        'From the browser',
        '--json',
      ],
      env({ DISPLAY: xvfb.display }),
    );
    expect(res.code, res.stderr).toBe(0);
    const profile = JSON.parse(res.stdout).profile;
    expect(profile).toMatchObject({ name: 'From the browser', domain: HOST });
    expect(profile.cookie_count).toBeGreaterThanOrEqual(1);
    // The browser kept the session cookie as the site set it: HttpOnly and Secure.
    const stored = await t.app.services.authProfiles.loadForRun(owner.userId, { id: profile.id, version: 1 });
    expect(stored.state.cookies.find((c) => c.name === SESSION_COOKIE)).toMatchObject({
      httpOnly: true,
      secure: true,
    });
    // The form post went through the browser: the fixture saw the cookie it set come back.
    expect(fixture.sightings.some((s) => s.path === '/dashboard' && s.cookie?.includes(SESSION_COOKIE))).toBe(
      true,
    );
    expect(await capturesSignedIn(profile.id)).toBe(true);
  }, 120_000);
});
