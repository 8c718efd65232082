import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVitrine } from '../support/cli-runner.ts';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/** Issue 39: `vitrine batch` and `vitrine sync` against a real server and fixture pages. */
describe('vitrine batch and vitrine sync', () => {
  let t: TestApp;
  let fixtures: RunningServer;
  let dir: string;
  let env: Record<string, string>;
  const pages: Record<string, string> = { a: 'Alpha', b: 'Beta' };

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    for (const name of Object.keys(pages)) {
      fixtures.route(`/site/${name}`, (_req, res) => {
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<!doctype html><html><body style="background:#f4f1ea"><h1>${pages[name]}</h1></body></html>`);
      });
    }
    t = await startTestApp('sqlite', {
      env: { VITRINE_ALLOW_TARGETS: '127.0.0.2', VITRINE_QUEUE_POLL_MS: '50' },
    });
    const key = await t.createKey({ credits: 100 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-sync-'));
    env = { VITRINE_URL: t.baseUrl, VITRINE_API_KEY: key.key, VITRINE_CONFIG_DIR: path.join(dir, 'config') };
  });
  afterAll(async () => {
    await t?.close();
    await fixtures?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const loads = (page: string) => fixtures.hits.filter((hit) => hit === page).length;

  it('sync renders every shot, then nothing while the pages stay the same, then only the changed page', async () => {
    const config = path.join(dir, 'vitrine.yml');
    fs.writeFileSync(
      config,
      [
        'version: 1',
        'output: shots',
        'defaults:',
        '  viewport: { width: 480, height: 320 }',
        'looks:',
        '  hero:',
        '    background_preset: sunset',
        '    padding: 40',
        'shots:',
        `  - url: ${fixtures.origin}/site/a`,
        '    look: hero',
        '    path: a.png',
        '    dark_path: a-dark.png',
        `  - url: ${fixtures.origin}/site/b`,
        '    path: docs/b.webp',
        '',
      ].join('\n'),
    );
    const first = await runVitrine(['sync', '--config', config], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('3 rendered, 0 unchanged');
    for (const file of ['a.png', 'a-dark.png', 'docs/b.webp']) {
      expect(fs.statSync(path.join(dir, 'shots', file)).size).toBeGreaterThan(1000);
    }
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'shots', 'vitrine-manifest.json'), 'utf8'));
    expect(Object.keys(manifest.shots).sort()).toEqual(['a-dark.png', 'a.png', 'docs/b.webp']);
    expect(manifest.shots['a-dark.png']).toMatchObject({ dark: true, look: 'hero' });
    expect(manifest.shots['docs/b.webp'].image_url).toMatch(/\.webp$/);

    const before = { a: loads('/site/a'), b: loads('/site/b') };
    const check = await runVitrine(['sync', '--config', config, '--check'], env);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain('All 3 shots are up to date');
    const second = await runVitrine(['sync', '--config', config], env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('0 rendered, 3 unchanged');
    // Each run fetched each page once for its hash, and the service loaded none.
    expect(loads('/site/a')).toBe(before.a + 2);
    expect(loads('/site/b')).toBe(before.b + 2);

    pages.b = 'Beta, changed';
    const stale = await runVitrine(['sync', '--config', config, '--check'], env);
    expect(stale.code).toBe(14);
    expect(stale.stdout).toContain('stale: docs/b.webp');
    expect(stale.stdout).not.toContain('a.png');
    const third = await runVitrine(['sync', '--config', config], env);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stdout).toContain('rendered: docs/b.webp');
    expect(third.stdout).toContain('1 rendered, 2 unchanged');
    const after = JSON.parse(fs.readFileSync(path.join(dir, 'shots', 'vitrine-manifest.json'), 'utf8'));
    expect(after.shots['a.png']).toEqual(manifest.shots['a.png']);
    expect(after.shots['docs/b.webp'].capture_id).not.toBe(manifest.shots['docs/b.webp'].capture_id);
  }, 240_000);

  it('reports problems in vitrine.yml with their line numbers, before any request', async () => {
    const config = path.join(dir, 'bad.yml');
    fs.writeFileSync(
      config,
      [
        'looks:',
        '  hero:',
        '    padding: lots',
        'shots:',
        `  - url: ${fixtures.origin}/site/a`,
        '    look: hero',
        '    path: a.png',
        `  - url: ${fixtures.origin}/site/b`,
        '    look: villain',
        '    path: b.png',
        `  - url: ${fixtures.origin}/site/b`,
        '    path: ../outside.png',
        '',
      ].join('\n'),
    );
    const res = await runVitrine(['sync', '--config', config], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`${config}:12:11: shots.2.path: must be a relative path`);
    fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('../outside.png', 'c.png'));
    const again = await runVitrine(['sync', '--config', config], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`${config}:3:14: shots.0 (a.png): padding:`);
    expect(again.stderr).toContain(`${config}:9:11: shots.1.look: no look named villain`);
    const yamlError = path.join(dir, 'broken.yml');
    fs.writeFileSync(yamlError, 'shots:\n  - url: [unclosed\n');
    const broken = await runVitrine(['sync', '--config', yamlError], env);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/broken\.yml:\d+:\d+:/);
  });

  it('vitrine batch submits a JSON file, shows counts, and exits 9 when a render failed', async () => {
    const file = path.join(dir, 'batch.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        defaults: { viewport: { width: 400, height: 300 } },
        items: [
          `${fixtures.origin}/site/a?cli=1`,
          { url: `${fixtures.origin}/site/b?cli=1`, selector: '#missing' },
        ],
        looks: { one: { padding: 16 }, two: { padding: 48 } },
      }),
    );
    const res = await runVitrine(['batch', file, '--output-dir', path.join(dir, 'out')], env);
    expect(res.code, res.stderr).toBe(9);
    expect(res.stderr).toMatch(/\[#+\] 2\/4 done, 2 failed/);
    expect(res.stderr).toContain('2 of 4 renders failed');
    expect(res.stdout).toContain('0 [one]');
    expect(fs.readdirSync(path.join(dir, 'out')).sort()).toEqual(['000-one.png', '000-two.png']);
    const invalid = path.join(dir, 'invalid.json');
    fs.writeFileSync(
      invalid,
      JSON.stringify({
        items: [`${fixtures.origin}/site/a`, { url: `${fixtures.origin}/site/a`, padding: -1 }],
      }),
    );
    const refused = await runVitrine(['batch', invalid], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('items[1]');
  }, 240_000);
});
