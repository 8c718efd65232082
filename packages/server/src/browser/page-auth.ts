import type { BrowserContext, Page } from 'playwright-core';
import type { PageLease } from './browser-pool.ts';
import { navigationError, renderFailed, targetUnreachable } from './capture-errors.ts';
import { watchMainFrameRefusal } from './main-frame-refusal.ts';

/** A cookie as Playwright's `addCookies` takes it: an auth profile's, or a request's own. */
export interface PageCookie {
  name: string;
  value: string;
  /** A leading dot: the domain and its subdomains; otherwise that host only. */
  domain: string;
  path: string;
  /** Unix seconds; -1 for a session cookie. */
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: 'Strict' | 'Lax' | 'None';
}

/**
 * A login to load a page with (an auth profile's state): cookies for the context's jar, and
 * localStorage values per origin. Handed to the capture stage at run time only; never part of
 * the (stored, serialised) page options.
 */
export interface PageAuth {
  cookies: PageCookie[];
  origins: { origin: string; localStorage: { name: string; value: string }[] }[];
}

/**
 * The script that fills localStorage before any script of the page runs. It runs in every frame,
 * so it writes only when the frame's own origin is one of the profile's: a third-party frame
 * gets nothing.
 */
function localStorageScript(origins: PageAuth['origins']): string {
  const byOrigin = Object.fromEntries(
    origins.map((entry) => [entry.origin, entry.localStorage.map((item) => [item.name, item.value])]),
  );
  return `(() => {
  const byOrigin = ${JSON.stringify(byOrigin)};
  const items = Object.prototype.hasOwnProperty.call(byOrigin, location.origin) ? byOrigin[location.origin] : null;
  if (!items) return;
  try { for (const [name, value] of items) window.localStorage.setItem(name, value); } catch {}
})();`;
}

/**
 * Loads a login into a fresh capture context before its first navigation: the cookies go into
 * the context's jar (Chromium then sends each only to its own domain, frames included), and
 * localStorage is set by an init script. Cookies already past their expiry are left out.
 */
export async function applyPageAuth(context: BrowserContext, page: Page, auth: PageAuth): Promise<void> {
  const now = Date.now() / 1000;
  const cookies = auth.cookies.filter((cookie) => cookie.expires < 0 || cookie.expires > now);
  try {
    if (cookies.length > 0) await context.addCookies(cookies);
    if (auth.origins.length > 0) await page.addInitScript({ content: localStorageScript(auth.origins) });
  } catch (error) {
    throw renderFailed(error, 'The auth profile could not be loaded into the browser');
  }
}

/** What a test of a profile learns from loading one page. */
export interface AuthProbeResult {
  /** The final response's status (after redirects), or null when there was none. */
  httpStatus: number | null;
  /** How many of the profile's cookies the page's first request carried. */
  cookiesSent: number;
  /** The page's URL after redirects, or null when there was no answer. */
  finalUrl: string | null;
}

function cookiesIn(header: string | undefined): Map<string, string[]> {
  const sent = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    sent.set(name, [...(sent.get(name) ?? []), part.slice(at + 1).trim()]);
  }
  return sent;
}

/**
 * Loads `url` on a pooled page with the login and reports the status and how many profile
 * cookies were sent with the page's own request (the first of any redirect chain), as Chromium
 * reported the request headers it sent.
 */
export async function probePageAuth(
  lease: PageLease,
  url: string,
  auth: PageAuth,
  navigationTimeoutMs: number,
): Promise<AuthProbeResult> {
  await applyPageAuth(lease.context, lease.page, auth);
  let response: Awaited<ReturnType<Page['goto']>>;
  // A page that ends on the egress proxy's refusal was not reached: its status is the proxy's.
  const refusal = watchMainFrameRefusal(lease.page);
  try {
    response = await lease.page.goto(url, { waitUntil: 'domcontentloaded', timeout: navigationTimeoutMs });
    if (refusal.refused()) throw targetUnreachable();
  } catch (error) {
    if (lease.signal.aborted) throw lease.signal.reason;
    throw refusal.refused() ? targetUnreachable(error) : navigationError(error, navigationTimeoutMs);
  }
  lease.loaded();
  if (!response) return { httpStatus: null, cookiesSent: 0, finalUrl: null };
  let first = response.request();
  for (let previous = first.redirectedFrom(); previous; previous = previous.redirectedFrom())
    first = previous;
  const sent = cookiesIn((await first.allHeaders()).cookie);
  const cookiesSent = auth.cookies.filter((cookie) => sent.get(cookie.name)?.includes(cookie.value)).length;
  return { httpStatus: response.status(), cookiesSent, finalUrl: response.url() };
}
