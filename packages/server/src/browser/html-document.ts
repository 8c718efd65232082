import type { Page } from 'playwright-core';
import { HTML_DOCUMENT_URL, type HtmlDocument } from './page-controls.ts';

/**
 * Serves an `html` request's document at HTML_DOCUMENT_URL inside the browser: the page's
 * navigation is answered by this route and never leaves Chromium. Everything the document loads
 * (images, fonts, frames, fetches, WebSockets, redirects, refreshes) is an ordinary request of
 * the page and goes through the egress proxy, like any capture's; `file:` is a local resource
 * Chromium refuses to an http document.
 */
export async function serveHtmlDocument(page: Page, document: HtmlDocument): Promise<void> {
  await page.route(HTML_DOCUMENT_URL, async (route) => {
    await route
      .fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: document.body })
      .catch(() => undefined);
  });
}
