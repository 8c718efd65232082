import type { CDPSession } from 'playwright-core';

/**
 * Requests the page's in-page counter (finish-animations.ts) cannot see and that bring code or
 * styles after `load`: a bundler's chunks loaded with `import()`, require.js modules, script tags
 * another script inserts, and their stylesheets. Images, fetches and XMLHttpRequests are counted
 * in the page; media, beacons, WebSockets and event streams never end and are not waited for.
 */
const WATCHED_TYPES = new Set(['Script', 'Stylesheet']);

/** The page's script and stylesheet requests, seen from its DevTools session. */
export interface ScriptActivity {
  /** URLs of the watched requests in flight now. */
  inFlight(): string[];
  /** `performance.now()` of the last start or end of a watched request; -Infinity before any. */
  lastActivityAt(): number;
  /** Stops listening (the session lives as long as its page). */
  stop(): void;
}

/**
 * Turns on the network events of the page's own CDP session, without buffering response bodies
 * (Playwright's session keeps its own). Done when the page is prepared, off a capture's path.
 */
export async function enableNetworkEvents(cdp: CDPSession): Promise<void> {
  await cdp.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
}

/**
 * Starts watching on the page's own CDP session (its network events enabled by
 * `enableNetworkEvents`). `Network.requestWillBeSent` is sent by the renderer on the same session
 * as the answer to a later `Runtime.evaluate`, so a request the page started before an evaluate
 * returned is already counted when the evaluate's result arrives.
 */
export function watchScriptActivity(cdp: CDPSession): ScriptActivity {
  const pending = new Map<string, string>();
  let last = Number.NEGATIVE_INFINITY;
  const started = (event: { requestId: string; type?: string; request: { url: string } }) => {
    if (!WATCHED_TYPES.has(event.type ?? '')) return;
    pending.set(event.requestId, event.request.url);
    last = performance.now();
  };
  const ended = (event: { requestId: string }) => {
    if (pending.delete(event.requestId)) last = performance.now();
  };
  cdp.on('Network.requestWillBeSent', started);
  cdp.on('Network.loadingFinished', ended);
  cdp.on('Network.loadingFailed', ended);
  return {
    inFlight: () => [...pending.values()],
    lastActivityAt: () => last,
    stop: () => {
      cdp.off('Network.requestWillBeSent', started);
      cdp.off('Network.loadingFinished', ended);
      cdp.off('Network.loadingFailed', ended);
    },
  };
}
