import type { BrowserContext, Page } from 'playwright-core';
import { evaluateInPage } from './page-evaluate.ts';

/**
 * How far the page's own clock is run ahead to finish script-driven animations (Chart.js,
 * count-ups, requestAnimationFrame loops, timers). Every capture context runs on Playwright's
 * page clock (`context.clock.install()`): time flows naturally until the capture, then the page's
 * pending timers and animation frames are run back to back, without waiting for real time, until
 * nothing is due within `quietMs` (docs/decisions.md, "Finished animations"). Data the page still
 * fetches (`fetch`, XMLHttpRequest) is waited for in real time first, up to `requestWaitMs`.
 */
export interface AnimationBudget {
  /** Most page time run ahead; a page still busy then "never settles" and gets a warning. */
  pageMs: number;
  /** Most real time spent running it (a heavy rAF loop costs CPU per frame). */
  wallMs: number;
  /** Settled: no timer or animation frame due within this much page time. */
  quietMs: number;
  /** Page time run per step between checks. */
  stepMs: number;
  /**
   * Page time between two animation frames while the clock runs ahead (the page's own 60 Hz is
   * 16 ms). Animations driven by requestAnimationFrame measure their progress from the time they
   * are given (Chart.js, CountUp, D3, GSAP, zrender), so they end at the same state in a sixth of
   * the frames: each frame is a redraw of the page's charts, the bulk of a dashboard's settling.
   * Kept under 500 ms, where GSAP's lag smoothing would take a frame for a stall.
   */
  frameMs: number;
  /** Most real time spent waiting for the page's fetch and XMLHttpRequest requests in flight. */
  requestWaitMs: number;
  /**
   * Real time the page's requests must have been done before the clock runs ahead: a response
   * is read (`response.json()`) and rendered a few tasks after its request ended, and the page
   * may ask for more then.
   */
  requestQuietMs: number;
}

export const ANIMATION_BUDGET: AnimationBudget = {
  // 300 frames at `frameMs`: an animation that moves a step per frame (a hand-written counter)
  // still ends within it, as it did within 10 s at 60 Hz for up to 5 s of such frames.
  pageMs: 30_000,
  wallMs: 3000,
  quietMs: 1000,
  stepMs: 100,
  frameMs: 100,
  requestWaitMs: 5000,
  requestQuietMs: 100,
};

/** What finishing did: page time run, and whether the page went quiet within the budget. */
export interface FinishedAnimations {
  ranMs: number;
  settled: boolean;
  /** A `<video>` was playing: its frame depends on when the shot is taken. */
  videoPlaying: boolean;
  /** The page's fetch and XMLHttpRequest requests still in flight when the wait for them ended. */
  requestsPending: number;
  /** Images the page added after its load still loading then (see `loadingImages`). */
  imagesPending: number;
  /** Real time spent running the clock ahead (waits for requests excluded). */
  clockWallMs: number;
  /** The page's scroll state once settled (a full page decides from it whether to scroll on). */
  scroll: ScrollState;
}

/**
 * The gate's state the init script reads: unset (the page sees everything), `reveal` (a full-page
 * scroll: elements entering the viewport are reported, leaving it is not, so a count-up or
 * reveal started on the way down is not reset further down), `top` (the return to the top: the
 * page sees it all, so a navbar that changes on scroll and a scroll spy return to their top
 * state; keep-revealed.ts puts back what that undid below the first screen), `frozen` (the page
 * no longer sees scrolls, resizes or intersections).
 */
export const GATE = 'vitrine.gate';
export type PageGate = 'reveal' | 'top' | 'frozen';

/**
 * Installed in every capture context before its page opens: the page clock, a count of the page's
 * `fetch` and XMLHttpRequest requests in flight (finishAnimations waits for them), and a gate in
 * front of scroll and resize events and IntersectionObserver callbacks. A full-page capture opens it in
 * `reveal` for its scroll through the page, and closes it (`frozen`) once at the bottom and
 * settled, so that returning to the top for the shot does not make scroll-reveal libraries hide
 * the sections below again.
 */
