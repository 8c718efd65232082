import type { ElementCandidate, PageLayout } from './element-candidate.ts';

/**
 * Structure between candidates that descriptions lean on: groups of like items ("the plans", "the
 * second plan"), reading order, and place on the page ("the left menu"). Pure functions over the
 * candidate tree (each candidate's `parent` is its nearest candidate ancestor).
 */

type Children = Map<number, ElementCandidate[]>;
type ByIndex = Map<number, ElementCandidate>;

const area = (c: ElementCandidate) => c.box.width * c.box.height;

/**
 * Two boxes of like items (cards of a grid, entries of a list): the same tag, and the same
 * identifiers or nearly the same size (one side within 10 %, the other within 20 %), and narrower
 * than the page (full-width blocks are the page's sections, not items).
 */
function alike(a: ElementCandidate, b: ElementCandidate, pageWidth: number): boolean {
  if (a.tag !== b.tag) return false;
  if (a.box.width > pageWidth * 0.8 || b.box.width > pageWidth * 0.8) return false;
  const w = a.box.width / Math.max(1, b.box.width);
  const h = a.box.height / Math.max(1, b.box.height);
  if (w < 0.5 || w > 2 || h < 0.5 || h > 2) return false;
  if (a.ident !== '' && a.ident === b.ident) return true;
  return (
    (Math.abs(w - 1) <= 0.1 && Math.abs(h - 1) <= 0.2) || (Math.abs(h - 1) <= 0.1 && Math.abs(w - 1) <= 0.2)
  );
}

/**
 * The like-sibling group of each candidate's children, found once per scoring (a parent with
 * hundreds of children would otherwise be searched again for each of them).
 */
export type LikeMemo = Map<number, ElementCandidate[]>;

function likeChildren(
  parent: number,
  children: Children,
  pageWidth: number,
  memo?: LikeMemo,
): ElementCandidate[] {
  const cached = memo?.get(parent);
  if (cached) return cached;
  const found = findLikeSiblings(children.get(parent) ?? [], pageWidth);
  memo?.set(parent, found);
  return found;
}

function findLikeSiblings(list: readonly ElementCandidate[], pageWidth: number): ElementCandidate[] {
  let best: ElementCandidate[] = [];
  for (const seed of list) {
    const group = list.filter((x) => alike(seed, x, pageWidth));
    if (group.length >= 2 && group.reduce((s, x) => s + area(x), 0) > best.reduce((s, x) => s + area(x), 0)) {
      best = group;
    }
  }
  return best;
}

/**
 * The items of the main group of like items a candidate holds (the plan cards of a pricing
 * section, the members of a team grid): of every set of like siblings inside it, a few levels
 * down, the one covering the most area. [] when it holds no such group.
 */
export function groupItems(
  c: ElementCandidate,
  children: Children,
  pageWidth: number,
  memo?: LikeMemo,
): { items: ElementCandidate[]; depth: number } {
  let best: ElementCandidate[] = [];
  let bestArea = 0;
  let bestDepth = 0;
  const visit = (node: ElementCandidate, depth: number) => {
    const kids = children.get(node.index) ?? [];
    const group = likeChildren(node.index, children, pageWidth, memo);
    const total = group.reduce((s, x) => s + area(x), 0);
    if (group.length >= 2 && total > bestArea * 1.2) {
      best = group;
      bestArea = total;
      bestDepth = depth;
    }
    if (depth < 5) for (const k of kids) visit(k, depth + 1);
  };
  visit(c, 0);
  return { items: best, depth: bestDepth };
}

const LANDMARKS = new Set(['section', 'header', 'footer', 'nav', 'main', 'aside', 'form', 'body']);

/**
 * The group of like items a candidate is one of (climbing through wrappers that only hold it: a
 * card in its grid column), else the group it holds. Used for ordinals.
 */
export function findGroup(
  c: ElementCandidate,
  children: Children,
  byIndex: ByIndex,
  pageWidth: number,
  memo?: LikeMemo,
): ElementCandidate[] {
  const siblings = siblingGroup(c, children, byIndex, pageWidth, memo);
  return siblings.length >= 2 ? siblings : groupItems(c, children, pageWidth, memo).items;
}

/** The group of like items a candidate is one of (through wrappers that only hold it), or []. */
export function siblingGroup(
  c: ElementCandidate,
  children: Children,
  byIndex: ByIndex,
  pageWidth: number,
  memo?: LikeMemo,
): ElementCandidate[] {
  if (!LANDMARKS.has(c.tag)) {
    // Up through wrappers that hold only it (a grid column around a card, a link around a logo).
    let x = c;
    for (let p = byIndex.get(x.parent); p && !LANDMARKS.has(p.tag); p = byIndex.get(x.parent)) {
      const kids = children.get(p.index) ?? [];
      if (kids.length !== 1 || area(p) > area(c) * 4) break;
      x = p;
    }
    const group = likeChildren(x.parent, children, pageWidth, memo);
    if (group.includes(x)) return group;
  }
  return [];
}

/** Left to right in rows, rows top to bottom (as people count cards in a grid). */
export function readingOrder(items: readonly ElementCandidate[]): ElementCandidate[] {
  return [...items].sort((a, b) => {
    const rowTolerance = Math.min(a.box.height, b.box.height) / 2;
    if (Math.abs(a.box.y - b.box.y) > rowTolerance) return a.box.y - b.box.y;
    return a.box.x - b.box.x;
  });
}

/** 1 when a candidate is where a place word says ("left", "top"...), else 0.75. */
export function placeFactor(word: string, c: ElementCandidate, layout: PageLayout): number {
  const width = Math.max(1, layout.documentWidth);
  const centre = c.box.x + c.box.width / 2;
  const narrow = c.box.width <= width * 0.5;
  let fits = true;
  if (word === 'left') fits = narrow && centre < width * 0.4;
  else if (word === 'right') fits = narrow && centre > width * 0.6;
  else if (word === 'top' || word === 'upper') fits = c.box.y < layout.viewportHeight * 0.5;
  else if (word === 'bottom' || word === 'lower')
    fits = c.box.y + c.box.height > layout.documentHeight - layout.viewportHeight * 0.5;
  return fits ? 1 : 0.75;
}
