import type { CandidateSnapshot, DocumentBox, ElementCandidate } from './element-candidate.ts';

/**
 * The global under which the page keeps the candidates' elements between the two calls (collect,
 * then select), so the page never has to be searched twice. Named to avoid any page's own names.
 */
export const CANDIDATES_GLOBAL = '__vitrineElementCandidates';

/**
 * Runs IN THE PAGE (passed to `page.evaluate`, so it must be self-contained: no imports, no
 * outer names). Lists the elements a plain-language description could mean: landmarks and
 * sectioning elements, elements with an ARIA role, the sections headings introduce, visual blocks
 * (tables, forms, figures, canvases, large SVGs and images, identified or surfaced containers),
 * with the text, names and structure the scorer matches words against. Invisible and tiny
 * elements are skipped; at most `max` candidates, in document order. Returned as JSON text:
 * Playwright's own serialisation of a large result took longer than listing the candidates.
 */
export function collectCandidatesInPage(args: { max: number; globalName: string }): string {
  const IMPLICIT_ROLES: Record<string, string> = {
    header: 'banner',
    nav: 'navigation',
    main: 'main',
    footer: 'contentinfo',
    aside: 'complementary',
    form: 'form',
    section: 'region',
    article: 'article',
    table: 'table',
    figure: 'figure',
    dialog: 'dialog',
    img: 'img',
    ul: 'list',
    ol: 'list',
    search: 'search',
  };
  const STRUCTURAL = new Set([
    'header',
    'nav',
    'main',
    'footer',
    'aside',
    'form',
    'section',
    'article',
    'table',
    'figure',
    'dialog',
    'fieldset',
    'details',
    'canvas',
    'video',
    'iframe',
    'search',
    'pre',
    'blockquote',
  ]);
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'br']);
  const HEADING_SELECTOR = 'h1,h2,h3,h4,h5,h6,[role="heading"]';
  const clean = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
  const scrollX = window.scrollX;
  const scrollY = window.scrollY;
  const boxOf = (el: Element): DocumentBox => {
    const r = el.getBoundingClientRect();
    return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height };
  };
  const levelOf = (h: Element) => {
    const m = /^h([1-6])$/i.exec(h.tagName);
    if (m) return Number(m[1]);
    const aria = Number(h.getAttribute('aria-level'));
    return aria >= 1 && aria <= 6 ? aria : 2;
  };
  const visible = (el: Element) => {
    const box = el.getBoundingClientRect();
    if (box.width < 8 || box.height < 8) return false;
    if (typeof el.checkVisibility === 'function') {
      return el.checkVisibility({
        visibilityProperty: true,
        opacityProperty: true,
      } as CheckVisibilityOptions);
    }
    return true;
  };

  const surfaceOf = (el: Element): boolean => {
    const style = getComputedStyle(el);
    const bg = style.backgroundColor;
    const hasBg = bg !== '' && bg !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(bg);
    const hasBorder = Number.parseFloat(style.borderTopWidth) > 0 && style.borderTopStyle !== 'none';
    return hasBg || hasBorder || style.boxShadow !== 'none' || style.backgroundImage !== 'none';
  };

  // The section each heading introduces: the ancestors of the heading that contain no other
  // heading of the same or a higher level; of those, the nearest sectioning element, else the
  // outermost one (never body, html or main, which hold every section).
  const headingOwner = new Map<Element, Element>();
  const headings = [...document.querySelectorAll(HEADING_SELECTOR)].filter(visible);
  const SECTIONING = new Set([
    'section',
    'article',
    'aside',
    'nav',
    'header',
    'footer',
    'form',
    'dialog',
    'fieldset',
    'li',
    'figure',
  ]);
  // Per ancestor, how many visible headings of each level it holds: one pass, O(headings x depth).
  const levelCounts = new Map<Element, number[]>();
  for (const h of headings) {
    const level = levelOf(h);
    for (let node = h.parentElement; node; node = node.parentElement) {
      let counts = levelCounts.get(node);
      if (!counts) {
        counts = [0, 0, 0, 0, 0, 0, 0];
        levelCounts.set(node, counts);
      }
      counts[level] = (counts[level] ?? 0) + 1;
    }
  }
  const headingsUpTo = (node: Element, level: number) => {
    const counts = levelCounts.get(node);
    let n = 0;
    for (let l = 1; l <= level; l++) n += counts?.[l] ?? 0;
    return n;
  };
  for (const h of headings) {
    const level = levelOf(h);
    const chain: Element[] = [];
    let node = h.parentElement;
    while (node && node !== document.body && node !== document.documentElement) {
      if (headingsUpTo(node, level) > 1) break;
      chain.push(node);
      node = node.parentElement;
    }
    const usable = chain.filter((el) => el.tagName.toLowerCase() !== 'main');
    const sectioning = usable.find(
      (el) => SECTIONING.has(el.tagName.toLowerCase()) || el.getAttribute('role') === 'region',
    );
    // Else the nearest card or panel (its own surface), else the outermost wrapper.
    const surfaced = sectioning ? undefined : usable.find((el) => surfaceOf(el));
    const owner = sectioning ?? surfaced ?? usable[usable.length - 1];
    if (owner && !headingOwner.has(owner)) headingOwner.set(owner, h);
  }

  const nameOf = (el: Element): string => {
    const label = el.getAttribute('aria-label');
    if (label) return clean(label);
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      const text = by
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ');
      if (clean(text)) return clean(text);
    }
    const tag = el.tagName.toLowerCase();
    if (tag === 'img') return clean(el.getAttribute('alt'));
    if (tag === 'table') return clean(el.querySelector('caption')?.textContent);
    if (tag === 'figure') return clean(el.querySelector('figcaption')?.textContent);
    if (tag === 'fieldset') return clean(el.querySelector('legend')?.textContent);
    return clean(el.getAttribute('title'));
  };
  const viewportWidth = window.innerWidth;
  const viewportHeight = window.innerHeight;
  const elements: Element[] = [];
  const candidates: ElementCandidate[] = [];
  const indexOf = new Map<Element, number>();
  const all = document.body ? document.body.querySelectorAll('*') : [];
  for (const el of all) {
    if (candidates.length >= args.max) break;
    const tag = el.tagName.toLowerCase();
    if (SKIP.has(tag)) continue;
    const role = (el.getAttribute('role') ?? '').toLowerCase();
    if (role === 'presentation' || role === 'none') continue;
    const box = boxOf(el);
    if (box.width < 24 || box.height < 16) continue;
    const owns = headingOwner.has(el);
    const large = box.width >= 120 && box.height >= 60;
    const block = box.width >= 60 && box.height >= 16 && box.width * box.height >= 2000;
    const identified = el.id !== '' || el.classList.length > 0 || el.hasAttribute('data-testid');
    const eligible =
      STRUCTURAL.has(tag) ||
      role !== '' ||
      owns ||
      (tag === 'svg' && large) ||
      (tag === 'img' && large) ||
      ((tag === 'ul' || tag === 'ol') && large) ||
      (identified && block && tag !== 'svg' && !(el instanceof SVGElement) && tag !== 'a' && tag !== 'span');
    if (!eligible || !visible(el)) continue;
    const heading = headingOwner.get(el);
    const inner = el.querySelectorAll(HEADING_SELECTOR);
    // A table's column headers are its headings: they say what it lists.
    const columnHeads =
      tag === 'table' || role === 'table' || role === 'grid'
        ? [...el.querySelectorAll('th')].slice(0, 12)
        : [];
    const innerHeadings = [...inner, ...columnHeads]
      .filter((h) => h !== heading)
      .slice(0, 16)
      .map((h) => clean(h.textContent))
      .join(' | ');
    // Placeholders and labels of a few fields say what a small form or search box is for.
    const fields = el.querySelectorAll('input,textarea');
    const hints =
      fields.length > 0 && fields.length <= 5
        ? [...fields]
            .map((f) => `${f.getAttribute('placeholder') ?? ''} ${f.getAttribute('aria-label') ?? ''}`)
            .join(' ')
        : '';
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text (no script or style contents, no hidden parts) is what a description refers to
    const fullText = clean(`${(el as HTMLElement).innerText ?? el.textContent} ${hints}`);
    let parent = -1;
    for (let up = el.parentElement; up; up = up.parentElement) {
      const found = indexOf.get(up);
      if (found !== undefined) {
        parent = found;
        break;
      }
    }
    const count = (selector: string) => el.querySelectorAll(selector).length;
    const index = candidates.length;
    indexOf.set(el, index);
    elements.push(el);
    candidates.push({
      index,
      tag,
      role: role || IMPLICIT_ROLES[tag] || '',
      name: nameOf(el),
      heading: heading ? clean(heading.textContent) : '',
      innerHeadings,
      ident: clean(
        [
          el.id,
          typeof el.className === 'string' ? el.className : '',
          el.getAttribute('data-testid'),
          el.getAttribute('name'),
        ].join(' '),
      ),
      text: fullText.slice(0, 400),
      textLength: fullText.length,
      contents: {
        canvas: count('canvas'),
        svg: [...el.querySelectorAll('svg')].filter((s) => {
          const r = s.getBoundingClientRect();
          return r.width >= 80 && r.height >= 50;
        }).length,
        tables: count('table,[role="table"],[role="grid"]'),
        forms: count('form'),
        inputs: count('input:not([type="hidden"]):not([type="submit"]):not([type="button"]),textarea,select'),
        passwords: count('input[type="password"]'),
        emails: count('input[type="email"],input[autocomplete="email"],input[name*="email" i]'),
        searches: count('input[type="search"],[role="search"],search'),
        buttons: count('button,input[type="submit"],[role="button"]'),
        images: count('img,picture,[role="img"]'),
        links: count('a[href]'),
        headings: inner.length,
        listItems: count('li'),
      },
      box,
      parent,
      surface: surfaceOf(el),
    });
  }
  (window as unknown as Record<string, unknown>)[args.globalName] = elements;
  const root = document.documentElement;
  const snapshot: CandidateSnapshot = {
    candidates,
    layout: {
      viewportWidth,
      viewportHeight,
      documentWidth: Math.max(root.scrollWidth, document.body?.scrollWidth ?? 0),
      documentHeight: Math.max(root.scrollHeight, document.body?.scrollHeight ?? 0),
    },
  };
  return JSON.stringify(snapshot);
}

