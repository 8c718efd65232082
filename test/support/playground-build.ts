import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const PLAYGROUND = path.resolve(import.meta.dirname, '../../packages/playground');

/**
 * Builds the playground's front-end when it is missing or older than its sources (what
 * `make install` does), so a test of /playground never runs an outdated bundle.
 */
export function ensurePlaygroundBuilt(): void {
  const built = path.join(PLAYGROUND, 'dist', 'index.html');
  const newest = (dir: string): number =>
    Math.max(
      ...fs.readdirSync(dir, { withFileTypes: true }).map((entry) => {
        const full = path.join(dir, entry.name);
        return entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs;
      }),
    );
  const sources = Math.max(
    newest(path.join(PLAYGROUND, 'src')),
    newest(path.resolve(PLAYGROUND, '../contract/src')),
    fs.statSync(path.join(PLAYGROUND, 'index.html')).mtimeMs,
  );
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= sources) return;
  execFileSync(
    process.execPath,
    [path.resolve(PLAYGROUND, '../../node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'],
    {
      cwd: PLAYGROUND,
      stdio: 'inherit',
    },
  );
}
