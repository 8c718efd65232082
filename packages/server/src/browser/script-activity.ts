import type { Page, Request } from 'playwright-core';

/**
 * Requests the page's in-page counter (finish-animations.ts) cannot see and that bring code or
 * styles after `load`: a bundler's chunks loaded with `import()`, require.js modules, script tags
 * another script inserts, and their stylesheets. Images, fetches and XMLHttpRequests are counted
 * in the page; media, beacons, WebSockets and event streams never end and are not waited for.
 */
const WATCHED_TYPES = new Set(['script', 'stylesheet']);

/** The page's script and stylesheet requests. */
export interface ScriptActivity {
  /** URLs of the watched requests in flight now. */
  inFlight(): string[];
  /** `performance.now()` of the last start or end of a watched request; -Infinity before any. */
  lastActivityAt(): number;
  /** Stops listening. */
  stop(): void;
}

/**
 * Starts watching the page's requests through Playwright's own network events (no second CDP
 * stream): they come from the page's session, the one `page.evaluate` answers on, so a request
 * the page started before an evaluate returned is already counted when its result arrives.
 */
export function watchScriptActivity(page: Page): ScriptActivity {
  const pending = new Map<Request, string>();
  let last = Number.NEGATIVE_INFINITY;
  const started = (request: Request) => {
    if (!WATCHED_TYPES.has(request.resourceType())) return;
    // A redirect's next hop is a new request; the hop before it has ended.
    const before = request.redirectedFrom();
    if (before) pending.delete(before);
    pending.set(request, request.url());
    last = performance.now();
  };
  const ended = (request: Request) => {
    if (pending.delete(request)) last = performance.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    inFlight: () => [...pending.values()],
    lastActivityAt: () => last,
    stop: () => {
      page.off('request', started);
      page.off('requestfinished', ended);
      page.off('requestfailed', ended);
    },
  };
}
