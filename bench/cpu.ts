import type { Baseline } from './baselines.ts';
import { type Stats, stats, timed } from './measure.ts';
import { CPU_CLASSES, type CpuByClass, cpuSampler } from './process-cpu.ts';

/** One contender of the back-to-back run: what one capture does and the process trees it uses. */
export interface CpuContender {
  roots: number[];
  capture(): Promise<unknown>;
}

export interface CpuResult {
  captures: number;
  /** Wall time per capture of the back-to-back runs (each capture timed alone). */
  wall: Stats;
  /** Mean wall time per capture (the runs' elapsed time over their captures). */
  wallMeanMs: number;
  /** CPU ms per capture of the contender's process trees, by process class, and their total. */
  cpuMs: CpuByClass & { total: number };
  /** Whole-machine busy CPU ms per capture (/proc/stat): includes the bench client and any other load. */
  machineMs: number;
  /** Tree CPU ms per capture of each round, to show the spread. */
  perRound: number[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round1 = (v: number) => Math.round(v * 10) / 10;

/**
 * CPU per capture and the back-to-back sequential figure (P8, issue 15): per round, each
 * contender in a rotated order makes `captures` sequential captures with no idle time between
 * them (the next request leaves as the last answer arrives, so a prepared page gets no time to
 * be prepared for free), while its process trees are sampled from /proc. Two unmeasured captures
 * before each run; half a second after it, so work a contender leaves behind (closing a context,
 * preparing the next page) counts for it.
 */
export async function cpuSection(
  contenders: Record<string, CpuContender>,
  captures: number,
  rounds: number,
): Promise<Record<string, CpuResult>> {
  const names = Object.keys(contenders);
  const acc: Record<
    string,
    { walls: number[]; elapsed: number; cpu: CpuByClass; machine: number; perRound: number[] }
  > = {};
  for (let round = 0; round < rounds; round += 1) {
    const order = [...names.slice(round % names.length), ...names.slice(0, round % names.length)];
    for (const name of order) {
      const c = contenders[name] as CpuContender;
      for (let i = 0; i < 2; i += 1) await c.capture();
      await sleep(500);
      const sampler = cpuSampler(c.roots);
      const walls: number[] = [];
      const started = performance.now();
      for (let i = 0; i < captures; i += 1) walls.push(await timed(() => c.capture()));
      const elapsed = performance.now() - started;
      await sleep(500);
      const { byClass, machineMs } = sampler.stop();
      acc[name] ??= {
        walls: [],
        elapsed: 0,
        cpu: Object.fromEntries(CPU_CLASSES.map((k) => [k, 0])) as CpuByClass,
        machine: 0,
        perRound: [],
      };
      const a = acc[name];
      a.walls.push(...walls);
      a.elapsed += elapsed;
      a.machine += machineMs;
      for (const k of CPU_CLASSES) a.cpu[k] += byClass[k];
      a.perRound.push(round1(CPU_CLASSES.reduce((s, k) => s + byClass[k], 0) / captures));
      console.log(
        `  ${name} round ${round + 1}: ${Math.round(elapsed / captures)} ms wall, ${a.perRound.at(-1)} ms tree CPU per capture`,
      );
    }
  }
  const out: Record<string, CpuResult> = {};
  for (const [name, a] of Object.entries(acc)) {
    const n = a.walls.length;
    const cpuMs = Object.fromEntries(CPU_CLASSES.map((k) => [k, round1(a.cpu[k] / n)])) as CpuByClass;
    out[name] = {
      captures: n,
      wall: stats(a.walls),
      wallMeanMs: round1(a.elapsed / n),
      cpuMs: { ...cpuMs, total: round1(CPU_CLASSES.reduce((s, k) => s + a.cpu[k], 0) / n) },
      machineMs: round1(a.machine / n),
      perRound: a.perRound,
    };
  }
  return out;
}

/** The bare-playwright contender of cpuSection, from a baseline forked into its own process. */
export const bareContender = (bare: Baseline & { pid: number }, url: string): CpuContender => ({
  roots: [bare.pid],
  capture: () => bare.capture(url),
});
