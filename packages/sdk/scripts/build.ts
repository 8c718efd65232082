/**
 * Builds the publishable SDK into dist/ (or the directory given): compiled JavaScript with its
 * declarations, and the package.json a registry gets, whose exports point at them. The workspace
 * itself imports the TypeScript sources (package.json here), so the checkout needs no build.
 *
 *   node packages/sdk/scripts/build.ts [outDir]     then: npm publish packages/sdk/dist
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const sdk = path.resolve(import.meta.dirname, '..');
const outDir = path.resolve(process.argv[2] ?? path.join(sdk, 'dist'));
// The repository's TypeScript (the root's), whatever a nested package brought along.
const tsc = path.join(
  path.dirname(createRequire(path.join(sdk, '../../package.json')).resolve('typescript/package.json')),
  'bin/tsc',
);

fs.rmSync(outDir, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', path.join(sdk, 'tsconfig.build.json'), '--outDir', outDir], {
  stdio: 'inherit',
});
const manifest = JSON.parse(fs.readFileSync(path.join(sdk, 'package.json'), 'utf8')) as Record<
  string,
  unknown
>;
const { devDependencies: _dev, scripts: _scripts, ...published } = manifest;
fs.writeFileSync(
  path.join(outDir, 'package.json'),
  `${JSON.stringify(
    {
      ...published,
      exports: { '.': { types: './index.d.ts', default: './index.js' } },
      types: './index.d.ts',
      files: undefined,
    },
    null,
    2,
  )}\n`,
);
fs.copyFileSync(path.join(sdk, 'README.md'), path.join(outDir, 'README.md'));
process.stdout.write(`built ${outDir}\n`);
