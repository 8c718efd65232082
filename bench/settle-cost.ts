/**
 * What the capture recipe of this tree costs the bench pages against another tree's recipe (a
 * checkout of an earlier commit), side by side in one run: each has its own warm pool of one
 * page on the same Chromium, and their captures alternate, so the machine's load falls on both
 * alike. Not part of `make bench` (it needs the other checkout):
 *
 *   git worktree add --detach /tmp/before <commit>   (then link node_modules into it)
 *   node bench/settle-cost.ts /tmp/before [rounds]
 *
 * Prints the p50 of each recipe and their ratio per page: viewport captures of the simple,
 * heavy and long bench pages, and the long page's full page.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { capture as captureFunction } from '../packages/server/src/browser/capture-page.ts';
import { capture } from '../packages/server/src/browser/capture-page.ts';
import { pageOptions, testPool } from '../test/support/capture-test-kit.ts';
import { startFixtureServer } from '../test/support/fixture-server.ts';
import { stats } from './measure.ts';

const [otherTree, roundsText] = process.argv.slice(2);
if (!otherTree) {
  console.error('usage: node bench/settle-cost.ts <other checkout> [rounds]');
  process.exit(2);
}
const rounds = Number(roundsText ?? 20);
// The browser stage was capture/ before issue 36 renamed it browser/.
const stage = fs.existsSync(path.resolve(otherTree, 'packages/server/src/browser')) ? 'browser' : 'capture';
const other = (await import(path.resolve(otherTree, `packages/server/src/${stage}/capture-page.ts`))) as {
  capture: typeof captureFunction;
};

const server = await startFixtureServer();
const cases = [
  { name: 'simple', page: 'bench/simple.html', fullPage: false },
  { name: 'heavy', page: 'bench/heavy.html', fullPage: false },
  { name: 'long', page: 'bench/long.html', fullPage: false },
  { name: 'long, full page', page: 'bench/long.html', fullPage: true },
];
const recipes = [
  { name: 'this tree', capture, pool: testPool({ concurrency: 1 }) },
  { name: 'other tree', capture: other.capture, pool: testPool({ concurrency: 1 }) },
];
const settings = { navigationTimeoutMs: 30_000 };
try {
  for (const { name, page, fullPage } of cases) {
    const options = pageOptions(`${server.origin}/${page}`, {
      viewport: { width: 1440, height: 900 },
      fullPage,
    });
    const times = recipes.map(() => [] as number[]);
    for (let round = -2; round < rounds; round += 1) {
      for (const [index, recipe] of recipes.entries()) {
        // Let the pool prepare its next page, as it would between requests.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const started = performance.now();
        await recipe.capture(recipe.pool, options, settings);
        if (round >= 0) times[index]?.push(performance.now() - started);
      }
    }
    const [mine, theirs] = times.map((values) => stats(values).p50);
    console.log(
      `${name}: this tree p50 ${mine?.toFixed(0)} ms, other tree ${theirs?.toFixed(0)} ms, ratio ${((mine ?? 0) / (theirs ?? 1)).toFixed(3)}`,
    );
  }
} finally {
  for (const recipe of recipes) await recipe.pool.close();
  await server.close();
}
