import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SDK = path.resolve(import.meta.dirname, '../../packages/sdk');

/** Every file under `dir`, relative to it. */
function filesOf(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/** The SDK builds into a package of its own: JavaScript, declarations, exports, no workspace imports. */
describe('the published shape of @vitrine/sdk', () => {
  let work: string;
  let out: string;
  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-sdk-'));
    out = path.join(work, 'node_modules/@vitrine/sdk');
    await run(process.execPath, [path.join(SDK, 'scripts/build.ts'), out]);
  }, 120_000);
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('holds compiled JavaScript and declarations, and a package.json whose exports point at them', () => {
    const files = filesOf(out);
    expect(files).toEqual(expect.arrayContaining(['index.js', 'index.d.ts', 'package.json', 'README.md']));
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(files.some((f) => f.endsWith('.test.js'))).toBe(false);
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: '@vitrine/sdk',
      type: 'module',
      exports: { '.': { types: './index.d.ts', default: './index.js' } },
      types: './index.d.ts',
    });
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.devDependencies).toBeUndefined();
    for (const file of files.filter((f) => f.endsWith('.js') || f.endsWith('.d.ts'))) {
      const code = fs.readFileSync(path.join(out, file), 'utf8');
      const imports = [...code.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]!);
      expect(
        imports.filter((i) => !i.startsWith('./') && !i.startsWith('../') && !i.startsWith('node:')),
        file,
      ).toEqual([]);
    }
  });

  it("type-checks in a consumer's strict TypeScript project, library checks included", async () => {
    fs.writeFileSync(
      path.join(work, 'typed.ts'),
      [
        "import { Vitrine, type CaptureResult, VitrineError } from '@vitrine/sdk';",
        "const client = new Vitrine({ baseUrl: 'http://127.0.0.1:9', retry: { retries: 1 } });",
        "export const shot: Promise<CaptureResult> = client.capture({ url: 'https://example.com', padding: 8 });",
        "export const isError = (e: unknown) => e instanceof VitrineError && e.code === 'not_found';",
        '',
      ].join('\n'),
    );
    fs.writeFileSync(
      path.join(work, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          types: ['node'],
          typeRoots: [path.resolve(import.meta.dirname, '../../node_modules/@types')],
        },
        files: ['typed.ts'],
      }),
    );
    const tsc = path.resolve(import.meta.dirname, '../../node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', work]).catch((error) => error);
    expect(`${result.stdout ?? ''}${result.stderr ?? ''}`).toBe('');
  });

  it('is importable by name from node_modules, as a consumer would', async () => {
    fs.writeFileSync(path.join(work, 'package.json'), '{"type": "module", "private": true}\n');
    const script = [
      "import { Vitrine, VitrineError, canonicalString, webhookSecret } from '@vitrine/sdk';",
      "const client = new Vitrine({ baseUrl: 'http://127.0.0.1:9' });",
      'const error = await client.account().catch((e) => e);',
      'console.log(JSON.stringify({ error: error instanceof VitrineError, code: error.code,',
      "  canonical: canonicalString('get', '/v1/capture', [['b', '2'], ['a', '1']]), secret: webhookSecret('s') }));",
    ].join('\n');
    fs.writeFileSync(path.join(work, 'consumer.mjs'), script);
    const { stdout } = await run(process.execPath, ['consumer.mjs'], { cwd: work });
    expect(JSON.parse(stdout)).toEqual({
      error: true,
      code: 'network_error',
      canonical: 'GET\n/v1/capture\na=1&b=2',
      secret: 'whsec_cw==',
    });
  });
});
