import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const run = promisify(execFile);
const CLI_PACKAGE = path.resolve(import.meta.dirname, '../../packages/cli');
/** npm from PATH (the Makefile puts Node 24 first, which runs the prepack script). */
const NPM = 'npm';
/** What the client must never pull in: the browser, image libraries, the server's stack. */
const FORBIDDEN = [
  'sharp',
  'playwright',
  'playwright-core',
  'puppeteer',
  'chromium',
  'better-sqlite3',
  'fastify',
  'pg',
  '@vitrine/server',
];

interface NpmTree {
  dependencies?: Record<string, NpmTree>;
}

function packageNames(tree: NpmTree, into = new Set<string>()): Set<string> {
  for (const [name, child] of Object.entries(tree.dependencies ?? {})) {
    into.add(name);
    packageNames(child, into);
  }
  return into;
}

/**
 * Issue 11: the CLI installs on its own from the tarball `npm pack` makes, into an empty
 * directory, runs from node_modules (compiled JavaScript only) and talks to a real server.
 */
describe('the packed CLI', () => {
  let work: string;
  let t: TestApp;
  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-pack-'));
    t = await startTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('installs into an empty directory without Chromium or sharp and works against a server', async () => {
    const env = {
      ...process.env,
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
    };
    const packed = await run(NPM, ['pack', '--json', '--pack-destination', work], { cwd: CLI_PACKAGE, env });
    const [{ filename, files }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as [
      { filename: string; files: { path: string }[] },
    ];
    const paths = files.map((f) => f.path);
    expect(paths).toContain('dist/main.js');
    expect(paths).toContain('dist/contract/index.js');
    expect(paths).toContain('dist/sdk/index.js');
    expect(paths.filter((p) => p.endsWith('.ts'))).toEqual([]);
    // postpack removed the build output again: the checkout runs its sources.
    expect(fs.existsSync(path.join(CLI_PACKAGE, 'dist'))).toBe(false);

    const project = path.join(work, 'empty');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'package.json'), '{"name": "empty", "private": true}\n');
    await run(NPM, ['install', '--prefer-offline', '--loglevel=error', path.join(work, filename)], {
      cwd: project,
      env,
    });
    const tree = JSON.parse(
      (await run(NPM, ['ls', '--all', '--json'], { cwd: project, env })).stdout,
    ) as NpmTree;
    const names = packageNames(tree);
    expect(names.has('@vitrine/cli')).toBe(true);
    for (const name of FORBIDDEN) expect(names.has(name), name).toBe(false);

    const bin = path.join(project, 'node_modules/.bin/vitrine');
    expect((await run(bin, ['--version'])).stdout.trim()).toBe('0.1.0');
    const { key, email } = await t.createKey();
    const cliEnv = {
      PATH: process.env.PATH,
      HOME: work,
      VITRINE_CONFIG_DIR: path.join(work, 'config'),
      VITRINE_URL: t.baseUrl,
      VITRINE_API_KEY: key,
    };
    const status = await run(bin, ['status'], { env: cliEnv });
    expect(status.stdout).toContain(email);
    // The bundled contract validates flags in the installed copy too.
    await expect(
      run(bin, ['capture', 'https://example.com', '--device', 'toaster'], { env: cliEnv }),
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('iphone-16-pro'),
    });
    await expect(
      run(bin, ['projects', 'get', `prj_${'0'.repeat(26)}`], { env: cliEnv }),
    ).rejects.toMatchObject({
      code: 5,
      stderr: expect.stringMatching(/^vitrine: Project prj_0+ not found\n$/),
    });
    // Several npm runs and Node start-ups on a loaded 2-core machine.
  }, 300_000);
});
