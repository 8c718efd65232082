import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

// `npm pack` of the CLI (prepack: `build`, postpack: `clean`). The packed CLI ships compiled
// JavaScript: Node strips no TypeScript types inside node_modules. The workspace packages it
// uses, the contract (shared with the server, not published) and the SDK, go compiled into
// dist/contract and dist/sdk, and the CLI's imports of them are pointed there. Nothing outside
// dist/ is touched, so the checkout (which runs the sources) is never affected by a pack in
// progress.
const cli = path.resolve(import.meta.dirname, '..');
const dist = path.join(cli, 'dist');
/** Workspace packages compiled into dist/<folder>, with the CLI's imports of them relinked. */
const BUNDLED = [
  {
    name: '@vitrine/contract',
    folder: 'contract',
    project: path.resolve(cli, '../contract/tsconfig.build.json'),
  },
  { name: '@vitrine/sdk', folder: 'sdk', project: path.resolve(cli, '../sdk/tsconfig.build.json') },
];
const tsc = path.join(
  path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')),
  'bin/tsc',
);

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

/** Points the compiled CLI's imports of a bundled package at dist/<folder>/index.js. */
function linkBundled(): void {
  for (const file of jsFiles(dist)) {
    for (const bundled of BUNDLED) {
      const own = path.join(dist, bundled.folder);
      if (file.startsWith(own + path.sep)) continue;
      let relative = path.relative(path.dirname(file), path.join(own, 'index.js')).split(path.sep).join('/');
      if (!relative.startsWith('.')) relative = `./${relative}`;
      const pattern = new RegExp(`(from\\s+|import\\()'${bundled.name.replace('/', '\\/')}'`, 'g');
      const code = fs.readFileSync(file, 'utf8');
      const linked = code.replace(pattern, (_, lead: string) => `${lead}'${relative}'`);
      if (linked.includes(`'${bundled.name}'`))
        throw new Error(`${file}: an import of ${bundled.name} was not linked`);
      if (linked !== code) fs.writeFileSync(file, linked);
    }
  }
}

function clean(): void {
  fs.rmSync(dist, { recursive: true, force: true });
}

function build(): void {
  clean();
  for (const bundled of BUNDLED) compile(bundled.project, path.join(dist, bundled.folder));
  compile(path.join(cli, 'tsconfig.build.json'), dist);
  linkBundled();
  // The bundled packages' declarations were needed to type-check the CLI, not to run it.
  for (const bundled of BUNDLED) {
    for (const file of jsFiles(path.join(dist, bundled.folder)).map((f) => f.replace(/\.js$/, '.d.ts'))) {
      fs.rmSync(file, { force: true });
    }
  }
}

const action = process.argv[2];
if (action === 'build') build();
else if (action === 'clean') clean();
else throw new Error('usage: prepare-package.ts build|clean');
