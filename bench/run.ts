/**
 * `make bench`: Vitrine against bare Playwright and capture-website, side by side in one run,
 * contenders interleaved so that load noise hits all alike (performance.md). Prints a table,
 * writes bench/results/latest.json and, on a full run, the results in docs/benchmarks.md.
 *
 *   node bench/run.ts [sections]   sections: comma-separated names from SECTIONS (default all)
 *
 * Sizes (environment): BENCH_ROUNDS (sequential rounds, default 10), BENCH_BLOCK_SECONDS
 * (throughput block, default 10), BENCH_CPU_CAPTURES and BENCH_CPU_ROUNDS (back-to-back CPU run:
 * 30 captures per contender, 2 rounds), BENCH_DRIFT_CAPTURES and BENCH_DRIFT_SECONDS (memory run:
 * at most 1,000 captures or 1,200 s), BENCH_BARE_MEMORY_CAPTURES (bare-playwright's memory run,
 * 200). BENCH_QUICK=1 shrinks every default for development (3 rounds, 4 s blocks, 10 CPU
 * captures in 1 round, 120 drift captures); a quick run never writes docs/benchmarks.md.
 * VITRINE_BROWSER_CONCURRENCY, when set, is passed to the in-process service (to compare pool sizes).
 * VITRINE_CHROMIUM_PATH moves Vitrine onto another Chromium (default: the service's own, `auto`),
 * BENCH_BASELINE_CHROMIUM_PATH the baselines (default /usr/bin/chromium).
 * Benchmarks, not tests: nothing here fails on a slow figure.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { TEMPLATES_PATH } from '../test/support/fixture-server.ts';
import { barePlaywrightProcess } from './bare-process.ts';
import { barePlaywright, captureWebsitePerCall, captureWebsiteWarm } from './baselines.ts';
import { batchLines, batchSection } from './batch.ts';
import { benchCompose } from './compose.ts';
import { bareContender, cpuSection } from './cpu.ts';
import { elementCostSection, elementEvalSection, elementSection } from './element.ts';
import { startFixtureProcess } from './fixture-process.ts';
import {
  type Contenders,
  cacheSection,
  fullPageSection,
  latencySection,
  perCallSection,
  previewSection,
  serviceComposeSection,
  throughputSection,
  VIEWPORT,
} from './in-process.ts';
import { motionSection } from './motion.ts';
import { pixelSection } from './pixels.ts';
import { compareLatency, keepLatency, readPreviousLatency } from './previous-latency.ts';
import { quietTurns } from './process-cpu.ts';
import { againstPrevious, machineFacts, printTable, type Results, writeDocs, writeJson } from './report.ts';
import { sceneSection } from './scene.ts';
import { startVitrine } from './service.ts';
import { measureMemory, postCapture, startWithMake } from './spawned-service.ts';

const SECTIONS = [
  'latency',
  'fullpage',
  'throughput',
  'cache',
  'compose',
  'element',
  'motion',
  'scene',
  'batch',
  'preview',
  'start',
  'cpu',
  'memory',
] as const;
type Section = (typeof SECTIONS)[number];

const filter = process.argv[2]?.split(',').filter(Boolean) ?? [];
const unknown = filter.filter((f) => !SECTIONS.includes(f as Section));
if (unknown.length > 0) {
  console.error(`unknown section(s) ${unknown.join(', ')}; known: ${SECTIONS.join(', ')}`);
  process.exit(2);
}
const wanted = (s: Section) => filter.length === 0 || filter.includes(s);
const QUICK = process.env.BENCH_QUICK === '1';
const env = (name: string, full: number, quick: number) =>
  Number(process.env[name] ?? (QUICK ? quick : full));
const ROUNDS = env('BENCH_ROUNDS', 10, 3);
const BLOCK_SECONDS = env('BENCH_BLOCK_SECONDS', 10, 4);
const CPU_CAPTURES = env('BENCH_CPU_CAPTURES', 30, 10);
const CPU_ROUNDS = env('BENCH_CPU_ROUNDS', 2, 1);
const DRIFT_CAPTURES = env('BENCH_DRIFT_CAPTURES', 1000, 120);
const DRIFT_SECONDS = env('BENCH_DRIFT_SECONDS', 1200, 90);
const BARE_MEMORY_CAPTURES = env('BENCH_BARE_MEMORY_CAPTURES', 200, 60);

/** The commit measured (a `+` when the work tree has changes), or `unknown` outside git. */
function gitCommit(): string {
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: import.meta.dirname,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  try {
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') ? '+' : ''}`;
  } catch {
    return 'unknown';
  }
}

