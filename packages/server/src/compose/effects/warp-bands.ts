import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * The warp's rows shared between this thread and one worker thread (docs/decisions.md, "The
 * warp on two threads"). A job is a list of bands of rows, each with a parameter block of its own
 * in the module's shared memory; both threads claim bands from one counter until none is left,
 * so a worker that is busy, slow to start or absent only means this thread claims more of them.
 * This thread still waits for the bands the worker has claimed and is running (milliseconds
 * each, longer when the worker is descheduled on a busy machine). A band writes only its own
 * rows, so the result is the same whoever runs which band.
 *
 * The protocol, in the words of a control block (Int32, in a SharedArrayBuffer):
 * - a job is only ever written by this (the main) thread, while it holds `lock`; the worker
 *   takes `lock` before it claims bands of a job and releases it once it claims no more. So the
 *   worker's claims always belong to the job it read, and a late worker can never claim a band
 *   of the next job;
 * - `next` is the claim counter, `done` counts finished bands, `failed` is set when a band threw
 *   (nobody claims more bands of that job then).
 */

/** What a band runs: one of the module's two exports that take a parameter block. */
export const BAND_KIND = { grid: 0, warp: 1 } as const;
export type BandKind = (typeof BAND_KIND)[keyof typeof BAND_KIND];

const WORD = {
  generation: 0,
  lock: 1,
  next: 2,
  count: 3,
  done: 4,
  kind: 5,
  base: 6,
  stride: 7,
  failed: 8,
  length: 9,
} as const;
const UNLOCKED = 0;
const MAIN = 1;
const WORKER = 2;

/** The exports a band calls. */
export interface BandExports {
  warp(params: number): void;
  blurGrid(params: number): void;
}

/** What the worker thread is started with. */
export interface BandWorkerData {
  module: WebAssembly.Module;
  memory: WebAssembly.Memory;
  control: SharedArrayBuffer;
}

/**
 * How long this thread waits, per wait, for the worker to finish a band it runs or to let go of
 * the lock: bands take milliseconds. Beyond it the worker is taken as gone and the job fails
 * (this thread is blocked meanwhile, as during any synchronous warp).
 */
const STALLED_MS = 2_000;

/**
 * Claims and runs bands of the current job until none is left or one failed; returns how many
 * it ran and the error of the first of its own that threw.
 */
function runBands(wasm: BandExports, control: Int32Array): { ran: number; error?: unknown } {
  const count = Atomics.load(control, WORD.count);
  const base = Atomics.load(control, WORD.base);
  const stride = Atomics.load(control, WORD.stride);
  const kind = Atomics.load(control, WORD.kind);
  let ran = 0;
  let error: unknown;
  while (!Atomics.load(control, WORD.failed)) {
    const band = Atomics.add(control, WORD.next, 1);
    if (band >= count) break;
    try {
      if (kind === BAND_KIND.grid) wasm.blurGrid(base + band * stride);
      else wasm.warp(base + band * stride);
      ran += 1;
    } catch (thrown) {
      error ??= thrown;
      Atomics.store(control, WORD.failed, 1);
    } finally {
      Atomics.add(control, WORD.done, 1);
      Atomics.notify(control, WORD.done);
    }
  }
  return error === undefined ? { ran } : { ran, error };
}

/** Waits (blocking this thread) until `word` is no longer `value`, at most STALLED_MS. */
function waitWhile(control: Int32Array, word: number, value: number): void {
  if (Atomics.wait(control, word, value, STALLED_MS) === 'timed-out') {
    throw new Error("the warp's worker thread stopped responding");
  }
}

/** The worker thread's loop: wait for a job, take the lock if bands are left, run them, release. */
export function serveBands({ module, memory, control: shared }: BandWorkerData): never {
  const wasm = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as BandExports;
  const control = new Int32Array(shared);
  let seen = Atomics.load(control, WORD.generation);
  for (;;) {
    Atomics.wait(control, WORD.generation, seen);
    // Read before the look at `next`: a job published after it wakes this loop again at once.
    seen = Atomics.load(control, WORD.generation);
    // A job this thread woke too late for is left alone: taking the lock for nothing would make
    // the main thread wait for it at its next job.
    if (Atomics.load(control, WORD.next) >= Atomics.load(control, WORD.count)) continue;
    while (Atomics.compareExchange(control, WORD.lock, UNLOCKED, WORKER) !== UNLOCKED) {
      Atomics.wait(control, WORD.lock, MAIN, 50);
    }
    runBands(wasm, control);
    Atomics.store(control, WORD.lock, UNLOCKED);
    Atomics.notify(control, WORD.lock);
  }
}

/** Runs jobs of bands on this thread and, when the machine has a second core, a worker. */
export interface BandRunner {
  /**
   * Runs `count` bands of `kind`, band i with the parameter block at `base + i * stride`, and
   * returns once all are done. Throws if one failed (its error as the cause when it was this
   * thread's) or the worker stopped responding.
   */
  run(wasm: BandExports, kind: BandKind, base: number, stride: number, count: number): void;
  /** Bands run since the runner started, and how many of them this thread ran. */
  stats(): { bands: number; onThisThread: number };
  /** Stops the worker. */
  close(): void;
}

export function createBandRunner(module: WebAssembly.Module, memory: WebAssembly.Memory): BandRunner {
  const shared = new SharedArrayBuffer(WORD.length * 4);
  const control = new Int32Array(shared);
  const counts = { bands: 0, onThisThread: 0 };
  const worker = availableParallelism() > 1 ? startWorker({ module, memory, control: shared }) : undefined;

  const lock = () => {
    for (;;) {
      const holder = Atomics.compareExchange(control, WORD.lock, UNLOCKED, MAIN);
      if (holder === UNLOCKED) return;
      waitWhile(control, WORD.lock, holder);
    }
  };

  return {
    run(wasm, kind, base, stride, count) {
      lock();
      Atomics.store(control, WORD.kind, kind);
      Atomics.store(control, WORD.base, base);
      Atomics.store(control, WORD.stride, stride);
      Atomics.store(control, WORD.count, count);
      Atomics.store(control, WORD.done, 0);
      Atomics.store(control, WORD.failed, 0);
      Atomics.store(control, WORD.next, 0);
      Atomics.add(control, WORD.generation, 1);
      Atomics.store(control, WORD.lock, UNLOCKED);
      Atomics.notify(control, WORD.generation);
      Atomics.notify(control, WORD.lock);
      const mine = runBands(wasm, control);
      counts.onThisThread += mine.ran;
      // Every claimed band counts in `done`, failed or not; unclaimed ones after a failure never will.
      const claimed = () => Math.min(count, Atomics.load(control, WORD.next));
      for (
        let done = Atomics.load(control, WORD.done);
        done < claimed();
        done = Atomics.load(control, WORD.done)
      ) {
        waitWhile(control, WORD.done, done);
      }
      counts.bands += count;
      if (Atomics.load(control, WORD.failed)) {
        throw new Error('a band of the warp failed', mine.error === undefined ? {} : { cause: mine.error });
      }
    },
    stats: () => ({ ...counts }),
    close() {
      void worker?.terminate();
    },
  };
}

/** The worker, or none when it cannot start: every band then runs on this thread. */
function startWorker(workerData: BandWorkerData): Worker | undefined {
  try {
    const worker = new Worker(new URL('./warp-worker.ts', import.meta.url), { workerData });
    // A worker that fails later only stops claiming bands; this thread claims the rest.
    worker.on('error', () => undefined);
    worker.unref();
    return worker;
  } catch {
    return undefined;
  }
}
