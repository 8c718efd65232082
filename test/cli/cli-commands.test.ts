import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFile, writeStoredConfig } from '../../packages/cli/src/config-store.ts';
import { EXIT } from '../../packages/cli/src/exit-codes.ts';
import { runVitrine, startVitrine } from '../support/cli-runner.ts';
import { startTestApp, type TestApp, type TestKey, uniqueName } from '../support/test-app.ts';
import { createWebClient } from '../support/web-client.ts';

/** The client's commands against a real server (captures that render live in test/e2e). */
describe('vitrine commands against a real server', () => {
  let t: TestApp;
  let owner: TestKey;
  let configDir: string;
  const env = (extra: Record<string, string | undefined> = {}) => ({
    VITRINE_URL: t.baseUrl,
    VITRINE_API_KEY: owner.key,
    VITRINE_CONFIG_DIR: configDir,
    ...extra,
  });

  beforeAll(async () => {
    t = await startTestApp('sqlite', { env: { VITRINE_ALLOW_TARGETS: '127.0.0.2' } });
    owner = await t.createKey();
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-cli-cmd-'));
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(configDir, { recursive: true, force: true });
  });

  it('status shows the server, account, credits and key; without a key it exits 3', async () => {
    const status = await runVitrine(['status'], env());
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`Server:   ${t.baseUrl}`);
    expect(status.stdout).toContain(owner.email);
    expect(status.stdout).toContain('1000 left of 1000 a month');
    expect(status.stdout).toContain('from VITRINE_API_KEY');
    expect(status.stdout).not.toContain(owner.key);
    const json = JSON.parse((await runVitrine(['status', '--json'], env())).stdout);
    expect(json).toMatchObject({ server: t.baseUrl, signed_in: true, user: { email: owner.email } });

    const anonymous = await runVitrine(['status'], env({ VITRINE_API_KEY: undefined }));
    expect(anonymous.code).toBe(EXIT.unauthorized);
    expect(anonymous.stderr).toBe(
      `vitrine: Not signed in to ${t.baseUrl}: run \`vitrine login\`, or set VITRINE_API_KEY\n`,
    );
  });

  it('maps failures to documented exit codes with the service message and no stack trace', async () => {
    const unknownKey = await runVitrine(['usage'], env({ VITRINE_API_KEY: 'vt_live_not-a-real-key' }));
    expect(unknownKey.code).toBe(EXIT.unauthorized);
    expect(unknownKey.stderr).toBe('vitrine: Malformed API key\n');
    const unreachable = await runVitrine(['usage'], env({ VITRINE_URL: 'http://127.0.0.1:1' }));
    expect(unreachable.code).toBe(EXIT.unreachable);
    expect(unreachable.stderr).toContain('Cannot reach the Vitrine server at http://127.0.0.1:1');
    const badFlag = await runVitrine(['capture', 'https://example.com', '--teleport'], env());
    expect(badFlag.code).toBe(EXIT.usage);
    expect(badFlag.stderr).toContain("unknown option '--teleport'");
    const badValue = await runVitrine(['capture', 'https://example.com', '--padding', 'wide'], env());
    expect(badValue).toMatchObject({
      code: EXIT.usage,
      stderr: 'vitrine: Invalid --padding: expected a number, got "wide"\n',
    });
    const badJob = await runVitrine(['jobs', 'status', 'job_1'], env());
    expect(badJob.code).toBe(EXIT.usage);
    const noJob = await runVitrine(['jobs', 'status', `job_${'0'.repeat(26)}`], env());
    expect(noJob.code).toBe(EXIT.notFound);
    const refused = await runVitrine(['capture', 'http://169.254.169.254/latest/meta-data/'], env());
    expect(refused.code).toBe(EXIT.targetNotAllowed);
    expect(refused.stderr).toMatch(/^vitrine: .+\n$/);
    const broke = await t.createKey({ credits: 0 });
    const poor = await runVitrine(['capture', 'http://127.0.0.2:9/'], env({ VITRINE_API_KEY: broke.key }));
    expect(poor.code).toBe(EXIT.insufficientCredits);
    expect(poor.stderr).toContain('credits');
    for (const run of [unknownKey, unreachable, badValue, noJob, refused, poor])
      expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('raw renders an --html-file with --css-file, --actions and --metadata into an AVIF file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-cli-html-'));
    // Its own account: the other tests count the owner's credits.
    const own = env({ VITRINE_API_KEY: (await t.createKey()).key });
    try {
      const htmlFile = path.join(dir, 'card.html');
      fs.writeFileSync(
        htmlFile,
        '<!doctype html><title>before</title><button id="b" onclick="document.title=\'clicked\'">Go</button>',
      );
      const cssFile = path.join(dir, 'card.css');
      fs.writeFileSync(cssFile, 'body { margin: 0; background: rgb(13, 148, 136); }');
      const out = path.join(dir, 'card.avif');
      const run = await runVitrine(
        [
          'raw',
          '--html-file',
          htmlFile,
          '--css-file',
          cssFile,
          '--actions',
          '{"type":"click","selector":"#b"}',
          '--metadata',
          '--viewport',
          '400x300',
          '--format',
          'avif',
          '--json',
          '-o',
          out,
        ],
        own,
      );
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({
        format: 'avif',
        width: 400,
        height: 300,
        metadata: { title: 'clicked' },
      });
      const meta = await sharp(fs.readFileSync(out)).metadata();
      expect(meta).toMatchObject({ format: 'heif', compression: 'av1', width: 400, height: 300 });

      const nothing = await runVitrine(['raw', '--metadata'], own);
      expect(nothing.code).toBe(EXIT.usage);
      expect(nothing.stderr).toBe('vitrine: Give the page to capture: a URL, or --html / --html-file\n');
      const badStep = await runVitrine(['raw', '--html', '<p>x</p>', '--actions', 'click'], own);
      expect(badStep.code).toBe(EXIT.usage);
      expect(badStep.stderr).toContain('Invalid --actions: expected a JSON object');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('projects: create (secret once on stdout), ls, get, default, rotate-secret, secret, conflict and not found', async () => {
    const created = await runVitrine(
      ['projects', 'create', '--name', 'Docs', '--domain', 'docs.example.com', '--no-brand'],
      env(),
    );
    expect(created.code).toBe(0);
    const id = /Project:\s+(prj_[0-9A-Z]{26})/.exec(created.stdout)![1]!;
    expect(created.stdout).toMatch(/^vss_[A-Za-z0-9_-]{43}$/m);
    expect(created.stdout).toContain('Brand:    none');

    const listed = await runVitrine(['projects', 'ls'], env());
    expect(listed.stdout).toMatch(new RegExp(`${id}\\s+Docs\\s+docs\\.example\\.com`));
    expect((await runVitrine(['projects', 'default', id], env())).stdout).toContain(
      `${id} is now the default project`,
    );
    const got = JSON.parse((await runVitrine(['projects', 'get', id, '--json'], env())).stdout);
    expect(got.project).toMatchObject({ id, is_default: true });
    const rotated = await runVitrine(['projects', 'rotate-secret', id], env());
    expect(rotated.stdout).toMatch(/^vss_/);
    expect(rotated.stderr).toContain('the previous one works until');
    const secret = await runVitrine(['projects', 'secret', id], env());
    expect(secret.stdout.trim()).toBe(rotated.stdout.trim());
    const webhookSecret = await runVitrine(['projects', 'secret', id, '--webhook'], env());
    expect(webhookSecret.stdout.trim()).toBe(
      `whsec_${Buffer.from(rotated.stdout.trim(), 'utf8').toString('base64')}`,
    );

    const duplicate = await runVitrine(['projects', 'create', '--domain', 'docs.example.com'], env());
    expect(duplicate.code).toBe(EXIT.conflict);
    expect((await runVitrine(['projects', 'get', `prj_${'0'.repeat(26)}`], env())).code).toBe(EXIT.notFound);
    expect((await runVitrine(['projects', 'get', 'nope'], env())).code).toBe(EXIT.usage);
  });

  it('keys: ls, create with fewer scopes (printed once), revoke; a key without the scope exits 4', async () => {
    const created = await runVitrine(['keys', 'create', '--label', 'ci', '--scopes', 'capture,usage'], env());
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^vt_live_/);
    const id = /Created (key_[0-9A-Z]{26})/.exec(created.stderr)![1]!;
    const listed = await runVitrine(['keys', 'ls'], env());
    expect(listed.stdout).toMatch(new RegExp(`${id}.+ci\\s+capture,usage.+active`));
    expect(listed.stdout).not.toContain(key);

    const narrow = await runVitrine(['keys', 'ls'], env({ VITRINE_API_KEY: key }));
    expect(narrow.code).toBe(EXIT.forbidden);
    expect(narrow.stderr).toContain('lacks the "keys" scope');
    expect((await runVitrine(['keys', 'create', '--scopes', 'teleport'], env())).code).toBe(EXIT.usage);

    expect((await runVitrine(['keys', 'revoke', id], env())).stdout).toContain(`Revoked ${id}`);
    expect((await runVitrine(['usage'], env({ VITRINE_API_KEY: key }))).code).toBe(EXIT.unauthorized);
  });

  it('usage and backgrounds ls print tables (or JSON)', async () => {
    const usage = await runVitrine(['usage'], env());
    expect(usage.stdout).toContain('Credits: 1000 left of 1000 a month');
    expect(JSON.parse((await runVitrine(['usage', '--json'], env())).stdout)).toMatchObject({
      credits_monthly: 1000,
    });

    const backgrounds = await runVitrine(
      ['backgrounds', 'ls', '--theme', 'dark', '--limit', '5'],
      env({ VITRINE_API_KEY: undefined }),
    );
    expect(backgrounds.code).toBe(0);
    expect(backgrounds.stdout).toContain('Gradient presets (background_preset): aurora, sunset');
    expect(backgrounds.stdout).toMatch(/^BACKGROUND\s+NAME\s+THEME\s+PACK$/m);
    expect(backgrounds.stdout.match(/\sdark\s/g)?.length).toBe(5);
    const json = JSON.parse(
      (await runVitrine(['backgrounds', 'ls', '--q', 'glass', '--json'], env())).stdout,
    );
    expect(json.backgrounds.length).toBeGreaterThan(0);
    expect((await runVitrine(['backgrounds', 'ls', '--theme', 'purple'], env())).code).toBe(EXIT.usage);
  });

  it('sign mints a URL the server verifies; a tampered one is refused', async () => {
    const project = await t.request('POST', '/v1/projects', { key: owner.key, json: { name: 'signer' } });
    const { id } = project.json.project;
    const secret = project.json.signing_secret;
    // An invalid device makes the request fail after the signature check, so no page is rendered.
    const signed = await runVitrine(
      ['sign', 'url=https://example.com', 'device=toaster', '--project', id, '--expires', '10m'],
      env({ VITRINE_API_KEY: undefined, VITRINE_SIGNING_SECRET: secret }),
    );
    expect(signed.code).toBe(0);
    const url = signed.stdout.trim();
    expect(url.startsWith(`${t.baseUrl}/v1/capture?`)).toBe(true);
    const accepted = await fetch(url);
    expect(accepted.status).toBe(400);
    expect(((await accepted.json()) as { error: { message: string } }).error.message).toContain(
      'Invalid device',
    );
    const tampered = await fetch(url.replace('device=toaster', 'device=iphone-16-pro'));
    expect(tampered.status).toBe(401);
    const noSecret = await runVitrine(['sign', 'url=https://example.com', '--project', id], env());
    expect(noSecret).toMatchObject({ code: EXIT.usage });
  });

  it('login stores the key (0600) after approval; logout revokes it and deletes the file; denial exits 11', async () => {
    const email = `${uniqueName('cli')}@example.com`;
    await t.app.services.accounts.createUser(email, 'a long enough password');
    const web = createWebClient(t.baseUrl);
    await web.signIn(email, 'a long enough password');
    const ownEnv = { VITRINE_URL: t.baseUrl, VITRINE_CONFIG_DIR: path.join(configDir, uniqueName('login')) };

    const approveFrom = async (run: ReturnType<typeof startVitrine>, decision: 'approve' | 'deny') => {
      let code: string | undefined;
      for (let i = 0; i < 200 && !code; i++) {
        code = /^ {4}([A-Z]{4}-[A-Z]{4})$/m.exec(run.stderr())?.[1];
        if (!code) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(code, run.stderr()).toBeDefined();
      const entry = await web.get(`/device?code=${code}`);
      const confirm = await web.post('/device', { code: code!, _csrf: web.csrfOf(entry) });
      expect(confirm.text).toContain('vitrine CLI 0.0.0-test');
      await web.post('/device/decision', { code: code!, decision, _csrf: web.csrfOf(confirm) });
    };

    const login = startVitrine(['login', '--no-browser'], ownEnv);
    await approveFrom(login, 'approve');
    const done = await login.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(`Signed in to ${t.baseUrl} as ${email}`);
    const file = configFile(ownEnv);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(stored).toMatchObject({ url: t.baseUrl, api_key: expect.stringMatching(/^vt_live_/) });
    expect((await runVitrine(['status'], ownEnv)).stdout).toContain(`from ${file}`);

    const logout = await runVitrine(['logout'], ownEnv);
    expect(logout.stdout).toContain(`Revoked key ${stored.key_id}`);
    expect(fs.existsSync(file)).toBe(false);
    expect((await t.request('GET', '/v1/account', { key: stored.api_key })).status).toBe(401);

    const denied = startVitrine(['login', '--no-browser'], ownEnv);
    await approveFrom(denied, 'deny');
    const result = await denied.done;
    expect(result.code).toBe(EXIT.loginFailed);
    expect(result.stderr).toContain('vitrine: The login was denied in the browser');
    expect(fs.existsSync(file)).toBe(false);
  }, 60_000);

  it('never sends a stored key to a server other than the one it came from', async () => {
    const dir = path.join(configDir, uniqueName('other'));
    writeStoredConfig({ VITRINE_CONFIG_DIR: dir }, { url: t.baseUrl, api_key: owner.key });
    const elsewhere = await runVitrine(['usage'], {
      VITRINE_CONFIG_DIR: dir,
      VITRINE_URL: 'http://127.0.0.1:1',
    });
    expect(elsewhere.code).toBe(EXIT.unauthorized);
    expect((await runVitrine(['usage'], { VITRINE_CONFIG_DIR: dir })).code).toBe(0);
  });
});