export async function installPageClock(context: BrowserContext): Promise<void> {
  await context.clock.install();
  await context.addInitScript((gate: string) => {
    const key = Symbol.for(gate);
    const state = () => (window as unknown as Record<symbol, string | undefined>)[key];
    for (const type of ['scroll', 'resize']) {
      window.addEventListener(
        type,
        (event) => {
          if (state() === 'frozen') event.stopImmediatePropagation();
        },
        true,
      );
    }
    // What a full-page capture needs to know to skip scrolling through a page that would not
    // notice (pageWatchesScrolling), and the page's own requests for data in flight (a dashboard
    // that fetches its figures after its load): finishAnimations waits for them.
    const watch = { observers: 0, scrollListeners: 0, navigating: false };
    // Real time, kept before the page runs: the page's clock jumps ahead while it is run, and
    // the page cannot swap these.
    const builtins = (
      globalThis as unknown as {
        __pwClock?: { builtins: { Date: DateConstructor; setTimeout: typeof setTimeout } };
      }
    ).__pwClock?.builtins;
    const RealDate = builtins?.Date ?? Date;
    const realNow = RealDate.now.bind(RealDate);
    const realTimeout = builtins?.setTimeout ?? setTimeout.bind(window);
    // fetch calls and reads of their bodies (`response.json()`; a fetch settles with the headers)
    // in flight: each promise settles once. The page's `.then((r) => r.json())` runs in the same
    // microtask checkpoint as the fetch's end, so the count is never 0 in between.
    let promises = 0;
    let endedAt = 0;
    const ended = () => {
      promises -= 1;
      endedAt = realNow();
    };
    const track = <T>(promise: Promise<T>): Promise<T> => {
      promises += 1;
      promise.then(ended, ended);
      return promise;
    };
    const nativeFetch = window.fetch;
    if (typeof nativeFetch === 'function') {
      window.fetch = function fetch(this: unknown, ...args: Parameters<typeof window.fetch>) {
        return track(nativeFetch.apply(this, args));
      };
    }
    const bodyReads = Response.prototype as unknown as Record<string, unknown>;
    for (const name of ['arrayBuffer', 'blob', 'bytes', 'formData', 'json', 'text']) {
      const read = bodyReads[name];
      if (typeof read !== 'function') continue;
      bodyReads[name] = function (this: Response, ...args: unknown[]) {
        return track(read.apply(this, args) as Promise<unknown>);
      };
    }
    // XMLHttpRequests sent and not done, told by their real readyState (a page's own listener
    // could stop our `loadend`; `open` on a request in flight ends it without one).
    const requests = new Set<XMLHttpRequest>();
    const readyState = Object.getOwnPropertyDescriptor(XMLHttpRequest.prototype, 'readyState')?.get;
    const addListener = EventTarget.prototype.addEventListener;
    const requestEnded = (request: XMLHttpRequest) => {
      if (requests.delete(request)) endedAt = realNow();
    };
    const nativeOpen = XMLHttpRequest.prototype.open as (...args: unknown[]) => void;
    XMLHttpRequest.prototype.open = function open(this: XMLHttpRequest, ...args: unknown[]) {
      requestEnded(this);
      return nativeOpen.apply(this, args);
    } as XMLHttpRequest['open'];
    const nativeSend = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function send(this: XMLHttpRequest, ...args) {
      Reflect.apply(addListener, this, ['loadend', () => requestEnded(this)]);
      nativeSend.apply(this, args);
      // A synchronous request is done when send returns.
      if (readyState?.call(this) === XMLHttpRequest.DONE) endedAt = realNow();
      else requests.add(this);
    };
    const inFlight = () => {
      for (const request of requests) {
        const state = readyState?.call(request);
        if (state === XMLHttpRequest.DONE || state === XMLHttpRequest.UNSENT) requestEnded(request);
      }
      return promises + requests.size;
    };
    // Script and stylesheet elements the page inserts after its load (require.js modules, a
    // loader's chart library, webpack's chunks), until their load or error event: the clock must
    // not run ahead while they load, or a loader's own timeout fires first (require.js gives up
    // on a module after 7 s of page time). Read synchronously with takeRecords, so an element a
    // timer inserted is counted before the clock's next step.
    const elements = new Set<Element>();
    const elementEnded = (element: Element) => {
      if (elements.delete(element)) endedAt = realNow();
    };
    // Only elements the browser fetches and then fires `load` or `error` on: no data block
    // (`type="text/template"`), `nomodule` script, alternate or disabled stylesheet.
    const loads = (node: Node): node is HTMLScriptElement | HTMLLinkElement => {
      if (node instanceof HTMLScriptElement) {
        const type = node.type.trim().toLowerCase();
        return node.src !== '' && !node.noModule && (type === '' || type === 'module' || /script/.test(type));
      }
      return (
        node instanceof HTMLLinkElement &&
        node.href !== '' &&
        !node.disabled &&
        /(^|\s)(stylesheet|modulepreload|preload)(\s|$)/i.test(node.rel) &&
        !/(^|\s)alternate(\s|$)/i.test(node.rel)
      );
    };
    const noteInserted = (records: MutationRecord[]) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          const found: Element[] = loads(node) ? [node] : [];
          if (node instanceof Element && node.firstElementChild) {
            for (const inner of node.querySelectorAll('script[src], link[href]'))
              if (loads(inner)) found.push(inner);
          }
          for (const element of found) {
            if (elements.has(element)) continue;
            elements.add(element);
            for (const type of ['load', 'error']) {
              Reflect.apply(addListener, element, [type, () => elementEnded(element), { once: true }]);
            }
          }
        }
      }
    };
    const insertions = new MutationObserver(noteInserted);
    // Before `load`, such elements hold `load` back themselves.
    window.addEventListener('load', () => insertions.observe(document, { childList: true, subtree: true }), {
      once: true,
    });
    const elementsInFlight = () => {
      noteInserted(insertions.takeRecords());
      for (const element of elements) if (!element.isConnected) elementEnded(element);
      return elements.size;
    };
    // Whether the page could change as it is scrolled (pageWatchesScrolling), and its height.
    const scrollState = () => ({
      watches:
        watch.observers > 0 ||
        watch.scrollListeners > 0 ||
        window.onscroll !== null ||
        document.onscroll !== null ||
        document.querySelector('img[loading="lazy"], iframe[loading="lazy"]') !== null,
      height: Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0),
    });
    for (const [name, value] of [
      ['requestsInFlight', inFlight],
      ['elementsInFlight', elementsInFlight],
      ['requestsEndedAt', () => endedAt],
      ['realNow', realNow],
      ['realTimeout', realTimeout],
      ['scrollState', scrollState],
    ] as const) {
      Object.defineProperty(watch, name, { value });
    }
    Object.defineProperty(window, Symbol.for(`${gate}.watch`), { value: watch });
    // A navigation the page starts (a timer's redirect) while its clock is run ahead.
    // `history.pushState` and `replaceState` (a single-page app's router) fire it too, on the
    // same document: not a navigation that replaces the page.
    (window as unknown as { navigation?: EventTarget }).navigation?.addEventListener('navigate', (event) => {
      if ((event as Event & { destination?: { sameDocument?: boolean } }).destination?.sameDocument) return;
      watch.navigating = true;
    });
    for (const target of [window, document] as EventTarget[]) {
      const add = target.addEventListener;
      Object.defineProperty(target, 'addEventListener', {
        configurable: true,
        writable: true,
        value: function addEventListener(
          this: EventTarget,
          ...args: Parameters<EventTarget['addEventListener']>
        ) {
          if (args[0] === 'scroll') watch.scrollListeners += 1;
          return add.apply(this, args);
        },
      });
    }
    const Native = window.IntersectionObserver;
    if (typeof Native !== 'function') return;
    window.IntersectionObserver = class extends Native {
      constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
        watch.observers += 1;
        super((entries, observer) => {
          const now = state();
          if (now === 'frozen') return;
          const seen = now === 'reveal' ? entries.filter((entry) => entry.isIntersecting) : entries;
          if (seen.length > 0) callback(seen, observer);
        }, options);
      }
    };
  }, GATE);
}

