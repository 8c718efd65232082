import type { Page } from 'playwright-core';
// The gate (`installPageClock`) is set in the same evaluates as the recording.
import { GATE } from './finish-animations.ts';
import { evaluateInPage } from './page-evaluate.ts';

/** Where the page keeps the changes seen during the return to the top (a symbol on `window`). */
const KEY = 'vitrine.changes-on-return';

/**
 * What the return to the top changed, as it was before: attributes per element, the text of
 * elements whose text nodes were replaced (`textContent = ...`), and text nodes' data.
 */
interface Recorder {
  attributes: Map<Element, Map<string, string | null>>;
  texts: Map<Element, string>;
  data: Map<CharacterData, string>;
  observer: MutationObserver;
  note: (records: MutationRecord[]) => void;
}

/**
 * Opens the gate in `top` mode and starts recording changes before a full page returns to the
 * top. The page sees that scroll (a navbar that whitens once scrolled turns transparent again
 * over the hero; a scroll spy lets go of the last section's link), but a scroll-reveal library
 * listening to the same scroll (AOS with `once: false`, WOW, ScrollReveal with `reset`, an
 * observer that toggles) hides every section below the first screen again, and a count-up that
 * resets when out of view shows 0. `keepRevealedBelowFold` puts back what changed down there.
 */
export async function recordChangesOnReturn(page: Page): Promise<void> {
  await evaluateInPage(
    page,
    ({ key, gate }) => {
      (window as unknown as Record<symbol, string>)[Symbol.for(gate)] = 'top';
      const attributes = new Map<Element, Map<string, string | null>>();
      const texts = new Map<Element, string>();
      const data = new Map<CharacterData, string>();
      const onlyText = (nodes: NodeList) => [...nodes].every((node) => node.nodeType === Node.TEXT_NODE);
      const note = (records: MutationRecord[]) => {
        for (const record of records) {
          if (record.type === 'characterData') {
            const node = record.target as CharacterData;
            if (!data.has(node)) data.set(node, record.oldValue ?? '');
          } else if (record.type === 'childList') {
            // Only a text swap (a counter's `textContent`) is put back, never added elements.
            // `textContent = ...` removes every child: what it removed is the text before.
            const element = record.target as Element;
            if (texts.has(element) || record.removedNodes.length === 0 || element.childElementCount > 0)
              continue;
            if (!onlyText(record.addedNodes) || !onlyText(record.removedNodes)) continue;
            texts.set(element, [...record.removedNodes].map((node) => node.textContent).join(''));
          } else if (
            record.attributeName &&
            record.attributeName !== 'src' &&
            record.attributeName !== 'srcset'
          ) {
            // A source set on the way (a lazy image) is never taken back.
            const element = record.target as Element;
            let before = attributes.get(element);
            if (!before) {
              before = new Map();
              attributes.set(element, before);
            }
            if (!before.has(record.attributeName)) before.set(record.attributeName, record.oldValue);
          }
        }
      };
      const observer = new MutationObserver(note);
      observer.observe(document.documentElement, {
        attributes: true,
        attributeOldValue: true,
        characterData: true,
        characterDataOldValue: true,
        childList: true,
        subtree: true,
      });
      const recorder: Recorder = { attributes, texts, data, observer, note };
      Object.defineProperty(window, Symbol.for(key), { configurable: true, value: recorder });
    },
    { key: KEY, gate: GATE },
  );
}

/**
 * Freezes the page (the gate's `frozen`), stops recording and puts back, on elements wholly
 * below the first screen (the page is at the top), the attributes and text the return changed.
 * What shows at the top keeps the page's own top state. Returns how many elements were restored.
 */
export async function keepRevealedBelowFold(page: Page): Promise<number> {
  return evaluateInPage(
    page,
    ({ key, gate }) => {
      (window as unknown as Record<symbol, string>)[Symbol.for(gate)] = 'frozen';
      const recorder = (window as unknown as Record<symbol, Recorder | undefined>)[Symbol.for(key)];
      if (!recorder) return 0;
      recorder.note(recorder.observer.takeRecords());
      recorder.observer.disconnect();
      delete (window as unknown as Record<symbol, unknown>)[Symbol.for(key)];
      // Where an element is: its own box, or its nearest ancestor's when the change took its box away.
      const topOf = (element: Element | null): number => {
        for (let at = element; at; at = at.parentElement) {
          const box = at.getBoundingClientRect();
          if (box.width >= 1 && box.height >= 1) return box.top + window.scrollY;
        }
        return 0;
      };
      const below = (element: Element | null) =>
        element?.isConnected === true && topOf(element) >= window.innerHeight;
      let restored = 0;
      for (const [element, before] of recorder.attributes) {
        if (!below(element)) continue;
        for (const [name, value] of before) {
          if (value === null) element.removeAttribute(name);
          else element.setAttribute(name, value);
        }
        restored += 1;
      }
      for (const [element, text] of recorder.texts) {
        if (!below(element)) continue;
        element.textContent = text;
        restored += 1;
      }
      for (const [node, text] of recorder.data) {
        if (!below(node.parentElement)) continue;
        node.data = text;
        restored += 1;
      }
      return restored;
    },
    { key: KEY, gate: GATE },
  );
}
