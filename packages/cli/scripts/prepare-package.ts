import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

// `npm pack` of the CLI (prepack: `build`, postpack: `clean`). The packed CLI ships compiled
// JavaScript: Node strips no TypeScript types inside node_modules. The contract package it
// shares with the server is not published, so its compiled form goes into dist/contract and
// the CLI's imports of `@vitrine/contract` are pointed there. Nothing outside dist/ is touched,
// so the checkout (which runs the sources) is never affected by a pack in progress.
const cli = path.resolve(import.meta.dirname, '..');
const dist = path.join(cli, 'dist');
const contractDist = path.join(dist, 'contract');
const contractProject = path.resolve(cli, '../contract/tsconfig.build.json');
const tsc = path.join(
  path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')),
  'bin/tsc',
);
const CONTRACT_IMPORT = /(from\s+|import\()'@vitrine\/contract'/g;

function compile(project: string, outDir: string): void {
  execFileSync(process.execPath, [tsc, '-p', project, '--outDir', outDir], { stdio: 'inherit' });
}

function jsFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .flatMap((entry) =>
      entry.isFile() && entry.name.endsWith('.js') ? [path.join(entry.parentPath, entry.name)] : [],
    );
}

/** Points the compiled CLI's imports of `@vitrine/contract` at dist/contract/index.js. */
function linkContract(): void {
  for (const file of jsFiles(dist)) {
    if (file.startsWith(contractDist + path.sep)) continue;
    let relative = path
      .relative(path.dirname(file), path.join(contractDist, 'index.js'))
      .split(path.sep)
      .join('/');
    if (!relative.startsWith('.')) relative = `./${relative}`;
    const code = fs.readFileSync(file, 'utf8');
    const linked = code.replace(CONTRACT_IMPORT, (_, lead: string) => `${lead}'${relative}'`);
    if (linked.includes('@vitrine/contract'))
      throw new Error(`${file}: an import of @vitrine/contract was not linked`);
    fs.writeFileSync(file, linked);
  }
}

function clean(): void {
  fs.rmSync(dist, { recursive: true, force: true });
}

function build(): void {
  clean();
  compile(contractProject, contractDist);
  compile(path.join(cli, 'tsconfig.build.json'), dist);
  linkContract();
  // The contract's declarations were needed to type-check the CLI, not to run it.
  for (const entry of fs.readdirSync(contractDist)) {
    if (entry.endsWith('.d.ts')) fs.rmSync(path.join(contractDist, entry));
  }
}

const action = process.argv[2];
if (action === 'build') build();
else if (action === 'clean') clean();
else throw new Error('usage: prepare-package.ts build|clean');
