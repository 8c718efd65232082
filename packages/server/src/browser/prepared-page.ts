import type { Browser, BrowserContext, BrowserContextOptions, CDPSession, Page } from 'playwright-core';
import { installPageClock } from './finish-animations.ts';
import { registerPageSession } from './page-evaluate.ts';

/**
 * A fresh context with one blank page and a CDP session on it, created before a capture needs
 * it: page creation (a new renderer, about 180 ms) is the largest fixed cost of a capture.
 * The context is neutral (no viewport emulation); the capture applies its own through CDP.
 */
export interface PreparedPage {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
}

/** Hardening of every capture context (security.md 1.3); the caller's options are applied on top. */
export const CAPTURE_CONTEXT_OPTIONS: BrowserContextOptions = {
  viewport: null,
  serviceWorkers: 'block',
  acceptDownloads: false,
  bypassCSP: true,
};

export async function preparePage(
  browser: Browser,
  contextOptions: BrowserContextOptions,
  setup: ((context: BrowserContext) => Promise<void>) | undefined,
): Promise<PreparedPage> {
  const context = await browser.newContext({ ...CAPTURE_CONTEXT_OPTIONS, ...contextOptions });
  try {
    await installPageClock(context);
    if (setup) await setup(context);
    const page = await context.newPage();
    context.on('page', (popup) => {
      if (popup !== page) popup.close().catch(() => undefined);
    });
    const cdp = await context.newCDPSession(page);
    registerPageSession(page, cdp);
    return { context, page, cdp };
  } catch (error) {
    await context.close().catch(() => undefined);
    throw error;
  }
}