/** Sets the gate (see `installPageClock`). */
export async function setPageGate(page: Page, gate: PageGate): Promise<void> {
  await evaluateInPage(
    page,
    ({ key, value }) => {
      (window as unknown as Record<symbol, string>)[Symbol.for(key)] = value;
    },
    { key: GATE, value: gate },
  );
}

/**
 * Whether the page could change as it is scrolled: it created an IntersectionObserver, listens
 * to window or document scrolls, or has lazily loaded images or frames. A full page that does
 * none of these is captured without scrolling through it first (the scroll is most of a long
 * static page's waits, performance.md P7).
 */
export async function pageWatchesScrolling(page: Page): Promise<boolean> {
  return (await scrollState(page)).watches;
}

/** Whether a page watches scrolling (`pageWatchesScrolling`) and its height (CSS px). */
export interface ScrollState {
  watches: boolean;
  height: number;
}

/** `pageWatchesScrolling` and the document's height, in one evaluate. */
export async function scrollState(page: Page): Promise<ScrollState> {
  return evaluateInPage(
    page,
    (gate) => {
      const watch = (window as unknown as Record<symbol, { scrollState(): ScrollState } | undefined>)[
        Symbol.for(`${gate}.watch`)
      ];
      // Without the init script nothing is known: scroll, to be safe.
      return watch ? watch.scrollState() : { watches: true, height: document.documentElement.scrollHeight };
    },
    GATE,
  );
}

