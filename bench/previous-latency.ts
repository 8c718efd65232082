import fs from 'node:fs';
import path from 'node:path';
import type { Stats } from './measure.ts';

/**
 * "The static bench pages are not slower to capture than before (p50 within 5 %)" (issue 15):
 * each run's sequential latency (any run of the `latency` section but a quick one) is kept on
 * the machine (bench/results/latency.json, not committed) and the next such run compares with it. This machine's speed moves by tens of
 * percent between hours, so the verdict uses each run's p50 over bare-playwright's p50 in the
 * same run (the ratio of the two ratios); the plain p50s are shown beside it.
 */
const FILE = path.resolve(import.meta.dirname, 'results/latency.json');

/** The most a p50 may grow, relative to bare-playwright's, and still count as not slower. */
export const NOT_SLOWER_WITHIN = 0.05;

export interface KeptLatency {
  date: string;
  commit: string;
  /** Sequential rounds behind each p50 (BENCH_ROUNDS). */
  rounds?: number;
  byPage: Record<string, Record<string, Stats>>;
}

export interface LatencyChange {
  page: string;
  contender: string;
  p50Ms: number;
  previousP50Ms: number;
  /** p50 now over p50 then. */
  plain: number;
  /** (p50 / bare p50) now over the same then: what the verdict reads. */
  againstBare: number;
  notSlower: boolean;
}

export interface LatencyAgainstPrevious {
  previous: { date: string; commit: string; rounds?: number };
  changes: LatencyChange[];
}

const BARE = 'bare-playwright';
const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** The previous run's latency, or undefined on a first run (or an unreadable file). */
export function readPreviousLatency(file = FILE): KeptLatency | undefined {
  try {
    const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as KeptLatency;
    return kept && typeof kept.byPage === 'object' ? kept : undefined;
  } catch {
    return undefined;
  }
}

export function keepLatency(latency: KeptLatency, file = FILE): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(latency, null, 2)}\n`);
}

/** Vitrine's contenders on every page both runs measured, each against its previous p50. */
export function compareLatency(now: KeptLatency['byPage'], previous: KeptLatency): LatencyAgainstPrevious {
  const changes: LatencyChange[] = [];
  for (const [page, contenders] of Object.entries(now)) {
    const before = previous.byPage[page];
    const bareNow = contenders[BARE]?.p50;
    const bareThen = before?.[BARE]?.p50;
    if (!before || !bareNow || !bareThen) continue;
    for (const [contender, stats] of Object.entries(contenders)) {
      const then = before[contender]?.p50;
      if (contender === BARE || !then || !stats.p50) continue;
      const againstBare = stats.p50 / bareNow / (then / bareThen);
      changes.push({
        page,
        contender,
        p50Ms: Math.round(stats.p50),
        previousP50Ms: Math.round(then),
        plain: round3(stats.p50 / then),
        againstBare: round3(againstBare),
        notSlower: againstBare <= 1 + NOT_SLOWER_WITHIN,
      });
    }
  }
  return { previous: { date: previous.date, commit: previous.commit, rounds: previous.rounds }, changes };
}
