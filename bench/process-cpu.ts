import fs from 'node:fs';
import { commandLine, processTree, sleep } from './measure.ts';

/**
 * CPU time per process class of a process tree, read from /proc/<pid>/stat (utime + stime).
 * `node` is the tree's root (the service, or the Node process driving bare Playwright); the
 * Chromium processes are told apart by their `--type=` switch (none: the browser process).
 * Vitrine's egress proxy runs inside the service's Node process, so it is part of `node`.
 */
export const CPU_CLASSES = ['node', 'browser', 'renderer', 'gpu+utility', 'other'] as const;
export type CpuClass = (typeof CPU_CLASSES)[number];
export type CpuByClass = Record<CpuClass, number>;

const TICK_MS = 1000 / 100; // USER_HZ is 100 on Linux (sysconf(_SC_CLK_TCK))

export function classify(pid: number, root: number): CpuClass {
  if (pid === root) return 'node';
  const cmd = commandLine(pid);
  if (!/chrom/i.test(cmd.split(' ')[0] ?? '')) return 'other';
  if (/chrome_crashpad_handler/.test(cmd)) return 'other';
  const type = /--type=([\w-]+)/.exec(cmd)?.[1];
  if (!type) return 'browser';
  if (type === 'renderer') return 'renderer';
  if (type === 'gpu-process' || type === 'utility') return 'gpu+utility';
  return 'other'; // the zygotes (a renderer they fork is classed again once it renames itself)
}

/** utime + stime (ms) and the start time (ticks since boot, tells a reused pid apart). */
function readStat(pid: number): { cpuMs: number; start: string } | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): utime is field 14, stime 15, starttime 22.
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return { cpuMs: (utime + stime) * TICK_MS, start: fields[19] as string };
  } catch {
    return undefined;
  }
}

/** Busy CPU time of the whole machine so far (ms summed over cores), from /proc/stat. */
export function machineBusyMs(): number {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] as string;
  const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * TICK_MS;
}

/** Turns that began on a quiet machine, and those that began after `untilQuiet` gave up. */
export const quietTurns = { quiet: 0, gaveUp: 0 };

/** CPUs /proc/stat counts in its first line (every CPU of the host, whatever this process may use). */
const STAT_CPUS = fs.readFileSync('/proc/stat', 'utf8').match(/^cpu\d+ /gm)?.length ?? 1;

/**
 * Waits until the machine has been quiet for one window (at most `busyShare` of its CPUs busy
 * over `windowMs`), at most `maxMs`; says whether it went quiet, and counts it in `quietTurns`.
 * Before each contender's turn: a service preparing its next page, or a context of the last
 * capture still closing, would otherwise run on the next contender's time and slow it down, not
 * the one that left the work behind.
 */
export async function untilQuiet({ windowMs = 150, busyShare = 0.1, maxMs = 3000 } = {}): Promise<boolean> {
  const deadline = performance.now() + maxMs;
  while (performance.now() < deadline) {
    const before = machineBusyMs();
    await sleep(windowMs);
    if (machineBusyMs() - before <= busyShare * STAT_CPUS * windowMs) {
      quietTurns.quiet += 1;
      return true;
    }
  }
  quietTurns.gaveUp += 1;
  return false;
}

interface Seen {
  cls: CpuClass;
  base: number;
  last: number;
}

/**
 * Samples the trees of `roots` every `everyMs` until stopped, and returns the CPU each class
 * used meanwhile. A process seen at the start counts from its value then; one born later from
 * zero. A process that exits between two samples loses what it used since the last one (a few
 * ms of a renderer's shutdown at 50 ms sampling): a slight undercount, alike for all contenders.
 */
export function cpuSampler(roots: number[], everyMs = 50) {
  const seen = new Map<string, Seen>();
  const sample = (first: boolean) => {
    for (const root of roots)
      for (const pid of processTree(root)) {
        const stat = readStat(pid);
        if (!stat) continue;
        const key = `${pid}:${stat.start}`;
        const known = seen.get(key);
        if (known) {
          known.last = stat.cpuMs;
          // A renderer forked by the zygote shows the zygote's command line until it renames itself.
          if (known.cls === 'other') known.cls = classify(pid, root);
        } else seen.set(key, { cls: classify(pid, root), base: first ? stat.cpuMs : 0, last: stat.cpuMs });
      }
  };
  sample(true);
  const machineStart = machineBusyMs();
  const timer = setInterval(() => sample(false), everyMs);
  return {
    stop(): { byClass: CpuByClass; machineMs: number } {
      clearInterval(timer);
      sample(false);
      const byClass = Object.fromEntries(CPU_CLASSES.map((c) => [c, 0])) as CpuByClass;
      for (const s of seen.values()) byClass[s.cls] += s.last - s.base;
      return { byClass, machineMs: machineBusyMs() - machineStart };
    },
  };
}
