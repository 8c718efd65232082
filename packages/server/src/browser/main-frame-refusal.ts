import type { Page, Request, Response } from 'playwright-core';
import { EGRESS_VERDICT_HEADER } from '../netpolicy/egress-proxy.ts';

/**
 * Watches a page's main frame for a navigation that ended on the egress proxy's refusal instead
 * of the target: a 302, a meta refresh or a script sending the top-level document to a refused
 * or unreachable host. For plain HTTP the proxy answers such a navigation itself (403 or 502)
 * with its marker header, and Chromium renders that answer as a page; through CONNECT (https)
 * the navigation fails and Chromium shows its own error page. Either way the shot would be of
 * something that is not the target, so the capture must fail with `target_unreachable` (and be
 * refunded) rather than charge for it. The verdict comes from the proxy's header and Chromium's
 * request events, never from the page's text (a page can print anything).
 */
export interface MainFrameRefusal {
  /** True once a main-frame document came from the proxy's refusal or failed to load. */
  refused(): boolean;
}

function isMainFrameNavigation(page: Page, request: Request): boolean {
  if (!request.isNavigationRequest()) return false;
  try {
    return request.frame() === page.mainFrame();
  } catch {
    // Service-worker requests have no frame; they are not navigations of the page.
    return false;
  }
}

/** Starts watching before the navigation; the listeners end with the page (one per lease). */
export function watchMainFrameRefusal(page: Page): MainFrameRefusal {
  let refused = false;
  const onResponse = (response: Response) => {
    if (!isMainFrameNavigation(page, response.request())) return;
    if (response.headers()[EGRESS_VERDICT_HEADER] !== undefined) refused = true;
  };
  const onRequestFailed = (request: Request) => {
    if (!isMainFrameNavigation(page, request)) return;
    // ERR_ABORTED is a navigation superseded by another one (or a download), not a refusal;
    // the navigation that replaced it is judged on its own.
    if (/net::ERR_ABORTED\b/.test(request.failure()?.errorText ?? '')) return;
    refused = true;
  };
  page.on('response', onResponse);
  page.on('requestfailed', onRequestFailed);
  return { refused: () => refused };
}
