import type { BrowserContext, BrowserContextOptions, CDPSession, Page } from 'playwright-core';
import { AppError } from '../errors/app-error.ts';
import { raceAbort, settlesWithin } from './abort-race.ts';
import { type BrowserProcess, type BrowserProxy, launchBrowserProcess } from './browser-process.ts';
import { captureFailed, renderFailed } from './capture-errors.ts';
import { createCaptureSlots } from './capture-slots.ts';
import { type PreparedPage, preparePage } from './prepared-page.ts';

/** How the pool runs Chromium. Defaults come from config/browser-section.ts. */
export interface BrowserPoolOptions {
  executablePath: string;
  /** Captures at once (about one per core). */
  concurrency: number;
  /** Captures allowed to wait; beyond it `run` fails at once with 503 `overloaded`. */
  queueLimit: number;
  /** Replace the browser after this many captures. */
  recycleAfter: number;
  /** Hard deadline of one capture, from the moment it gets a slot. */
  captureTimeoutMs: number;
  /** Extra Chromium switches (e.g. the egress proxy's `args`). */
  args?: readonly string[];
  /** Proxy for every Chromium connection (e.g. the egress proxy's `proxy`). */
  proxy?: BrowserProxy;
  /** Extra options of every capture context. */
  contextOptions?: BrowserContextOptions;
  /** Runs on every new capture context before its page opens (e.g. a counting route). */
  setupContext?: (context: BrowserContext) => Promise<void>;
  /** Contexts kept ready for the next captures; default 1. */
  preparedPages?: number;
  /** How long a context or browser may take to close before the next escalation; default 3000. */
  closeTimeoutMs?: number;
}

/** The page a capture works on, valid until its `run` callback settles. */
export interface PageLease {
  page: Page;
  context: BrowserContext;
  /** CDP session of `page` (emulation, capture). */
  cdp: CDPSession;
  /** Aborts on the deadline, a page crash, the browser's exit, the caller's signal or shutdown. */
  signal: AbortSignal;
  /** Milliseconds spent waiting for a free slot. */
  queueMs: number;
  /** Milliseconds spent getting the page once in a slot (launch, preparation). */
  contextMs: number;
  /**
   * Tells the pool the page has loaded: it then prepares the next page. Not earlier, because a
   * renderer spawned during this navigation slowed it by ~100 ms on two cores (bench phases);
   * what follows (waits on frames, the shot, encoding) leaves room. Idempotent; the pool also
   * prepares after the capture ends, in case this is never called.
   */
  loaded(): void;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Overrides the pool's hard deadline for this capture. */
  deadlineMs?: number;
}

export interface BrowserPoolStats {
  /** Captures holding a slot. */
  inFlight: number;
  queued: number;
  launches: number;
  /** Captures finished since the pool started, successful or not. */
  captures: number;
  failures: number;
  /** Process id of the current Chromium, if one runs. */
  browserPid: number | undefined;
}

export interface BrowserPool {
  /** Runs `fn` on a fresh page under the pool's limits; the page is torn down afterwards. */
  run<T>(fn: (lease: PageLease) => Promise<T>, options?: RunOptions): Promise<T>;
  stats(): BrowserPoolStats;
  /** Stops accepting, lets in-flight captures finish up to `timeoutMs`, then closes Chromium. */
  close(timeoutMs?: number): Promise<void>;
}

interface Generation {
  process: BrowserProcess;
  captures: number;
  inFlight: number;
  retiring: boolean;
  dead: boolean;
  spares: Promise<PreparedPage>[];
  aborters: Set<AbortController>;
}

/** How long a page that failed to open waits for its browser's exit to be reported. */
const EXIT_NOTICE_MS = 1000;

/**
 * A supervised Chromium (security.md 5): one warm browser, the next pages prepared in advance,
 * bounded concurrency and queue, a hard deadline per capture that tears down the context, then
 * the browser, then kills the process; relaunch after an exit, recycling after N captures.
 */