const startedAt = performance.now();
const results: Results = {
  date: new Date().toISOString(),
  commit: gitCommit(),
  machine: machineFacts(),
  settings: {
    rounds: ROUNDS,
    blockSeconds: BLOCK_SECONDS,
    quick: QUICK,
    cpuCaptures: CPU_CAPTURES,
    cpuRounds: CPU_ROUNDS,
    driftCaptures: DRIFT_CAPTURES,
    bareMemoryCaptures: BARE_MEMORY_CAPTURES,
    viewport: VIEWPORT,
  },
  sections: filter.length ? filter : [...SECTIONS],
  notes: [],
};
const fixtures = await startFixtureProcess();
const page = (name: string) => `${fixtures.origin}/bench/${name}.html`;
/**
 * The bench pages: three of our own, and two real templates (issue 42) from the element
 * evaluation set (test/element/templates, MIT, served offline): Start Bootstrap's SB Admin 2
 * dashboard (two Chart.js charts, Font Awesome, jQuery, Bootstrap) and its Agency landing page
 * (a long marketing page of ten sections and photographs).
 */
const allPages = {
  simple: page('simple'),
  heavy: page('heavy'),
  long: page('long'),
  dashboard: `${fixtures.origin}${TEMPLATES_PATH}startbootstrap-sb-admin-2/index.html`,
  marketing: `${fixtures.origin}${TEMPLATES_PATH}startbootstrap-agency/index.html`,
};
/** BENCH_PAGES (comma-separated names of allPages) narrows the per-page sections, for development. */
const pageFilter = process.env.BENCH_PAGES?.split(',').filter(Boolean) ?? [];
const unknownPages = pageFilter.filter((p) => !(p in allPages));
if (unknownPages.length > 0) {
  console.error(`unknown page(s) ${unknownPages.join(', ')}; known: ${Object.keys(allPages).join(', ')}`);
  process.exit(2);
}
const perPage: Record<string, string> = Object.fromEntries(
  Object.entries(allPages).filter(([name]) => pageFilter.length === 0 || pageFilter.includes(name)),
);
if (pageFilter.length > 0) results.notes.push(`Pages narrowed by BENCH_PAGES to ${pageFilter.join(', ')}.`);
const pages = { simple: allPages.simple, heavy: allPages.heavy, long: allPages.long };
console.log(
  `Vitrine bench on ${results.machine.nproc} cores, Chromium ${results.machine.chromium}: Vitrine on ${results.machine.vitrineChromium}, baselines on ${results.machine.baselineChromium}`,
);

/** Says how many of a section's turns began on a quiet machine (`untilQuiet`), notes the others. */
function reportQuietTurns(section: string, before: typeof quietTurns): void {
  const quiet = quietTurns.quiet - before.quiet;
  const busy = quietTurns.gaveUp - before.gaveUp;
  console.log(`  ${section}: ${quiet} of ${quiet + busy} turns began on a quiet machine`);
  if (busy > 0)
    results.notes.push(
      `${section}: ${busy} of ${quiet + busy} turns began while the machine was still busy after 3 s of waiting for it to go quiet`,
    );
}

