import { setTimeout as delay } from 'node:timers/promises';
import type { CDPSession } from 'playwright-core';

/**
 * Chromium's screenshot as both browser stages take it: the capture stage of a page, and the
 * browser-mode compose stage of its scene document.
 */

/**
 * Whether a screenshot failed because Chromium had no compositor frame ready ("Unable to capture
 * screenshot"): it happens now and then (seen on full pages of 10,000 px, with Playwright's own
 * `page.screenshot` too, and on a compose page just resized to its scene), and a later request
 * gets one.
 */
export function screenshotHadNoFrame(error: unknown): boolean {
  return /Unable to capture screenshot/.test(String(error));
}

/**
 * The waits before each further request when Chromium had no frame ready: at once first (what
 * usually suffices), then longer, since on a busy machine the frame can take hundreds of
 * milliseconds (a compose page failed twice in a row in a full test run). 600 ms in all.
 */
const NO_FRAME_WAITS_MS = [0, 50, 150, 400] as const;

/** `Page.captureScreenshot`, asked again while Chromium has no frame ready (screenshotHadNoFrame). */
export async function captureScreenshot(
  cdp: Pick<CDPSession, 'send'>,
  params: Record<string, unknown>,
): Promise<{ data: string }> {
  const send = () => cdp.send('Page.captureScreenshot', params) as Promise<{ data: string }>;
  for (const waitMs of NO_FRAME_WAITS_MS) {
    try {
      return await send();
    } catch (error) {
      if (!screenshotHadNoFrame(error)) throw error;
    }
    await delay(waitMs);
  }
  return send();
}