export function createBrowserPool(options: BrowserPoolOptions): BrowserPool {
  const closeTimeoutMs = options.closeTimeoutMs ?? 3000;
  const preparedPages = options.preparedPages ?? 1;
  let current: Generation | undefined;
  let launching: Promise<Generation> | undefined;
  let accepting = true;
  let averageMs = 2000;
  const counts = { launches: 0, captures: 0, failures: 0 };
  const generations = new Set<Generation>();
  const inFlight = new Set<Promise<unknown>>();
  const teardowns = new Set<Promise<unknown>>();

  const slots = createCaptureSlots({
    concurrency: options.concurrency,
    queueLimit: options.queueLimit,
    retryAfter: (ahead) => Math.max(1, Math.ceil(((ahead / options.concurrency) * averageMs) / 1000)),
  });

  const track = (promise: Promise<unknown>) => {
    const settled = promise.catch(() => undefined).finally(() => teardowns.delete(settled));
    teardowns.add(settled);
  };

  const disposeSpare = (spare: Promise<PreparedPage>) =>
    track(spare.then((prepared) => prepared.context.close()));

  const retire = (generation: Generation) => {
    generation.retiring = true;
    if (current === generation) current = undefined;
    for (const spare of generation.spares.splice(0)) disposeSpare(spare);
    if (generation.inFlight === 0) {
      generations.delete(generation);
      track(generation.process.close(closeTimeoutMs));
    }
  };

  const fillSpares = (generation: Generation) => {
    while (
      accepting &&
      !generation.retiring &&
      !generation.dead &&
      generation.spares.length < preparedPages
    ) {
      const spare = preparePage(
        generation.process.browser,
        options.contextOptions ?? {},
        options.setupContext,
      );
      spare.catch(() => undefined);
      generation.spares.push(spare);
    }
  };

  const launch = async (): Promise<Generation> => {
    const process = await launchBrowserProcess({
      executablePath: options.executablePath,
      args: options.args,
      proxy: options.proxy,
    });
    counts.launches += 1;
    const generation: Generation = {
      process,
      captures: 0,
      inFlight: 0,
      retiring: false,
      dead: false,
      spares: [],
      aborters: new Set(),
    };
    generations.add(generation);
    const onGone = () => {
      if (generation.dead && generation.aborters.size === 0) return;
      generation.dead = true;
      generation.spares.length = 0;
      if (current === generation) current = undefined;
      if (generation.inFlight === 0) generations.delete(generation);
      const error = captureFailed('render_failed', 'The browser exited during the capture');
      for (const aborter of generation.aborters) aborter.abort(error);
    };
    process.browser.on('disconnected', onGone);
    process.onExit(onGone);
    current = generation;
    fillSpares(generation);
    return generation;
  };

  const ensureGeneration = (): Promise<Generation> => {
    if (current && (!current.process.alive() || !current.process.browser.isConnected())) current.dead = true;
    if (current && !current.dead && !current.retiring) return Promise.resolve(current);
    if (!launching) {
      launching = launch().finally(() => {
        launching = undefined;
      });
    }
    return launching;
  };

  const takePage = async (generation: Generation): Promise<PreparedPage> => {
    // The spare is replaced once this capture's page has loaded (`PageLease.loaded`).
    const spare = generation.spares.shift();
    if (spare) {
      const prepared = await spare.catch(() => undefined);
      if (prepared && !prepared.page.isClosed()) return prepared;
    }
    return preparePage(generation.process.browser, options.contextOptions ?? {}, options.setupContext);
  };

  /** Closes a used context; if that hangs, the browser; if that hangs, the process is killed. */
  const teardown = async (generation: Generation, prepared: PreparedPage | undefined) => {
    if (prepared && (await settlesWithin(prepared.context.close(), closeTimeoutMs))) return;
    if (!prepared && !generation.dead) return;
    generation.dead = true;
    if (current === generation) current = undefined;
    await generation.process.close(closeTimeoutMs);
  };

  const finish = (generation: Generation) => {
    generation.inFlight -= 1;
    if (generation.inFlight > 0) return;
    if (generation.dead) generations.delete(generation);
    else if (generation.retiring) retire(generation);
  };

  const runInSlot = async <T>(
    fn: (lease: PageLease) => Promise<T>,
    runOptions: RunOptions,
    queueMs: number,
  ): Promise<T> => {
    const started = performance.now();
    const aborter = new AbortController();
    const deadlineMs = runOptions.deadlineMs ?? options.captureTimeoutMs;
    const timer = setTimeout(
      () =>
        aborter.abort(
          captureFailed(
            'render_failed',
            `The capture did not finish within its deadline of ${deadlineMs} ms`,
            {
              details: { deadline_ms: deadlineMs },
            },
          ),
        ),
      deadlineMs,
    );
    const onCallerAbort = () => aborter.abort(runOptions.signal?.reason);
    runOptions.signal?.addEventListener('abort', onCallerAbort, { once: true });
    let generation: Generation | undefined;
    let prepared: PreparedPage | undefined;
    let ok = false;
    try {
      // A browser that died between captures is noticed when its page fails to open: relaunch once.
      for (let attempt = 0; prepared === undefined; attempt += 1) {
        const used = await raceAbort(ensureGeneration(), aborter.signal).catch((error: unknown) => {
          throw error instanceof AppError ? error : renderFailed(error, 'The browser could not be started');
        });
        generation = used;
        used.inFlight += 1;
        used.aborters.add(aborter);
        used.captures += 1;
        if (used.captures >= options.recycleAfter) {
          retire(used);
          ensureGeneration().catch(() => undefined);
        }
        const pagePromise = takePage(used);
        try {
          prepared = await raceAbort(pagePromise, aborter.signal);
        } catch (error) {
          track(pagePromise.then((late) => late.context.close()));
          // A killed browser can fail a page before its exit reaches us: give the exit a moment.
          const exited = new Promise<void>((resolve) => used.process.onExit(resolve));
          const gone = !used.process.browser.isConnected() || (await settlesWithin(exited, EXIT_NOTICE_MS));
          if (attempt > 0 || aborter.signal.aborted || !gone) {
            throw renderFailed(error, 'The browser could not open a page');
          }
          used.dead = true;
          if (current === used) current = undefined;
          used.aborters.delete(aborter);
          finish(used);
          generation = undefined;
        }
      }
      prepared.page.on('crash', () => aborter.abort(captureFailed('render_failed', 'The page crashed')));
      const owner = generation;
      const lease: PageLease = {
        ...prepared,
        signal: aborter.signal,
        queueMs,
        contextMs: performance.now() - started,
        loaded: () => {
          if (owner) fillSpares(owner);
        },
      };
      const work = fn(lease);
      work.catch(() => undefined);
      const result = await raceAbort(work, aborter.signal);
      ok = true;
      return result;
    } catch (error) {
      if (aborter.signal.aborted && aborter.signal.reason !== undefined) throw aborter.signal.reason;
      throw error;
    } finally {
      clearTimeout(timer);
      runOptions.signal?.removeEventListener('abort', onCallerAbort);
      counts.captures += 1;
      if (!ok) counts.failures += 1;
      averageMs = averageMs * 0.8 + (performance.now() - started) * 0.2;
      if (generation) {
        const used = generation;
        used.aborters.delete(aborter);
        const done = teardown(used, prepared).finally(() => {
          finish(used);
          if (current) fillSpares(current);
        });
        track(done);
      }
    }
  };

  return {
    async run(fn, runOptions = {}) {
      if (!accepting) throw new AppError('overloaded', 'The service is shutting down', { retryAfter: 5 });
      const queuedAt = performance.now();
      const release = await slots.acquire(runOptions.signal);
      const running = runInSlot(fn, runOptions, performance.now() - queuedAt).finally(release);
      inFlight.add(running);
      running.catch(() => undefined).finally(() => inFlight.delete(running));
      return running;
    },
    stats: () => ({
      inFlight: slots.running(),
      queued: slots.queued(),
      ...counts,
      browserPid: current?.process.pid,
    }),
    async close(timeoutMs = 10_000) {
      accepting = false;
      slots.shut('The service is shutting down');
      await settlesWithin(Promise.allSettled([...inFlight]), timeoutMs);
      const stopping = captureFailed('render_failed', 'The service shut down during the capture');
      for (const generation of generations)
        for (const aborter of generation.aborters) aborter.abort(stopping);
      await settlesWithin(Promise.allSettled([...inFlight]), closeTimeoutMs);
      await launching?.catch(() => undefined);
      await Promise.allSettled([...teardowns]);
      await Promise.allSettled(
        [...generations].map((generation) => generation.process.close(closeTimeoutMs)),
      );
      generations.clear();
      current = undefined;
    },
  };
}