try {
  if (wanted('compose')) {
    console.log('compose (P2), in this process');
    const turns = { ...quietTurns };
    results.composeIsolated = await benchCompose(Math.max(8, ROUNDS));
    reportQuietTurns('compose', turns);
    for (const c of results.composeIsolated)
      console.log(`  ${c.look} ${c.mode} dpr${c.dpr}: p50 ${c.warm.p50} ms`);
  }

  if (wanted('element')) {
    console.log('element resolution on the heavy and long pages (issue 14)');
    results.element = await elementSection(pages, VIEWPORT, Math.max(5, ROUNDS));
    console.log('element: what it adds to a capture of the heavy page against a CSS selector (P12)');
    results.elementCost = await elementCostSection(pages.heavy, VIEWPORT, Math.max(5, ROUNDS));
    console.log('element: the evaluation set on real templates (issue 33), built-in resolver');
    results.elementEval = await elementEvalSection(fixtures.origin);
  }

  if (wanted('motion')) {
    console.log('motion: a framed scroll video of the long page (P11)');
    results.motion = await motionSection(pages.long, Math.max(3, Math.round(ROUNDS / 3)));
  }

  if (wanted('scene')) {
    console.log('scene: a three-shot scene against its three captures plus one compose (issue 38)');
    results.scene = await sceneSection([pages.simple, pages.heavy, pages.long], Math.max(3, ROUNDS));
  }

  if (wanted('batch')) {
    const items = QUICK ? 20 : 50;
    console.log(`batch: ${items} items over 10 URLs x 3 looks, against separate requests (issue 39)`);
    results.batch = await batchSection(fixtures, { items, urls: 10 });
    console.log(
      batchLines(results.batch)
        .map((line) => `  ${line}`)
        .join('\n'),
    );
  }

  const inProcess = (['latency', 'fullpage', 'throughput', 'cache', 'compose', 'preview'] as const).some(
    wanted,
  );
  if (inProcess) {
    const poolSize = process.env.VITRINE_BROWSER_CONCURRENCY;
    const vitrine = await startVitrine(poolSize ? { VITRINE_BROWSER_CONCURRENCY: poolSize } : {});
    const c: Contenders = {
      vitrine,
      styled: await vitrine.hasRoute('/v1/capture'),
      bare: await barePlaywright(VIEWPORT),
      cwPerCall: captureWebsitePerCall(VIEWPORT),
      cwWarm: await captureWebsiteWarm(VIEWPORT),
    };
    results.styledRoute = c.styled;
    if (!c.styled) console.log('  POST /v1/capture: not available yet');
    results.poolConcurrency = vitrine.test.config.browser.concurrency;
    try {
      await vitrine.post('/v1/raw', { url: pages.simple, cache_ttl: 0 }); // the pool warms up
      if (wanted('latency')) {
        console.log('latency (P1r, P1)');
        const turns = { ...quietTurns };
        results.latency = await latencySection(c, perPage, ROUNDS);
        results.latencyPerCall = await perCallSection(c, pages.simple, Math.max(3, Math.round(ROUNDS / 2)));
        reportQuietTurns('latency', turns);
        if (!QUICK) {
          const previous = readPreviousLatency();
          if (previous) {
            results.latencyAgainstPrevious = compareLatency(results.latency.byPage, previous);
            console.log(againstPrevious(results.latencyAgainstPrevious).join('\n'));
          }
          keepLatency({
            date: results.date,
            commit: results.commit ?? 'unknown',
            rounds: ROUNDS,
            byPage: results.latency.byPage,
          });
        }
      }
      if (wanted('fullpage')) {
        console.log('full page (P7)');
        const turns = { ...quietTurns };
        const fullPage = await fullPageSection(c, pages.long, Math.max(8, ROUNDS));
        results.fullPage = fullPage.times;
        results.fullPagePhases = fullPage.phases;
        reportQuietTurns('full page', turns);
      }
      if (wanted('throughput')) {
        console.log('throughput at concurrency 4 (P3)');
        results.throughput = await throughputSection(c, Object.values(perPage), 2, BLOCK_SECONDS);
      }
      if (wanted('cache')) {
        console.log('cache and CDN (P4)');
        await new Promise((resolve) => setTimeout(resolve, 2000)); // let the last block's work settle
        results.cache = await cacheSection(c, pages.simple, Math.max(20, ROUNDS * 2));
      }
      if (wanted('compose') && c.styled) {
        console.log('compose + encode inside the service (P2)');
        results.composeService = await serviceComposeSection(
          c,
          pages.simple,
          Math.max(6, Math.round(ROUNDS / 2)),
        );
      }
      if (wanted('preview') && c.styled) {
        console.log('playground preview update (issue 16)');
        results.preview = await previewSection(c, pages.simple, Math.max(10, ROUNDS * 2));
      }
    } finally {
      await Promise.allSettled([c.bare.close(), c.cwWarm.close()]);
      await vitrine.close();
    }
  }

  if (wanted('start') || wanted('memory') || wanted('cpu')) {
    console.log('make start to first capture (P6)');
    // "On an installed tree": whatever `make start` would install is installed first, untimed.
    execFileSync('bash', [path.join(import.meta.dirname, '../scripts/install.sh')], { stdio: 'ignore' });
    const runs: { healthyMs: number; firstCaptureMs: number }[] = [];
    const startRuns = wanted('start') ? 3 : 1;
    for (let i = 0; i < startRuns; i += 1) {
      const service = await startWithMake(pages.simple);
      runs.push({ healthyMs: service.startToHealthyMs, firstCaptureMs: service.startToFirstCaptureMs });
      console.log(
        `  run ${i + 1}: healthy ${service.startToHealthyMs} ms, first capture ${service.startToFirstCaptureMs} ms`,
      );
      if (i < startRuns - 1 || !(wanted('cpu') || wanted('memory'))) {
        await service.stop();
        continue;
      }
      // The service started by `make start` is a process of its own: its tree is the service's
      // Node (with the egress proxy in it) and its Chromium; bare-playwright runs forked too.
      const bare = await barePlaywrightProcess(VIEWPORT);
      try {
        if (wanted('cpu')) {
          results.cpu = {};
          for (const [name, url] of Object.entries(perPage)) {
            console.log(
              `CPU per capture, ${name} page, ${CPU_CAPTURES} back-to-back captures x ${CPU_ROUNDS} rounds (P8)`,
            );
            const via = (route: '/v1/raw' | '/v1/capture') => ({
              roots: [service.servicePid],
              capture: () => postCapture(service.baseUrl, service.key, route, url),
            });
            const cpu = await cpuSection(
              {
                'bare-playwright': bareContender(bare, url),
                'vitrine-raw': via('/v1/raw'),
                'vitrine-capture': via('/v1/capture'),
              },
              CPU_CAPTURES,
              CPU_ROUNDS,
            );
            results.cpu[name] = cpu;
            console.table(
              Object.fromEntries(
                Object.entries(cpu).map(([k, v]) => [
                  k,
                  {
                    'wall p50 ms': v.wall.p50,
                    'wall mean ms': v.wallMeanMs,
                    ...v.cpuMs,
                    machine: v.machineMs,
                  },
                ]),
              ),
            );
          }
        }
        if (wanted('cpu')) {
          console.log('pixels of the bench pages against the previous run and bare-playwright');
          const image = async (route: '/v1/raw' | '/v1/capture', url: string) => {
            const answer = (await (await postCapture(service.baseUrl, service.key, route, url)).json()) as {
              url: string;
            };
            const response = await fetch(new URL(answer.url, service.baseUrl));
            if (!response.ok) throw new Error(`image ${answer.url}: ${response.status}`);
            return new Uint8Array(await response.arrayBuffer());
          };
          results.pixels = await pixelSection(image, bare, perPage);
        }
        if (wanted('memory')) {
          console.log(`memory at concurrency 4 over ${DRIFT_CAPTURES} captures (P5)`);
          results.memory = await measureMemory(
            service,
            bare,
            Object.values(perPage),
            DRIFT_CAPTURES,
            BARE_MEMORY_CAPTURES,
            DRIFT_SECONDS * 1000,
          );
          const m = results.memory;
          console.log(
            `  vitrine peak PSS ${m.vitrine.peakPssMb} MB (RSS ${m.vitrine.peakRssMb} MB), bare-playwright peak PSS ${m.bare.peakPssMb} MB (RSS ${m.bare.peakRssMb} MB); PSS drift ${m.driftPercent} % over ${m.vitrine.captures} captures`,
          );
        }
      } finally {
        await Promise.allSettled([bare.close(), service.stop()]);
      }
    }
    if (wanted('start')) results.start = runs;
  }
} finally {
  await fixtures.close();
}

results.elapsedSeconds = Math.round((performance.now() - startedAt) / 1000);
results.machine.loadAverageAfter = os.loadavg().map((l) => Math.round(l * 100) / 100);
const peakLoad = Math.max(...results.machine.loadAverageBefore, ...results.machine.loadAverageAfter);
if (peakLoad > results.machine.nproc) {
  results.notes.push(
    `The machine was shared and loaded during this run (load average up to ${peakLoad} on ${results.machine.nproc} cores): absolute times are slower than performance.md's, the ratios measured side by side are what count.`,
  );
}
printTable(results);
writeJson(results);
if (filter.length === 0 && !QUICK) writeDocs(results);
else console.log('(a filtered or quick run: docs/benchmarks.md left as it is)');