/**
 * Runs IN THE PAGE. A stable CSS selector that matches exactly the candidate `index` (checked with
 * `querySelectorAll` before it is returned): its id when unique, a unique test id or ARIA label,
 * else the shortest path of `tag.class` / `tag:nth-of-type()` steps up to a unique ancestor.
 * Returns null when the element is gone.
 */
export function selectorInPage(args: { index: number; globalName: string }): string | null {
  const elements = (window as unknown as Record<string, unknown>)[args.globalName] as Element[] | undefined;
  const el = elements?.[args.index];
  if (!el?.isConnected) return null;
  const isUnique = (sel: string) => {
    try {
      const found = document.querySelectorAll(sel);
      return found.length === 1 && found[0] === el;
    } catch {
      return false;
    }
  };
  // Generated ids and classes (hashes, long digit runs) change between deploys; skip them.
  const stable = (name: string) =>
    name.length > 0 &&
    name.length <= 40 &&
    !/\d{4,}|[A-Za-z]+\d+[A-Za-z]+\d/.test(name) &&
    !/^(css|sc|jsx|svelte)-/.test(name);
  const tag = el.tagName.toLowerCase();
  if (el.id && stable(el.id) && isUnique(`#${CSS.escape(el.id)}`)) return `#${CSS.escape(el.id)}`;
  for (const attr of ['data-testid', 'data-test', 'data-qa', 'aria-label']) {
    const value = el.getAttribute(attr);
    if (value && value.length <= 80) {
      const sel = `${tag}[${attr}="${CSS.escape(value)}"]`;
      if (isUnique(sel)) return sel;
    }
  }
  const steps: string[] = [];
  for (let node: Element | null = el; node && node !== document.documentElement; node = node.parentElement) {
    const name = node.tagName.toLowerCase();
    if (
      node !== el &&
      node.id &&
      stable(node.id) &&
      document.querySelectorAll(`#${CSS.escape(node.id)}`).length === 1
    ) {
      const sel = [`#${CSS.escape(node.id)}`, ...steps].join(' > ');
      if (isUnique(sel)) return sel;
    }
    const firstClass = [...node.classList].find(stable);
    const withClass = firstClass ? `${name}.${CSS.escape(firstClass)}` : name;
    const attempt = [withClass, ...steps].join(' > ');
    if (isUnique(attempt)) return attempt;
    const parent: Element | null = node.parentElement;
    let step = withClass;
    if (parent) {
      const same = [...parent.children].filter((c) => c.tagName === node?.tagName);
      if (same.length > 1) step = `${name}:nth-of-type(${same.indexOf(node) + 1})`;
    }
    steps.unshift(step);
    const path = steps.join(' > ');
    if (isUnique(path)) return path;
  }
  const full = `html > ${steps.join(' > ')}`;
  return isUnique(full) ? full : null;
}
