import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BASELINE_CHROMIUM_PATH, VITRINE_CHROMIUM_PATH } from './baselines.ts';
import { type BatchBenchResult, batchLines } from './batch.ts';
import type { CdnLoadResult } from './cdn-load.ts';
import type { ComposeResult } from './compose.ts';
import type { CpuResult } from './cpu.ts';
import type { ElementBenchResult, ElementCostResult, ElementEvalBenchResult } from './element.ts';
import type { ThroughputResult } from './in-process.ts';
import type { Stats } from './measure.ts';
import type { MotionBenchResult } from './motion.ts';
import type { PixelCheck } from './pixels.ts';
import { type LatencyAgainstPrevious, NOT_SLOWER_WITHIN } from './previous-latency.ts';
import type { SceneBenchResult } from './scene.ts';
import type { MemoryResult } from './spawned-service.ts';
import { targets } from './targets.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const JSON_PATH = path.join(ROOT, 'bench/results/latest.json');
const DOCS_PATH = path.join(ROOT, 'docs/benchmarks.md');
const START = '<!-- bench:results:start (written by `make bench`; edit outside these markers) -->';
const END = '<!-- bench:results:end -->';

export interface Results {
  date: string;
  /** The commit measured (run.ts: a `+` when the work tree had changes). */
  commit?: string;
  /** The executables are absent from results written before they were recorded. */
  machine: Omit<ReturnType<typeof machineFacts>, 'vitrineChromium' | 'baselineChromium'> & {
    vitrineChromium?: string;
    baselineChromium?: string;
    loadAverageAfter?: number[];
  };
  settings: Record<string, unknown>;
  sections: string[];
  notes: string[];
  styledRoute?: boolean;
  poolConcurrency?: number;
  latency?: { byPage: Record<string, Record<string, Stats>>; phases: Record<string, unknown> };
  latencyPerCall?: Record<string, Stats>;
  latencyAgainstPrevious?: LatencyAgainstPrevious;
  fullPage?: Record<string, Stats>;
  /** The phases the service reported for the full page and the viewport capture (p50 ms). */
  fullPagePhases?: Record<string, Record<string, number>>;
  throughput?: Record<string, ThroughputResult>;
  cache?: { cached: Record<string, { server: Stats; client: Stats }>; cdn: CdnLoadResult };
  composeIsolated?: ComposeResult[];
  composeService?: Record<string, { compose: Stats; encode: Stats; total: Stats } | { skipped: string }>;
  /** Issue 16: a style change on an already captured page (the playground's preview update). */
  preview?: { client: Stats; server: Stats; navigations: number; rounds: number };
  start?: { healthyMs: number; firstCaptureMs: number }[];
  /** Per bench page, per contender. */
  cpu?: Record<string, Record<string, CpuResult>>;
  pixels?: Record<string, PixelCheck>;
  memory?: MemoryResult;
  element?: ElementBenchResult[];
  /** P12: a capture with `element` against the same capture with `selector`. */
  elementCost?: ElementCostResult;
  /** Issue 33: the evaluation set on real templates. */
  elementEval?: ElementEvalBenchResult;
  /** P11: a framed scroll video, MP4 and GIF. */
  motion?: MotionBenchResult;
  scene?: SceneBenchResult;
  /** Issue 39: a batch against the same renders as separate requests. */
  batch?: BatchBenchResult;
  elapsedSeconds?: number;
}

