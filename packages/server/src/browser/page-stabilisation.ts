import type { Page } from 'playwright-core';
import { evaluateInPage } from './page-evaluate.ts';

/** Stops transitions and hides the text caret, so two captures of one page match. */
export const FREEZE_CSS = `*, *::before, *::after {
  transition: none !important;
  caret-color: transparent !important;
  scroll-behavior: auto !important;
}`;

/** One stylesheet with the injected CSS, hidden selectors and hidden cookie banners. */
export function captureStylesheet(parts: {
  injectCss: string | undefined;
  hideSelectors: readonly string[];
  removeSelectors: readonly string[];
}): string {
  const rules = [FREEZE_CSS];
  // One rule per selector: an invalid selector then drops only its own rule.
  for (const selector of parts.hideSelectors) rules.push(`${selector} { visibility: hidden !important; }`);
  for (const selector of parts.removeSelectors) rules.push(`${selector} { display: none !important; }`);
  if (parts.injectCss) rules.push(parts.injectCss);
  return rules.join('\n');
}

/**
 * Makes the page ready for its shot in one round trip to the page (`evaluateInPage`, on the
 * capture's CDP session): adds the capture stylesheet (the context bypasses the page's CSP, so
 * a strict policy cannot refuse it), waits for web fonts (at most `fontWaitMs`: a font that never
 * loads must not fail the shot), finishes finite animations and cancels infinite ones (what
 * Playwright's `animations: 'disabled'` does). For a full page it then waits for frames until the
 * document's height is stable, and returns it with the capture stylesheet applied (the clip); a
 * viewport's shot waits no frame (Chromium's screenshot forces a redraw with all of it).
 * The document's title comes back with it: the page's clock is stopped by now, and a round trip
 * of its own after the shot cost 5-20 ms of every capture. It is read in the page's own world, not
 * with Playwright's `page.title()`, which builds its utility world in the renderer first (about
 * 30 ms of renderer CPU that nothing else of a capture needs).
 */
export async function settlePage(
  page: Page,
  css: string,
  fontWaitMs: number,
  options: { stableHeight?: boolean } = {},
): Promise<{ height: number; title: string }> {
  return evaluateInPage(
    page,
    async ({ text, ms, stable }: { text: string; ms: number; stable: boolean }) => {
      // The page's timers and frames run on the page clock (finish-animations.ts); waits of our
      // own use the real ones.
      const real =
        (globalThis as unknown as { __pwClock?: { builtins: typeof globalThis } }).__pwClock?.builtins ??
        globalThis;
      const style = document.createElement('style');
      style.setAttribute('data-vitrine', '');
      style.textContent = text;
      (document.head ?? document.documentElement).append(style);
      await Promise.race([
        document.fonts.ready,
        new Promise((resolve) => real.setTimeout.call(window, resolve, ms)),
      ]);
      for (const animation of document.getAnimations()) {
        try {
          const end = animation.effect?.getComputedTiming().endTime;
          if (typeof end === 'number' && Number.isFinite(end)) animation.finish();
          else animation.cancel();
        } catch {
          animation.cancel();
        }
      }
      const frame = () => new Promise((resolve) => real.requestAnimationFrame.call(window, resolve));
      const height = () =>
        Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0);
      const settled = (measured: number) => {
        let title = '';
        try {
          // A page may redefine `document.title`; a title that is not text is no title.
          const own: unknown = document.title;
          if (typeof own === 'string') title = own;
        } catch {}
        return { height: measured, title };
      };
      // A viewport's shot needs no frame of ours: Chromium's screenshot forces a redraw, which
      // runs style, layout and paint first, so the stylesheet and the finished animations are in
      // it (two frames were 30-60 ms of every capture).
      if (!stable) return settled(height());
      await frame();
      let measured = height();
      await frame();
      // A full page's clip is this height: read after each frame until two readings agree (a
      // layout the finished animations or the stylesheet caused), at most ten frames. The two
      // frames waited anyway are the first two readings.
      for (let frames = 0; frames < 10; frames += 1) {
        const next = height();
        if (next === measured) break;
        measured = next;
        await frame();
      }
      return settled(height());
    },
    { text: css, ms: fontWaitMs, stable: options.stableHeight === true },
  );
}

