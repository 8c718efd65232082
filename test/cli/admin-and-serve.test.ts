import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../../bin/vitrine');

/** The flags of bin/node-flags (comment lines left out), as bin/vitrine passes them to Node. */
function serverNodeFlags(): string[] {
  const text = fs.readFileSync(path.resolve(import.meta.dirname, '../../bin/node-flags'), 'utf8');
  return text
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .join(' ')
    .split(/\s+/)
    .filter(Boolean);
}

describe('bin/vitrine admin and serve', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-cli-'));
    env = { ...process.env, VITRINE_DATA_DIR: dataDir, VITRINE_LOG_LEVEL: 'warn' };
    // bin/vitrine's own defaults are under test: none of the caller's.
    delete env.MALLOC_ARENA_MAX;
    delete env.MALLOC_MMAP_THRESHOLD_;
    delete env.VITRINE_NODE_FLAGS;
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const admin = (...args: string[]) => run(BIN, ['admin', ...args], { env });

  it('creates users and keys, lists, sets credits and revokes, on the same data as the server', async () => {
    const user = await admin('create-user', '--email', 'Ada@Example.com', '--password', 'long enough');
    expect(user.stdout).toMatch(/Created user usr_[0-9A-Z]{26} <ada@example.com>/);

    const created = await admin(
      'create-key',
      '--email',
      'ada@example.com',
      '--scopes',
      'capture,usage',
      '--credits',
      '25',
    );
    const lines = created.stdout.trim().split('\n');
    const key = lines[lines.length - 1]!;
    expect(key).toMatch(/^vt_live_[0-9A-Za-z]{38}$/);

    const testKey = (await admin('create-key', '--email', 'new@example.com', '--test')).stdout
      .trim()
      .split('\n')
      .pop();
    expect(testKey).toMatch(/^vt_test_/);

    const listed = await admin('list-keys', '--email', 'ada@example.com');
    expect(listed.stdout).toContain('capture,usage');
    expect(listed.stdout).toContain('active');
    expect(listed.stdout).not.toContain(key);
    const keyId = /key_[0-9A-Z]{26}/.exec(listed.stdout)![0];

    const credits = await admin('set-credits', '--email', 'ada@example.com', '--credits', '7');
    expect(credits.stdout).toContain('7 credits (monthly 25)');

    await expect(
      admin('create-key', '--email', 'ada@example.com', '--scopes', 'capture,teleport'),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining('Unknown scope teleport. Must be any of: capture, raw'),
    });

    expect((await admin('revoke-key', keyId)).stdout).toContain(`Revoked ${keyId}`);
    await expect(admin('revoke-key', keyId)).rejects.toMatchObject({
      stderr: expect.stringContaining('No active key'),
    });
    // A CLI process per step, each a Node start-up: about 13 s on a quiet 2-core machine.
  }, 180_000);

  it('rotate-master-key re-wraps the stored secrets and replaces the key file', async () => {
    await admin('create-user', '--email', 'rotate@example.com', '--password', 'long enough');
    const keyFile = path.join(dataDir, 'secret.key');
    const before = fs.readFileSync(keyFile, 'utf8');
    const rotated = await admin('rotate-master-key');
    expect(rotated.stderr).toContain('Re-wrapped every sealed record');
    expect(fs.readFileSync(keyFile, 'utf8')).not.toBe(before);
    await expect(admin('rotate-master-key', '--new-key', 'short')).rejects.toMatchObject({
      stderr: expect.stringContaining('--new-key must be 32 bytes'),
    });
  }, 120_000);

  it('runs the server with VITRINE_NODE_FLAGS instead of bin/node-flags when it is set', async () => {
    expect(serverNodeFlags().length).toBeGreaterThan(0);
    await expect(
      run(BIN, ['admin', '--help'], { env: { ...env, VITRINE_NODE_FLAGS: '--no-such-node-flag' } }),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('bad option: --no-such-node-flag') });
  });

  it('refuses to start with an invalid variable, naming it', async () => {
    await expect(run(BIN, ['serve'], { env: { ...env, VITRINE_PORT: 'abc' } })).rejects.toMatchObject({
      stderr: expect.stringContaining('VITRINE_PORT: expected an integer'),
    });
  });

  it('serve starts, prints the URL and how to get a key, answers /healthz, and stops on SIGTERM', async () => {
    const child: ChildProcess = spawn(BIN, ['serve'], { env: { ...env, VITRINE_PORT: '0' } });
    try {
      const banner = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stderr!.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes('Stop: Ctrl+C')) resolve(text);
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${text}`)));
      });
      const url = /running at (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)![1]!;
      expect(banner).toContain('bin/vitrine admin create-key --email');
      expect(banner).toContain(`${url}/docs`);
      const health = await fetch(`${url}/healthz`);
      expect(await health.json()).toEqual({ status: 'ok' });
      // bin/vitrine execs Node with the server's V8 settings from bin/node-flags.
      const commandLine = fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
      expect(commandLine).toEqual(expect.arrayContaining(serverNodeFlags()));
      const environment = fs.readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0');
      expect(environment).toContain('MALLOC_ARENA_MAX=2');
      expect(environment).toContain('MALLOC_MMAP_THRESHOLD_=1048576');
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    // A cold start of the whole server (Node, migrations, Chromium's spare page) took ~25 s on
    // two loaded cores: the default 30 s left no margin.
  }, 120_000);
});
