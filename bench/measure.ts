import fs from 'node:fs';

/** Summary of a list of durations in milliseconds. */
export interface Stats {
  n: number;
  p50: number;
  p95: number;
  min: number;
  max: number;
}

/** Nearest-rank percentile of an unsorted list (0 when empty). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export function stats(values: number[]): Stats {
  const round = (v: number) => Math.round(v * 10) / 10;
  return {
    n: values.length,
    p50: round(percentile(values, 50)),
    p95: round(percentile(values, 95)),
    min: round(values.length ? Math.min(...values) : 0),
    max: round(values.length ? Math.max(...values) : 0),
  };
}

/** Milliseconds one call takes. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs the contenders in rounds, each round in a rotated order, so that load noise on the
 * machine hits all of them alike (performance.md: ratios measured side by side in one run).
 * Returns the durations per contender name.
 */
export async function interleaved(
  contenders: Record<string, () => Promise<unknown>>,
  rounds: number,
  options: { warmup?: number; pauseMs?: number; between?: () => Promise<unknown> } = {},
): Promise<Record<string, number[]>> {
  const names = Object.keys(contenders);
  const results: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = -(options.warmup ?? 1); round < rounds; round += 1) {
    const shift = ((round % names.length) + names.length) % names.length;
    for (const name of [...names.slice(shift), ...names.slice(0, shift)]) {
      if (options.between) await options.between();
      const ms = await timed(contenders[name] as () => Promise<unknown>);
      if (round >= 0) results[name]?.push(ms);
      // A real client does not fire the next request the instant the last one returns.
      if (options.pauseMs) await sleep(options.pauseMs);
    }
  }
  return results;
}

/** Completed calls of `work` at a fixed concurrency until the time is up (calls in flight finish). */
export async function sustained(
  work: (worker: number, index: number) => Promise<unknown>,
  concurrency: number,
  durationMs: number,
): Promise<{ done: number; failed: number; elapsedMs: number }> {
  const started = performance.now();
  let index = 0;
  let done = 0;
  let failed = 0;
  const worker = async (w: number) => {
    while (performance.now() - started < durationMs) {
      try {
        await work(w, index++);
        done += 1;
      } catch {
        failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  return { done, failed, elapsedMs: performance.now() - started };
}

/** Up to `count` calls at a fixed concurrency; no new call starts after `maxMs`. */
export async function batch(
  work: (index: number) => Promise<unknown>,
  concurrency: number,
  count: number,
  onDone?: (completed: number) => void,
  maxMs = Number.POSITIVE_INFINITY,
): Promise<{ completed: number; failed: number }> {
  const started = performance.now();
  let next = 0;
  let completed = 0;
  let failed = 0;
  const worker = async () => {
    while (next < count && performance.now() - started < maxMs) {
      const i = next++;
      await work(i).catch(() => (failed += 1));
      completed += 1;
      onDone?.(completed);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { completed, failed };
}

/** Memory of a process tree from /proc, in MB: RSS summed (counts shared pages again) and PSS. */
export interface TreeMemory {
  processes: number;
  rssMb: number;
  pssMb: number;
}

function children(pid: number): number[] {
  const out: number[] = [];
  for (const task of fs.readdirSync(`/proc/${pid}/task`, { withFileTypes: true })) {
    try {
      const list = fs.readFileSync(`/proc/${pid}/task/${task.name}/children`, 'utf8').trim();
      if (list) out.push(...list.split(/\s+/).map(Number));
    } catch {
      // the thread exited meanwhile
    }
  }
  return out;
}

/** The pid and all its descendants (a process that exits meanwhile is left out). */
export function processTree(pid: number, exclude: (pid: number) => boolean = () => false): number[] {
  const tree: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const current = queue.shift() as number;
    if (exclude(current)) continue;
    tree.push(current);
    try {
      queue.push(...children(current));
    } catch {
      // gone
    }
  }
  return tree;
}

export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

function kbField(text: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

export function treeMemory(pid: number, exclude?: (pid: number) => boolean): TreeMemory {
  let rss = 0;
  let pss = 0;
  let processes = 0;
  for (const p of processTree(pid, exclude)) {
    try {
      const rollup = fs.readFileSync(`/proc/${p}/smaps_rollup`, 'utf8');
      rss += kbField(rollup, 'Rss');
      pss += kbField(rollup, 'Pss');
      processes += 1;
    } catch {
      // exited between listing and reading
    }
  }
  return { processes, rssMb: Math.round(rss / 1024), pssMb: Math.round(pss / 1024) };
}
