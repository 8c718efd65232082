import type { BrowserContext, BrowserContextOptions, CDPSession, Page } from 'playwright-core';
import { AppError } from '../errors/app-error.ts';
import { raceAbort, settlesWithin } from './abort-race.ts';
import { type BrowserProxy, launchBrowserProcess } from './browser-process.ts';
import { type BrowserInstance, createBrowserSupervisor } from './browser-supervisor.ts';
import { captureFailed, renderFailed } from './capture-errors.ts';
import { type CaptureSlots, createCaptureSlots } from './capture-slots.ts';
import { type PreparedPage, preparePage } from './prepared-page.ts';
import { paceFor, type SparePace } from './spare-pacing.ts';

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
  /** How long the browser, or the pool's work in flight, may take to close; default 3000. */
  closeTimeoutMs?: number;
  /**
   * How long a used context may take to close before its browser is taken for wedged; default
   * 10000. A context closes in tens of milliseconds, but on two cores under heavy load one took
   * over 3 s, and a browser taken for wedged fails every capture it holds: the margin is wide.
   */
  contextCloseTimeoutMs?: number;
  /** Compositions at once (browser-mode compose, `runCompose`); default `concurrency`. */
  composeConcurrency?: number;
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
   * Tells the pool the page has loaded. When captures come back to back (spare-pacing.ts), the
   * pool prepares the next page then; not earlier, because a renderer spawned during this
   * navigation slowed it by ~100 ms on two cores (bench phases). A full page calls it after its
   * shot instead: its scroll and 14.4 MP shot left no room. Otherwise, and in case this is never
   * called, the pool prepares the next page once the capture ends. Idempotent.
   */
  loaded(): void;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Overrides the pool's hard deadline for this capture. */
  deadlineMs?: number;
  /**
   * The caller's work on this capture after the lease (compose, encode, store). When the pool
   * prepares its next page after a capture (spare-pacing.ts, `after`), it starts once this has
   * settled, and so does the close of the used context: a renderer starting or shutting down
   * beside the compose and the encode shares the two cores with them (heavy page: compose
   * 74 -> 47 ms, encode 109 -> 91 ms when the next page waits; simple page: encode 21 -> 12 ms
   * when the close waits too).
   */
  afterwards?: Promise<unknown>;
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
  /** When the next capture's page is prepared (spare-pacing.ts). */
  sparePace: SparePace;
  /** Capture pages the pool started preparing in advance since it started. */
  sparesStarted: number;
  /** Compositions (`runCompose`) holding a slot, waiting, finished and failed. */
  compose: { inFlight: number; queued: number; runs: number; failures: number };
}

export interface BrowserPool {
  /** Runs `fn` on a fresh page under the pool's limits; the page is torn down afterwards. */
  run<T>(fn: (lease: PageLease) => Promise<T>, options?: RunOptions): Promise<T>;
  /**
   * Like `run`, for browser-mode composition: its own slots and prepared page, so a composition
   * never waits behind captures, never counts toward `recycleAfter`, and is never refused with
   * 503 once its capture is done (its queue is bounded by the captures that reach it).
   */
  runCompose<T>(fn: (lease: PageLease) => Promise<T>, options?: RunOptions): Promise<T>;
  stats(): BrowserPoolStats;
  /** Stops accepting, lets in-flight captures finish up to `timeoutMs`, then closes Chromium. */
  close(timeoutMs?: number): Promise<void>;
}

/** How long a page that failed to open waits for its browser's exit to be reported. */
const EXIT_NOTICE_MS = 1000;

/** A kind of lease: its own gate, counters and prepared pages; only captures recycle the browser. */
interface LeaseClass {
  name: 'capture' | 'compose';
  slots: CaptureSlots;
  counts: { runs: number; failures: number };
  /** Pages kept prepared per browser once this class is in use. */
  spares: number;
  /** When the next page is prepared (spare-pacing.ts), and what that is decided by. */
  pace: SparePace;
  lastEndedAt?: number;
  prepareMs?: number;
  sparesStarted: number;
  recycles: boolean;
}

/**
 * A supervised Chromium (security.md 5) behind two gates: captures (bounded concurrency and queue,
 * recycling after N) and compositions (their own slots). Each lease gets a fresh context, usually
 * prepared in advance, and a hard deadline that tears down the context, then the browser, then
 * kills the process. The browser's life (launch, relaunch after an exit, recycling, death) is the
 * supervisor's (browser-supervisor.ts); this file is the gates and the lease.
 */