/** Waits for web fonts, at most `timeoutMs` (a font that never loads must not fail the shot). */
export async function awaitFonts(page: Page, timeoutMs: number): Promise<void> {
  await evaluateInPage(
    page,
    (ms) =>
      Promise.race([
        document.fonts.ready.then(() => undefined),
        new Promise((resolve) =>
          (
            (globalThis as unknown as { __pwClock?: { builtins: typeof globalThis } }).__pwClock?.builtins ??
            globalThis
          ).setTimeout.call(window, resolve, ms),
        ),
      ]),
    timeoutMs,
  );
}

/**
 * Scrolls down the page one screen at a time from where it is (up to `maxHeight` CSS px) so lazy
 * images and intersection-observer content load, and stays at the bottom (the caller lets the
 * page settle there, then calls `returnToTop`). Every scroll of a capture is `instant`: a root that
 * scrolls smoothly (Tailwind's `scroll-smooth`, Bootstrap's reboot) would otherwise animate it in
 * real time, so the way down revealed nothing and the shot came mid-way back up. Returns how far
 * down the page has been in view (CSS px from the top).
 */
export async function scrollToBottom(page: Page, maxHeight: number): Promise<number> {
  return evaluateInPage(
    page,
    async (max) => {
      const real =
        (globalThis as unknown as { __pwClock?: { builtins: typeof globalThis } }).__pwClock?.builtins ??
        globalThis;
      const raf = (fn: () => void) => real.requestAnimationFrame.call(window, fn);
      // One rendering update per step: the task queued from the frame callback runs after that
      // frame's intersection observations (lazy loading) saw the new scroll position, half the
      // wait of two frames.
      const rendered = () => new Promise((resolve) => raf(() => real.setTimeout.call(window, resolve, 0)));
      const height = () =>
        Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0);
      const step = Math.max(200, Math.floor(window.innerHeight * 0.9));
      for (let y = Math.max(0, window.scrollY) + step; y < Math.min(height(), max); y += step) {
        window.scrollTo({ left: 0, top: y, behavior: 'instant' });
        await rendered();
      }
      window.scrollTo({ left: 0, top: Math.min(height(), max), behavior: 'instant' });
      await new Promise((resolve) => raf(() => raf(() => resolve(undefined))));
      return window.scrollY + window.innerHeight;
    },
    maxHeight,
  );
}

/**
 * Returns to the top after `scrollToBottom`, then waits at most `imageWaitMs` for images still
 * loading (those the scroll started).
 */
export async function returnToTop(page: Page, imageWaitMs: number): Promise<void> {
  await evaluateInPage(
    page,
    async (wait) => {
      const real =
        (globalThis as unknown as { __pwClock?: { builtins: typeof globalThis } }).__pwClock?.builtins ??
        globalThis;
      const raf = (fn: () => void) => real.requestAnimationFrame.call(window, fn);
      window.scrollTo({ left: 0, top: 0, behavior: 'instant' });
      const pending = [...document.images].filter((img) => !img.complete);
      if (pending.length > 0) {
        const loaded = Promise.all(
          pending.map(
            (img) =>
              new Promise((resolve) => {
                img.addEventListener('load', resolve, { once: true });
                img.addEventListener('error', resolve, { once: true });
              }),
          ),
        );
        await Promise.race([loaded, new Promise((resolve) => real.setTimeout.call(window, resolve, wait))]);
      }
      await new Promise((resolve) => raf(() => raf(() => resolve(undefined))));
    },
    imageWaitMs,
  );
}

/** An element's box in document coordinates (CSS px), or why there is none. */
export type ElementBox =
  | { found: true; x: number; y: number; width: number; height: number }
  | { found: false; why: 'missing' | 'invalid' | 'empty' };

export async function elementBox(page: Page, selector: string): Promise<ElementBox> {
  return evaluateInPage(
    page,
    (sel) => {
      let element: Element | null;
      try {
        element = document.querySelector(sel);
      } catch {
        return { found: false as const, why: 'invalid' as const };
      }
      if (!element) return { found: false as const, why: 'missing' as const };
      element.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
      const rect = element.getBoundingClientRect();
      if (rect.width < 1 || rect.height < 1) return { found: false as const, why: 'empty' as const };
      return {
        found: true as const,
        x: rect.left + window.scrollX,
        y: rect.top + window.scrollY,
        width: rect.width,
        height: rect.height,
      };
    },
    selector,
  );
}
