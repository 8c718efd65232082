import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cpuSampler } from '../../bench/process-cpu.ts';

describe('bench: CPU per process class from /proc', () => {
  it('counts the CPU a process of the tree used while sampled', async () => {
    // The child burns 300 ms of its own CPU time (not wall time: the machine may be loaded),
    // says so, and stays alive until its stdin closes, so the last sample sees all of it.
    const child = spawn(
      process.execPath,
      [
        '-e',
        `const t = process.cpuUsage(); while ((process.cpuUsage(t).user + process.cpuUsage(t).system) < 300000) {}
         process.stdout.write('done'); process.stdin.resume();`,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    try {
      const sampler = cpuSampler([child.pid as number], 20);
      await new Promise<void>((resolve, reject) => {
        child.stdout.once('data', () => resolve());
        child.once('exit', (code) => reject(new Error(`child exited early (${code})`)));
      });
      const { byClass, machineMs } = sampler.stop();
      // The root of a sampled tree is its `node` process; 10 ms ticks, and the child's start-up
      // before the first sample is not counted, hence the margin below 300 ms.
      expect(byClass.node).toBeGreaterThanOrEqual(200);
      expect(byClass.node).toBeLessThan(5000);
      expect(byClass.renderer + byClass.browser).toBe(0);
      expect(machineMs).toBeGreaterThanOrEqual(byClass.node - 20);
    } finally {
      child.stdin.end();
      child.kill();
    }
  }, 60_000);
});
