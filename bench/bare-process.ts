import { fork } from 'node:child_process';
import path from 'node:path';
import type { Baseline, Viewport } from './baselines.ts';

export interface BareProcess extends Baseline {
  /** The Node process driving this bare-playwright's Chromium (the root of its tree). */
  pid: number;
  /** A capture whose PNG comes back (for the pixel comparison), `settleMs` after `load`. */
  png(url: string, settleMs?: number): Promise<Uint8Array>;
}

/** bare-playwright forked into a Node process of its own (bare-child.ts), ready to capture. */
export async function barePlaywrightProcess(viewport: Viewport): Promise<BareProcess> {
  const child = fork(path.join(import.meta.dirname, 'bare-child.ts'), [JSON.stringify(viewport)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // Node's defaults, as a user's script runs: not the bench's own V8 flags (bin/node-flags).
    execArgv: [],
  });
  const pending = new Map<number, { resolve: (png?: string) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('bare-playwright child did not start in 60 s')), 60_000);
    child.once('exit', (code) => reject(new Error(`bare-playwright child exited (${code})`)));
    child.on('message', (m: { ready?: boolean; id?: number; error?: string; png?: string }) => {
      if (m.ready) {
        clearTimeout(timer);
        resolve();
        return;
      }
      const p = pending.get(m.id as number);
      pending.delete(m.id as number);
      if (m.error) p?.reject(new Error(m.error));
      else p?.resolve(m.png);
    });
  });
  return {
    name: 'bare-playwright',
    pid: child.pid as number,
    capture(url, { fullPage = false } = {}) {
      const id = nextId++;
      return new Promise<Uint8Array>((resolve, reject) => {
        pending.set(id, { resolve: () => resolve(new Uint8Array()), reject });
        child.send({ id, url, fullPage });
      });
    },
    png(url, settleMs = 0) {
      const id = nextId++;
      return new Promise<Uint8Array>((resolve, reject) => {
        pending.set(id, { resolve: (png) => resolve(Buffer.from(png ?? '', 'base64')), reject });
        child.send({ id, url, png: true, settleMs });
      });
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ close: true });
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
