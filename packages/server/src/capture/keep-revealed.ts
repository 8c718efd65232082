import type { Page } from 'playwright-core';
// The gate (`installPageClock`) is set in the same evaluates as the recording.
import { GATE } from './finish-animations.ts';

/** Where the page keeps the changes seen during the return to the top (a symbol on `window`). */
const KEY = 'vitrine.changes-on-return';

/**
 * Opens the gate in `top` mode and starts recording attribute changes before a full page returns
 * to the top. The page sees that
 * scroll (a navbar that whitens once scrolled must turn transparent again over the hero), but a
 * scroll-reveal library listening to the same scroll (AOS with `once: false`, WOW, ScrollReveal
 * with `reset`) then hides every section below the first screen again. `keepRevealedBelowFold`
 * puts back what changed below the first screen.
 */
export async function recordChangesOnReturn(page: Page): Promise<void> {
  await page.evaluate(
    ({ key, gate }) => {
      (window as unknown as Record<symbol, string>)[Symbol.for(gate)] = 'top';
      const changes = new Map<Element, Map<string, string | null>>();
      const note = (records: MutationRecord[]) => {
        for (const record of records) {
          if (record.type !== 'attributes' || !record.attributeName) continue;
          // A source set on the way (a lazy image) is never taken back.
          if (record.attributeName === 'src' || record.attributeName === 'srcset') continue;
          const element = record.target as Element;
          let attributes = changes.get(element);
          if (!attributes) {
            attributes = new Map();
            changes.set(element, attributes);
          }
          if (!attributes.has(record.attributeName)) attributes.set(record.attributeName, record.oldValue);
        }
      };
      const observer = new MutationObserver(note);
      observer.observe(document.documentElement, {
        attributes: true,
        attributeOldValue: true,
        subtree: true,
      });
      Object.defineProperty(window, Symbol.for(key), {
        configurable: true,
        value: { changes, observer, note },
      });
    },
    { key: KEY, gate: GATE },
  );
}

/**
 * Freezes the page (the gate's `frozen`), stops recording and restores, on elements whose box lies wholly below the first screen (the
 * page is at the top), the attributes the return changed. What shows at the top keeps the
 * page's own top state. Returns how many elements were restored.
 */
export async function keepRevealedBelowFold(page: Page): Promise<number> {
  return page.evaluate(
    ({ key, gate }) => {
      (window as unknown as Record<symbol, string>)[Symbol.for(gate)] = 'frozen';
      const recorder = (window as unknown as Record<symbol, unknown>)[Symbol.for(key)] as
        | {
            changes: Map<Element, Map<string, string | null>>;
            observer: MutationObserver;
            note: (records: MutationRecord[]) => void;
          }
        | undefined;
      if (!recorder) return 0;
      recorder.note(recorder.observer.takeRecords());
      recorder.observer.disconnect();
      delete (window as unknown as Record<symbol, unknown>)[Symbol.for(key)];
      // Where an element is: its own box, or its nearest ancestor's when the change took its box away.
      const topOf = (element: Element): number => {
        for (let at: Element | null = element; at; at = at.parentElement) {
          const box = at.getBoundingClientRect();
          if (box.width >= 1 && box.height >= 1) return box.top + window.scrollY;
        }
        return 0;
      };
      const fold = window.innerHeight;
      let restored = 0;
      for (const [element, attributes] of recorder.changes) {
        if (!element.isConnected || topOf(element) < fold) continue;
        for (const [name, value] of attributes) {
          if (value === null) element.removeAttribute(name);
          else element.setAttribute(name, value);
        }
        restored += 1;
      }
      return restored;
    },
    { key: KEY, gate: GATE },
  );
}