export function createBrowserPool(options: BrowserPoolOptions): BrowserPool {
  const closeTimeoutMs = options.closeTimeoutMs ?? 3000;
  const contextCloseTimeoutMs = options.contextCloseTimeoutMs ?? 10_000;
  let accepting = true;
  let averageMs = 2000;
  const inFlight = new Set<Promise<unknown>>();

  const capture: LeaseClass = {
    name: 'capture',
    slots: createCaptureSlots({
      concurrency: options.concurrency,
      queueLimit: options.queueLimit,
      retryAfter: (ahead) => Math.max(1, Math.ceil(((ahead / options.concurrency) * averageMs) / 1000)),
    }),
    counts: { runs: 0, failures: 0 },
    spares: options.preparedPages ?? 1,
    pace: 'after',
    sparesStarted: 0,
    recycles: true,
  };
  const compose: LeaseClass = {
    name: 'compose',
    slots: createCaptureSlots({
      concurrency: options.composeConcurrency ?? options.concurrency,
      queueLimit: Number.POSITIVE_INFINITY,
      retryAfter: () => 1,
    }),
    counts: { runs: 0, failures: 0 },
    spares: 1,
    pace: 'after',
    sparesStarted: 0,
    recycles: false,
  };

  const newPage = (instance: BrowserInstance) =>
    preparePage(instance.process.browser, options.contextOptions ?? {}, options.setupContext);

  // Nothing is prepared while leases wait for a slot: the next one starts as soon as a slot
  // frees and opens its own page. The cores are the limit then, so a page prepared in advance
  // saves no work, and it held one more renderer and its context (docs/decisions.md, "No page
  // is prepared while captures queue").
  const fillSpares = (instance: BrowserInstance, kind: LeaseClass) => {
    const spares = instance.spares.get(kind.name) ?? [];
    instance.spares.set(kind.name, spares);
    while (
      accepting &&
      instance.state === 'live' &&
      spares.length < kind.spares &&
      kind.slots.queued() === 0
    ) {
      const startedAt = performance.now();
      const spare = newPage(instance);
      spare.then(
        () => {
          kind.prepareMs = performance.now() - startedAt;
        },
        () => undefined,
      );
      kind.sparesStarted += 1;
      spares.push(spare);
    }
  };

  const supervisor = createBrowserSupervisor({
    launch: () =>
      launchBrowserProcess({
        executablePath: options.executablePath,
        args: options.args,
        proxy: options.proxy,
      }),
    closeTimeoutMs,
    onLive: (instance) => fillSpares(instance, capture),
  });

  const takePage = async (instance: BrowserInstance, kind: LeaseClass): Promise<PreparedPage> => {
    // The spare is replaced when this lease ends, or once its page has loaded when the pool
    // prepares ahead (`PageLease.loaded`).
    if (kind.spares > 0) {
      kind.pace = paceFor({
        othersRunning: kind.slots.running() - 1,
        sinceLastEnd: kind.lastEndedAt === undefined ? undefined : performance.now() - kind.lastEndedAt,
        prepareMs: kind.prepareMs,
      });
    }
    const spare = instance.spares.get(kind.name)?.shift();
    if (spare) {
      const prepared = await spare.catch(() => undefined);
      if (prepared && !prepared.page.isClosed()) return prepared;
    }
    return newPage(instance);
  };

  /** A live browser and a page on it; a browser that died between leases is relaunched once. */
  const openLease = async (kind: LeaseClass, aborter: AbortController) => {
    for (let attempt = 0; ; attempt += 1) {
      const instance = await raceAbort(supervisor.live(), aborter.signal).catch((error: unknown) => {
        throw error instanceof AppError ? error : renderFailed(error, 'The browser could not be started');
      });
      const end = supervisor.attach(instance, aborter);
      if (kind.recycles) {
        instance.captures += 1;
        if (instance.captures >= options.recycleAfter) {
          supervisor.retire(instance);
          supervisor.live().catch(() => undefined);
        }
      }
      const pagePromise = takePage(instance, kind);
      try {
        return { instance, end, prepared: await raceAbort(pagePromise, aborter.signal) };
      } catch (error) {
        supervisor.track(pagePromise.then((late) => late.context.close()));
        end();
        // A killed browser can fail a page before its exit reaches us: give the exit a moment.
        const exited = new Promise<void>((resolve) => instance.process.onExit(resolve));
        const gone = !instance.process.browser.isConnected() || (await settlesWithin(exited, EXIT_NOTICE_MS));
        if (attempt > 0 || aborter.signal.aborted || !gone) {
          throw renderFailed(error, 'The browser could not open a page');
        }
        supervisor.markDead(instance, captureFailed('render_failed', 'The browser exited'));
      }
    }
  };

  /** Closes a used context; one that does not close in time means a wedged browser. */
  const teardown = async (instance: BrowserInstance, prepared: PreparedPage, end: () => void) => {
    const closed = await settlesWithin(prepared.context.close(), contextCloseTimeoutMs);
    end();
    if (!closed)
      supervisor.markDead(instance, captureFailed('render_failed', 'The browser stopped responding'));
  };

  const runInSlot = async <T>(
    kind: LeaseClass,
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
    let opened: Awaited<ReturnType<typeof openLease>> | undefined;
    let ok = false;
    try {
      opened = await openLease(kind, aborter);
      const { instance, prepared } = opened;
      prepared.page.on('crash', () => aborter.abort(captureFailed('render_failed', 'The page crashed')));
      const lease: PageLease = {
        ...prepared,
        signal: aborter.signal,
        queueMs,
        contextMs: performance.now() - started,
        loaded: () => {
          if (kind.pace === 'ahead') fillSpares(instance, kind);
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
      kind.counts.runs += 1;
      if (!ok) kind.counts.failures += 1;
      if (kind.recycles) averageMs = averageMs * 0.8 + (performance.now() - started) * 0.2;
      kind.lastEndedAt = performance.now();
      if (opened) {
        const { instance, prepared, end } = opened;
        // The next page: this browser's, or its successor's when it is being recycled (a capture
        // browser not yet live prepares its own once it is; the next composition after a
        // relaunch opens its page then). Spaced out (`after`), both it and the used context's
        // close wait for the caller's work (`RunOptions.afterwards`).
        const prepareNext = () => {
          const next = supervisor.current();
          if (next) fillSpares(next, kind);
        };
        const closeUsed = () => supervisor.track(teardown(instance, prepared, end));
        if (kind.pace === 'after' && runOptions.afterwards) {
          const next = () => {
            closeUsed();
            prepareNext();
          };
          runOptions.afterwards.then(next, next);
        } else {
          prepareNext();
          closeUsed();
        }
      }
    }
  };

  const gate = async <T>(kind: LeaseClass, fn: (lease: PageLease) => Promise<T>, runOptions: RunOptions) => {
    if (!accepting) throw new AppError('overloaded', 'The service is shutting down', { retryAfter: 5 });
    const queuedAt = performance.now();
    const release = await kind.slots.acquire(runOptions.signal);
    const running = runInSlot(kind, fn, runOptions, performance.now() - queuedAt).finally(release);
    inFlight.add(running);
    running.catch(() => undefined).finally(() => inFlight.delete(running));
    return running;
  };

  return {
    run: (fn, runOptions = {}) => gate(capture, fn, runOptions),
    runCompose: (fn, runOptions = {}) => gate(compose, fn, runOptions),
    stats: () => ({
      inFlight: capture.slots.running(),
      queued: capture.slots.queued(),
      launches: supervisor.launches(),
      captures: capture.counts.runs,
      failures: capture.counts.failures,
      browserPid: supervisor.current()?.process.pid,
      sparePace: capture.pace,
      sparesStarted: capture.sparesStarted,
      compose: {
        inFlight: compose.slots.running(),
        queued: compose.slots.queued(),
        runs: compose.counts.runs,
        failures: compose.counts.failures,
      },
    }),
    async close(timeoutMs = 10_000) {
      accepting = false;
      capture.slots.shut('The service is shutting down');
      compose.slots.shut('The service is shutting down');
      await settlesWithin(Promise.allSettled([...inFlight]), timeoutMs);
      supervisor.abortAll(captureFailed('render_failed', 'The service shut down during the capture'));
      await settlesWithin(Promise.allSettled([...inFlight]), closeTimeoutMs);
      await supervisor.close();
    },
  };
}
