import type { CDPSession } from 'playwright-core';

/**
 * Chromium's screenshot as both browser stages take it: the capture stage of a page, and the
 * browser-mode compose stage of its scene document.
 */

/**
 * Whether a screenshot failed because Chromium had no compositor frame ready ("Unable to capture
 * screenshot"): it happens now and then (seen on full pages of 10,000 px, with Playwright's own
 * `page.screenshot` too, and on a compose page just resized to its scene), and a second request
 * gets one.
 */
export function screenshotHadNoFrame(error: unknown): boolean {
  return /Unable to capture screenshot/.test(String(error));
}

/** `Page.captureScreenshot`, once more when Chromium had no frame ready (screenshotHadNoFrame). */
export async function captureScreenshot(
  cdp: Pick<CDPSession, 'send'>,
  params: Record<string, unknown>,
): Promise<{ data: string }> {
  const send = () => cdp.send('Page.captureScreenshot', params) as Promise<{ data: string }>;
  try {
    return await send();
  } catch (error) {
    if (!screenshotHadNoFrame(error)) throw error;
    return send();
  }
}