/**
 * Runs the page's clock ahead until it is quiet (one round trip; the loop runs in the page). On a
 * static page nothing is due, so this costs one evaluate and no page time. Only the main frame's
 * clock is run; iframes keep real time.
 */
export async function finishAnimations(
  page: Page,
  budget: AnimationBudget = ANIMATION_BUDGET,
  options: { freezeAfter?: boolean } = {},
): Promise<FinishedAnimations> {
  const freeze = options.freezeAfter === true;
  let finished: (FinishedAnimations & { navigating: boolean }) | undefined;
  try {
    finished = await runPageClock(page, budget, freeze);
  } catch (error) {
    if (page.isClosed() || !/context was destroyed|navigat/i.test(String(error))) throw error;
  }
  if (finished && !finished.navigating) {
    const { navigating: _, ...result } = finished;
    return result;
  }
  // A timer of the page navigated (a redirect after a splash, a reload): what a person would
  // see is the next page. Let it load, then settle that one, once.
  await nextDocumentLoaded(page, budget.wallMs * 2);
  const { navigating: _, ...next } = await runPageClock(page, budget, freeze);
  return next;
}

/** Waits (bounded) until the document is a loaded one that has not started leaving. */
async function nextDocumentLoaded(page: Page, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ready = await evaluateInPage(
      page,
      (gate) =>
        document.readyState === 'complete' &&
        (window as unknown as Record<symbol, { navigating: boolean } | undefined>)[
          Symbol.for(`${gate}.watch`)
        ]?.navigating !== true,
      GATE,
    ).catch(() => false);
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function runPageClock(
  page: Page,
  budget: AnimationBudget,
  freezeAfter: boolean,
): Promise<FinishedAnimations & { navigating: boolean }> {
  return evaluateInPage(
    page,
    async ({ budget, freeze, flag }: { budget: AnimationBudget; freeze: boolean; flag: string }) => {
      interface Timer {
        callAt: number;
      }
      interface Controller {
        runFor(ms: number): Promise<void>;
        countTimers(): number;
        getTimeToNextFrame?: () => number;
        performanceNow?: () => number;
        _firstTimer?: () => Timer | null;
        _now?: { ticks: number };
      }
      interface Watch {
        navigating: boolean;
        observers: number;
        scrollListeners: number;
        scrollState(): { watches: boolean; height: number };
        requestsInFlight(): number;
        elementsInFlight(): number;
        requestsEndedAt(): number;
        realNow(): number;
        realTimeout(callback: () => void, ms: number): unknown;
      }
      const clock = (
        globalThis as unknown as {
          __pwClock?: {
            controller: Controller;
            builtins: {
              Date: DateConstructor;
              setTimeout: typeof setTimeout;
              requestAnimationFrame: typeof requestAnimationFrame;
            };
          };
        }
      ).__pwClock;
      const watch = (window as unknown as Record<symbol, Watch | undefined>)[Symbol.for(`${flag}.watch`)];
      const videoPlaying = () =>
        [...document.querySelectorAll('video')].some((video) => !video.paused && !video.ended);
      let ranMs = 0;
      let runStarted: number | undefined;
      // Real time spent on requests the page started while its clock ran: not the clock's.
      let requestWaitsMs = 0;
      const done = (settled: boolean) => {
        if (freeze) (window as unknown as Record<symbol, string>)[Symbol.for(flag)] = 'frozen';
        return {
          ranMs,
          settled,
          videoPlaying: videoPlaying(),
          navigating: watch?.navigating === true,
          requestsPending: waitingForRequests ? 0 : (watch?.requestsInFlight() ?? 0),
          imagesPending: waitingForRequests ? 0 : loadingImages(),
          clockWallMs: runStarted === undefined ? 0 : Math.max(0, realNow() - runStarted - requestWaitsMs),
          scroll: watch
            ? watch.scrollState()
            : { watches: true, height: document.documentElement.scrollHeight },
        };
      };
      const realNow = watch?.realNow ?? (() => (clock?.builtins.Date ?? Date).now());
      const started = realNow();
      // The page's requests for data are waited for in real time (its clock flows with it
      // meanwhile), not with the clock run ahead: a request's own timeout would fire first.
      let waitingForRequests = watch !== undefined;
      // Whether any of an element's box shows in the viewport, clipped by its scrolling or
      // clipping ancestors (a carousel's other slides, a closed accordion).
      const shows = (element: Element, emptyCounts = false) => {
        const box = element.getBoundingClientRect();
        // An image without a source yet may have no size: its corner tells where it will show.
        if (emptyCounts && (box.width < 1 || box.height < 1)) {
          return box.left < innerWidth && box.right >= 0 && box.top < innerHeight && box.bottom >= 0;
        }
        let [left, top, right, bottom] = [
          Math.max(box.left, 0),
          Math.max(box.top, 0),
          Math.min(box.right, innerWidth),
          Math.min(box.bottom, innerHeight),
        ];
        for (let up = element.parentElement; up && left < right && top < bottom; up = up.parentElement) {
          const style = getComputedStyle(up);
          if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
          const clip = up.getBoundingClientRect();
          [left, top] = [Math.max(left, clip.left), Math.max(top, clip.top)];
          [right, bottom] = [Math.min(right, clip.right), Math.min(bottom, clip.bottom)];
        }
        return left < right && top < bottom;
      };
      // Images still loading that a person would see load: after `load`, those the page added
      // (its data drew them: avatars, product shots). A lazy image that does not show only
      // loads when scrolled to (a full page scrolls first, and waits for those on its way back).
      //
      // An image a library fills in when it shows (lazysizes, vanilla-lazyload: no `src`, or a
      // `data:` placeholder, until an observer or a scroll handler copies `data-src` into it) is
      // complete to the browser; it counts as loading while it shows and the page has such a
      // watcher, so the shot does not come before the library ran.
      const watchesViewport = watch !== undefined && (watch.observers > 0 || watch.scrollListeners > 0);
      const awaitsLibrary = (image: HTMLImageElement) => {
        const src = image.getAttribute('src');
        if (src && !src.startsWith('data:')) return false;
        for (const attribute of image.attributes) {
          if (attribute.name.startsWith('data-') && /src|original/.test(attribute.name) && attribute.value) {
            return attribute.value !== src;
          }
        }
        return false;
      };
      const loadingImages = () => {
        let loading = 0;
        for (const image of document.images) {
          if (image.complete && !(watchesViewport && awaitsLibrary(image) && shows(image, true))) continue;
          if (!image.complete && image.loading === 'lazy' && !shows(image)) continue;
          loading += 1;
        }
        return loading;
      };
      const requestsBusy = () => {
        if (!waitingForRequests || !watch) return false;
        if (realNow() - started >= budget.requestWaitMs) {
          waitingForRequests = false;
          return false;
        }
        return (
          watch.requestsInFlight() > 0 ||
          watch.elementsInFlight() > 0 ||
          realNow() - watch.requestsEndedAt() < budget.requestQuietMs ||
          loadingImages() > 0
        );
      };
      const realTimeout =
        watch?.realTimeout ?? ((callback: () => void, ms: number) => setTimeout(callback, ms));
      const pause = () => new Promise<void>((resolve) => realTimeout(resolve, 10));
      // IntersectionObserver callbacks (a lazy loader's, a chart drawn when it shows) come with
      // the rendering update after `observe()`: let one happen before deciding the page is quiet.
      if (watch && watch.observers > 0) {
        const frame = (fn: () => void) =>
          (clock?.builtins.requestAnimationFrame ?? requestAnimationFrame).call(window, fn);
        await new Promise<void>((resolve) => frame(() => realTimeout(resolve, 0)));
      }
      if (!clock) {
        while (requestsBusy()) await pause();
        return done(true);
      }
      const controller = clock.controller;
      // Time until the next timer or frame callback; the controller's private view when there
      // is one (Playwright's clock), otherwise "now" while any timer is pending.
      const dueIn = () => {
        // Brings the clock's "now" up to real time first (it flows with it until run ahead).
        controller.performanceNow?.();
        if (typeof controller._firstTimer === 'function' && controller._now) {
          const next = controller._firstTimer();
          return next ? next.callAt - controller._now.ticks : Number.POSITIVE_INFINITY;
        }
        return controller.countTimers() > 0 ? 0 : Number.POSITIVE_INFINITY;
      };
      // While the clock runs ahead, frames the page asks for come every `frameMs` of page time
      // (the clock's own schedule is every 16 ms: `getTimeToNextFrame`); real time gets the page's
      // 60 Hz back afterwards.
      const ownFrameTime = Object.hasOwn(controller, 'getTimeToNextFrame')
        ? controller.getTimeToNextFrame
        : undefined;
      const spaceFrames = (spaced: boolean) => {
        if (!spaced) {
          if (ownFrameTime) controller.getTimeToNextFrame = ownFrameTime;
          else delete controller.getTimeToNextFrame;
          return;
        }
        const now = controller._now;
        if (typeof controller.getTimeToNextFrame !== 'function' || !now) return;
        controller.getTimeToNextFrame = () => budget.frameMs - (now.ticks % budget.frameMs);
      };
      for (;;) {
        if (requestsBusy()) {
          const paused = realNow();
          await pause();
          if (runStarted !== undefined) requestWaitsMs += realNow() - paused;
          continue;
        }
        if (dueIn() > budget.quietMs) return done(true);
        runStarted ??= realNow();
        const runningMs = realNow() - runStarted - requestWaitsMs;
        if (ranMs >= budget.pageMs || runningMs >= budget.wallMs) return done(false);
        spaceFrames(true);
        try {
          await controller.runFor(budget.stepMs);
        } catch {
          // A callback of the page threw: the page's own bug, reported nowhere else either. The
          // clock has run the step's other callbacks and moved on.
        } finally {
          spaceFrames(false);
        }
        ranMs += budget.stepMs;
      }
    },
    { budget, freeze: freezeAfter, flag: GATE },
  );
}

/** The warnings a capture reports about a page that did not settle. */
export function animationWarnings(
  finished: FinishedAnimations,
  budget: AnimationBudget = ANIMATION_BUDGET,
): string[] {
  const warnings: string[] = [];
  const count = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`);
  const pending = [
    ...(finished.requestsPending > 0
      ? [`${count(finished.requestsPending, 'request', 'requests')} by fetch or XMLHttpRequest`]
      : []),
    ...(finished.imagesPending > 0 ? [count(finished.imagesPending, 'image', 'images')] : []),
  ];
  if (pending.length > 0) {
    warnings.push(
      `The page was still loading after ${budget.requestWaitMs} ms (${pending.join(', ')}); captured without them`,
    );
  }
  if (!finished.settled) {
    warnings.push(
      `The page kept animating (timers or animation frames still due after ${finished.ranMs} ms of page time); captured at that point`,
    );
  }
  if (finished.videoPlaying) warnings.push('A video was playing; the capture shows the frame at that moment');
  return warnings;
}