export function machineFacts() {
  let chromium = 'unknown';
  try {
    const out = execFileSync(BASELINE_CHROMIUM_PATH, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    chromium = /[\d.]{6,}/.exec(out)?.[0] ?? out.trim();
  } catch {
    // reported as unknown
  }
  return {
    nproc: os.availableParallelism(),
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    chromium,
    /** The executables: Vitrine's capture pool, and the baselines' (bare-playwright, capture-website). */
    vitrineChromium: VITRINE_CHROMIUM_PATH,
    baselineChromium: BASELINE_CHROMIUM_PATH,
    node: process.version,
    loadAverageBefore: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

const table = (head: string[], rows: string[][]) =>
  [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');

const ms = (s: Stats | undefined) => (s ? `${Math.round(s.p50)} / ${Math.round(s.p95)}` : '-');

/** The latency table against the previous latency run on this machine (previous-latency.ts). */
export function againstPrevious(a: LatencyAgainstPrevious): string[] {
  const pct = (ratio: number) => `${ratio >= 1 ? '+' : ''}${Math.round((ratio - 1) * 1000) / 10} %`;
  if (a.changes.length === 0)
    return [`The previous latency run on this machine (${a.previous.commit}) measured none of these pages.`];
  return [
    `Against the previous latency run on this machine (${a.previous.date.slice(0, 16).replace('T', ' ')} UTC, ${a.previous.commit}, ${a.previous.rounds ?? '?'} rounds): p50 now and then, the plain change, and the change of p50 over bare-playwright's p50 in each run (the machine's speed moves between runs); not slower when that grows by at most ${NOT_SLOWER_WITHIN * 100} %:`,
    '',
    table(
      ['page', 'contender', 'p50 now / then ms', 'plain', 'against bare-playwright', 'not slower'],
      a.changes.map((c) => [
        c.page,
        c.contender,
        `${c.p50Ms} / ${c.previousP50Ms}`,
        pct(c.plain),
        pct(c.againstBare),
        c.notSlower ? 'yes' : '**no**',
      ]),
    ),
  ];
}

/** The Markdown block: machine, targets, then the raw figures behind them. */
export function markdown(r: Results): string {
  const m = r.machine;
  const lines = [
    `Run of ${r.date.slice(0, 16).replace('T', ' ')} UTC${r.commit ? ` (commit ${r.commit})` : ''}, ${r.elapsedSeconds ?? '?'} s in all. Machine: ${m.nproc} cores (${m.cpu}), ${m.memoryGb} GB memory, Chromium ${m.chromium}${m.vitrineChromium ? ` (Vitrine on \`${m.vitrineChromium}\`, the baselines on \`${m.baselineChromium}\`)` : ''}, Node ${m.node}; load average ${m.loadAverageBefore.join(' ')} before, ${m.loadAverageAfter?.join(' ') ?? '?'} after. Browser pool concurrency ${r.poolConcurrency ?? '?'}; POST /v1/capture ${r.styledRoute ? 'available' : 'not available yet'}.`,
    '',
    table(
      ['#', 'metric', 'target', 'reached', 'verdict'],
      targets(r).map((t) => [t.id, t.metric, t.target, t.reached, `**${t.verdict}**`]),
    ),
  ];
  if (r.latency) {
    const names = [...new Set(Object.values(r.latency.byPage).flatMap((p) => Object.keys(p)))];
    lines.push('', 'Sequential latency, p50 / p95 ms (1440x900, DPR 1, PNG):', '');
    lines.push(
      table(
        ['page', ...names],
        Object.entries(r.latency.byPage).map(([p, s]) => [p, ...names.map((n) => ms(s[n]))]),
      ),
    );
    if (r.latencyAgainstPrevious) lines.push('', ...againstPrevious(r.latencyAgainstPrevious));
    if (r.latencyPerCall) {
      const pc = r.latencyPerCall;
      lines.push(
        '',
        `capture-website default (a browser per call), simple page: ${ms(pc['capture-website'])} ms against bare-playwright ${ms(pc['bare-playwright'])} ms in the same rounds.`,
      );
    }
    lines.push(
      '',
      'Phases Vitrine reported (p50 ms):',
      '',
      '```json',
      JSON.stringify(r.latency.phases),
      '```',
    );
  }
  if (r.throughput) {
    lines.push('', 'Throughput at concurrency 4 (three pages in turn, blocks rotated):', '');
    lines.push(
      table(
        ['contender', 'per minute', 'done', 'failed', 'seconds'],
        Object.entries(r.throughput).map(([k, v]) => [
          k,
          String(v.perMinute),
          String(v.done),
          String(v.failed),
          String(v.seconds),
        ]),
      ),
    );
  }
  if (r.fullPage) {
    lines.push('', 'Long page (10,000 px), p50 / p95 ms:', '');
    lines.push(
      table(
        ['capture', 'ms'],
        Object.entries(r.fullPage).map(([k, v]) => [k, ms(v)]),
      ),
    );
    if (r.fullPagePhases) {
      lines.push(
        '',
        'Phases Vitrine reported (p50 ms):',
        '',
        '```json',
        JSON.stringify(r.fullPagePhases),
        '```',
      );
    }
  }
  if (r.composeIsolated) {
    lines.push('', 'Compose + PNG encode in process, per look and mode:', '');
    lines.push(
      table(
        ['look', 'mode', 'dpr', 'canvas', 'MP', 'cold ms', 'warm p50 / p95 ms', 'warm CPU p50 ms'],
        r.composeIsolated.map((c) => [
          c.look ?? 'default',
          c.mode,
          String(c.dpr),
          c.canvas,
          String(c.megapixels),
          String(c.coldMs),
          ms(c.warm),
          c.warmCpu ? String(Math.round(c.warmCpu.p50)) : '-',
        ]),
      ),
    );
  }
  if (r.preview) {
    const p = r.preview;
    lines.push(
      '',
      `Preview update time (playground, issue 16): a style change on an already captured page, default look, ${p.rounds} rounds: client p50 / p95 ${ms(p.client)}, server p50 / p95 ${ms(p.server)}; ${p.navigations} of ${p.rounds} navigated (the capture-level page cache reloads nothing). Target: under 300 ms p50.`,
    );
  }
  if (r.cpu) {
    const x = (v: number, b: number | undefined) => (b ? ` (${Math.round((v / b) * 100) / 100} x)` : '');
    const first = Object.values(r.cpu)[0]?.['bare-playwright'];
    lines.push(
      '',
      `Back-to-back sequential captures of each bench page (${first?.captures ?? '?'} per contender and page over the rounds, no idle time between requests): wall and CPU per capture, CPU from /proc/<pid>/stat of each contender's process tree by class; the egress proxy runs inside the service's Node. "machine" is the whole machine's busy CPU (/proc/stat) per capture, bench client and any other load included.`,
      '',
    );
    lines.push(
      table(
        [
          'page',
          'contender',
          'wall p50 / p95 ms',
          'wall mean ms',
          'node',
          'browser',
          'renderer',
          'gpu+utility',
          'other',
          'tree CPU ms',
          'per round',
          'machine',
        ],
        Object.entries(r.cpu).flatMap(([page, byContender]) => {
          const bare = byContender['bare-playwright'];
          return Object.entries(byContender).map(([k, v]) => [
            page,
            k,
            ms(v.wall),
            `${v.wallMeanMs}${k === 'bare-playwright' ? '' : x(v.wallMeanMs, bare?.wallMeanMs)}`,
            String(v.cpuMs.node),
            String(v.cpuMs.browser),
            String(v.cpuMs.renderer),
            String(v.cpuMs['gpu+utility']),
            String(v.cpuMs.other),
            `**${v.cpuMs.total}**${k === 'bare-playwright' ? '' : x(v.cpuMs.total, bare?.cpuMs.total)}`,
            v.perRound.join(', '),
            String(v.machineMs),
          ]);
        }),
      ),
    );
  }
  if (r.pixels) {
    const cell = (c: PixelCheck['previous'] | undefined) =>
      c === undefined
        ? '-'
        : typeof c === 'string'
          ? c
          : `max ${c.maxDelta}, mean ${c.meanDelta}, ${c.differing * 100} % over 24`;
    lines.push(
      '',
      'Pixels of the bench pages (1440x900): against the previous run on this machine, and raw against bare-playwright:',
      '',
    );
    lines.push(
      table(
        ['capture', 'vs previous run', 'vs bare-playwright'],
        Object.entries(r.pixels).map(([k, v]) => [k, cell(v.previous), cell(v.bare)]),
      ),
    );
  }
  if (r.memory) {
    const { vitrine: v, bare: b } = r.memory;
    lines.push(
      '',
      `Memory at concurrency 4 (PSS from /proc/*/smaps_rollup, summed RSS beside it): the service tree over ${v.captures} fresh raw captures in ${Math.round(v.elapsedMs / 1000)} s (${v.failed} failed, up to ${v.processes} processes): idle ${v.idle.pssMb} MB PSS (${v.idle.rssMb} MB RSS), peak ${v.peakPssMb} MB PSS (${v.peakRssMb} MB RSS); median PSS ${v.earlyPssMb} MB over the second fifth and ${v.latePssMb} MB over the last fifth (drift ${r.memory.driftPercent} %; RSS ${v.earlyRssMb} -> ${v.lateRssMb} MB, ${r.memory.rssDriftPercent} %). bare-playwright's tree (its Node and its Chromium) over ${b.captures} captures of the same pages in the same run (${b.failed} failed, up to ${b.processes} processes): idle ${b.idle.pssMb} MB PSS, peak ${b.peakPssMb} MB PSS (${b.peakRssMb} MB RSS).`,
    );
  }
  if (r.element) {
    lines.push('', 'Element resolution (`element`) on a loaded page, p50 / p95 ms:', '');
    lines.push(
      table(
        ['page', 'description', 'candidates', 'resolve ms', 'answer'],
        r.element.map((e) => [e.page, e.query, String(e.candidates), ms(e.resolve), e.outcome]),
      ),
    );
  }
  if (r.elementEval) lines.push('', ...elementEvalLines(r.elementEval));
  if (r.scene) {
    const sc = r.scene;
    lines.push(
      '',
      `Scene (issue 38): a three-shot scene (the simple, heavy and long pages in a laptop, a phone and a browser window, side by side, fresh renders) took p50 / p95 ${ms(sc.sceneMs)} ms, its one compose ${ms(sc.composeMs)} ms; the three single captures one after another ${ms(sc.singlesMs)} ms, plus one compose ${ms(sc.budgetMs)} ms. The scene took at most that in ${sc.within} of ${sc.rounds} rounds.`,
    );
  }
  if (r.batch) lines.push('', ...batchLines(r.batch));
  if (r.notes.length) lines.push('', ...r.notes.map((n) => `- ${n}`));
  return lines.join('\n');
}

const percent = (r: { hits: number; total: number }) =>
  `${r.hits}/${r.total} (${((r.hits / Math.max(1, r.total)) * 100).toFixed(1)} %)`;

/** The per-template table of the element evaluation (issue 33), as docs/benchmarks.md shows it. */
export function elementEvalLines(e: ElementEvalBenchResult): string[] {
  return [
    'Element evaluation on real templates (issue 33; test/element, built-in resolver, a hit is a box with IoU >= 0.6 with an acceptable element):',
    '',
    table(
      ['template', 'part', 'descriptions hit', 'nonsense refused'],
      e.templates.map((t) => [t.template, t.part, percent(t.real), percent(t.nonsense)]),
    ),
    '',
    `All: ${percent(e.real)}; tuning part ${percent(e.tuning)}; held-out part ${percent(e.heldOut)}; new-families part (other authors, held out) ${e.newFamilies ? percent(e.newFamilies) : '-'}. Nonsense refused (422 element_not_found): ${percent(e.nonsense)}; not-found precision ${e.notFoundPrecision.nonsense}/${e.notFoundPrecision.answered422} of the 422 answers were for nonsense. Resolver time per description p50 ${Math.round(e.resolve.p50)} ms, p95 ${Math.round(e.resolve.p95)} ms.`,
  ];
}

export function printTable(r: Results): void {
  console.log('');
  console.table(
    targets(r).map((t) => ({ '#': t.id, target: t.target, reached: t.reached, verdict: t.verdict })),
  );
}

export function writeJson(r: Results): void {
  fs.mkdirSync(path.dirname(JSON_PATH), { recursive: true });
  fs.writeFileSync(JSON_PATH, `${JSON.stringify({ ...r, targets: targets(r) }, null, 2)}\n`);
  console.log(`wrote ${path.relative(ROOT, JSON_PATH)}`);
}

/** Replaces the block between the markers in docs/benchmarks.md (appends it when missing). */
export function writeDocs(r: Results): void {
  const block = `${START}\n${markdown(r)}\n${END}`;
  const current = fs.existsSync(DOCS_PATH) ? fs.readFileSync(DOCS_PATH, 'utf8') : '# Benchmarks\n';
  const from = current.indexOf(START);
  const to = current.indexOf(END);
  const next =
    from >= 0 && to > from
      ? current.slice(0, from) + block + current.slice(to + END.length)
      : `${current.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(DOCS_PATH, next);
  console.log(`wrote ${path.relative(ROOT, DOCS_PATH)}`);
}
