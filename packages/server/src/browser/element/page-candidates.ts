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
export function collectCandidatesInPage(args: {
  max: number;
  globalName: string;
  canvasKinds?: string[][];
  echartsKinds?: string[][];
  canvasWords?: string[];
  echartsWords?: string[];
}): string {
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
  // Each element's rendered box is read once (the listing, the visibility test and the drawn
  // titles' scan all ask for it).
  const rects = new Map<Element, DOMRect>();
  const rectOf = (el: Element): DOMRect => {
    let r = rects.get(el);
    if (!r) {
      r = el.getBoundingClientRect();
      rects.set(el, r);
    }
    return r;
  };
  const boxOf = (el: Element): DocumentBox => {
    const r = rectOf(el);
    return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height };
  };
  const visible = (el: Element) => {
    const box = rectOf(el);
    if (box.width < 8 || box.height < 8) return false;
    if (typeof el.checkVisibility === 'function') {
      return el.checkVisibility({
        visibilityProperty: true,
        opacityProperty: true,
      } as CheckVisibilityOptions);
    }
    return true;
  };

  // The colour a block shows (its own background, or the first colour of its gradient), as
  // "r g b", or "" when it has none: "the yellow card", "the dark panel".
  const colourOf = (el: Element): string => {
    const style = getComputedStyle(el);
    const rgb = (s: string) => {
      const m = /rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?\)/.exec(s);
      if (!m || (m[4] !== undefined && Number(m[4]) < 0.5)) return '';
      return `${m[1]} ${m[2]} ${m[3]}`;
    };
    const own = rgb(style.backgroundColor);
    if (own) return own;
    return style.backgroundImage.includes('gradient') ? rgb(style.backgroundImage) : '';
  };
  const surfaceOf = (el: Element): boolean => {
    const style = getComputedStyle(el);
    const bg = style.backgroundColor;
    const hasBg = bg !== '' && bg !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(bg);
    const hasBorder = Number.parseFloat(style.borderTopWidth) > 0 && style.borderTopStyle !== 'none';
    return hasBg || hasBorder || style.boxShadow !== 'none' || style.backgroundImage !== 'none';
  };

  // Headings: real ones (h1-h6, role=heading) and the titles pages draw without them (a short,
  // bold or title-classed block of text: a card header, a plan's name, a stat's label). Their
  // rank is their rendered size (a small bold h4 under a 16 px h6 is lower), not the tag.
  const TITLE_CLASS = /(^|[-_\s])(title|heading|header|caption|subheading|name|label)([-_\s]|$)/i;
  const NOT_TITLE = 'button,label,th,td,option,select,textarea,input,li,nav,summary';
  // A link the size of a card (a tile of a grid that links somewhere) is a component, and the
  // titles in it are titles; an ordinary link's text is not.
  const cardLink = (a: Element) => {
    const r = rectOf(a);
    return r.width >= 120 && r.height >= 60;
  };
  const rankOf = (el: Element) => {
    const style = getComputedStyle(el);
    const size = Number.parseFloat(style.fontSize) || 16;
    const bold = Number.parseInt(style.fontWeight, 10) >= 600;
    return Math.round(size * (bold ? 1.1 : 1) * 10) / 10;
  };
  const bodySize =
    Number.parseFloat(getComputedStyle(document.body ?? document.documentElement).fontSize) || 16;
  // Cheap tests first (text, place in the tree, a rendered box), computed styles last: this runs
  // over every block of the page.
  const isPseudoHeading = (el: Element) => {
    const raw = el.textContent ?? '';
    if (raw.length < 2 || raw.length > 200) return false;
    const text = clean(raw);
    if (text.length < 2 || text.length > 60 || !/\p{L}{2}/u.test(text) || text.split(' ').length > 8)
      return false;
    if (el.closest(NOT_TITLE) || el.closest(HEADING_SELECTOR) || !visible(el)) return false;
    const link = el.closest('a');
    if (link && !cardLink(link)) return false;
    // Initials in an avatar, a badge's count: a few letters in a small box are not a title.
    const r = rectOf(el);
    if (text.length <= 3 && r.width < 48 && r.height < 48) return false;
    const style = getComputedStyle(el);
    const display = style.display;
    if (display.startsWith('inline') || display === 'contents' || display === 'none') return false;
    // A leaf block: every child element is inline (formatting, an icon), none holds its own block.
    for (const child of el.children) {
      if (!getComputedStyle(child).display.startsWith('inline')) return false;
    }
    const bold = Number.parseInt(style.fontWeight, 10) >= 600;
    const large = (Number.parseFloat(style.fontSize) || 16) >= bodySize * 1.25;
    const className = typeof el.className === 'string' ? el.className : '';
    return bold || large || TITLE_CLASS.test(className);
  };
  const realHeadings = [...document.querySelectorAll(HEADING_SELECTOR)].filter(visible);
  const realSet = new Set(realHeadings);
  const pseudoHeadings = [
    ...(document.body?.querySelectorAll('div,p,span,strong,b,dt,figcaption,legend') ?? []),
  ]
    .filter((el) => !realSet.has(el) && isPseudoHeading(el))
    .slice(0, 400);
  const headings = [...realHeadings, ...pseudoHeadings];
  const rank = new Map<Element, number>();
  for (const h of headings) rank.set(h, rankOf(h));
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
  // Per ancestor, the ranks of the headings it holds, to find the ones a heading tops.
  const ranksIn = new Map<Element, number[]>();
  for (const h of headings) {
    for (let node = h.parentElement; node; node = node.parentElement) {
      let list = ranksIn.get(node);
      if (!list) {
        list = [];
        ranksIn.set(node, list);
      }
      list.push(rank.get(h) ?? 0);
    }
  }
  // The component each heading titles: of its ancestors that hold no other heading of the same or
  // a higher rank, the outermost one with a surface of its own (the card, not the card's header
  // strip) up to the nearest sectioning element; else that sectioning element; else the
  // outermost wrapper (never body, html or main, which hold every section).
  const headingOwner = new Map<Element, Element>();
  for (const h of headings) {
    const r = rank.get(h) ?? 0;
    const chain: Element[] = [];
    let node = h.parentElement;
    const top = rectOf(h).top;
    while (node && node !== document.body && node !== document.documentElement) {
      const others = (ranksIn.get(node) ?? []).filter((x) => x >= r - 0.5).length;
      if (others > 1) break;
      // A heading low in a block that also holds a menu titles the part it opens, not the block:
      // "Need help?" at the foot of a sidebar, under its links, titles the help box there (a
      // photo or a quotation above a name still leaves the name the title of its card).
      const box = rectOf(node);
      if (top - box.top > 160 && top - box.top > box.height * 0.65) {
        const inner = chain[chain.length - 1];
        const links =
          node.querySelectorAll('a[href]').length - (inner?.querySelectorAll('a[href]').length ?? 0);
        if (links >= 4) break;
      }
      chain.push(node);
      node = node.parentElement;
    }
    // A heading among sibling headings ("Skills: Languages ..., Workflow ...") titles the block
    // right after it.
    if (chain.length === 0) {
      const next = h.nextElementSibling;
      if (next && !rank.has(next) && !(ranksIn.get(next) ?? []).some((x) => x >= r - 0.5)) {
        if (!headingOwner.has(next)) headingOwner.set(next, h);
      }
      continue;
    }
    const usable = chain.filter((el) => el.tagName.toLowerCase() !== 'main');
    const sectionAt = usable.findIndex(
      (el) => SECTIONING.has(el.tagName.toLowerCase()) || el.getAttribute('role') === 'region',
    );
    const upTo = sectionAt >= 0 ? usable.slice(0, sectionAt + 1) : usable;
    const surfaced = [...upTo].reverse().find((el) => surfaceOf(el));
    const owner = surfaced ?? (sectionAt >= 0 ? usable[sectionAt] : usable[usable.length - 1]);
    if (!owner) continue;
    // A real heading wins an owner from a drawn title; otherwise the first (highest) one keeps it.
    const held = headingOwner.get(owner);
    if (!held || (!realSet.has(held) && realSet.has(h))) headingOwner.set(owner, h);
  }

  // The short label right above a heading (an "eyebrow": "MODERN STACK" over "Built on what you
  // already use") says what the section is as much as the heading does: it is read with it.
  const headingText = (h: Element): string => {
    const own = clean(h.textContent);
    const before = h.previousElementSibling;
    if (!before || rank.has(before) || before.children.length > 1) return own;
    const label = clean(before.textContent);
    if (label.length < 2 || label.length > 40 || !/\p{L}{2}/u.test(label)) return own;
    const a = rectOf(before);
    const b = rectOf(h);
    return a.height > 0 && a.bottom <= b.top + 2 && b.top - a.bottom <= 40 ? `${label} ${own}` : own;
  };

  // Drawn titles inside each ancestor (a few), so a container knows the titles it holds.
  const titlesIn = new Map<Element, Element[]>();
  for (const t of pseudoHeadings) {
    for (let node = t.parentElement; node && node !== document.body; node = node.parentElement) {
      const list = titlesIn.get(node) ?? [];
      if (list.length >= 16) continue;
      list.push(t);
      titlesIn.set(node, list);
    }
  }

  // What each chart draws: canvases as the page's chart library reported them (collected in the
  // page's own world, passed in by document order), SVG charts by their library's classes.
  const chartKinds = new Map<Element, string[]>();
  const chartWords = new Map<Element, string>();
  const canvases = document.querySelectorAll('canvas');
  canvases.forEach((c, i) => {
    const kinds = args.canvasKinds?.[i];
    if (kinds && kinds.length > 0) chartKinds.set(c, kinds);
    const words = args.canvasWords?.[i];
    if (typeof words === 'string' && words !== '') chartWords.set(c, words);
  });
  const boxKinds = document.querySelectorAll('[_echarts_instance_]');
  boxKinds.forEach((c, i) => {
    const kinds = args.echartsKinds?.[i];
    if (kinds && kinds.length > 0) chartKinds.set(c, kinds);
    const words = args.echartsWords?.[i];
    if (typeof words === 'string' && words !== '') chartWords.set(c, words);
  });
  /** The words the charts in an element draw (their titles and datasets' names), as text. */
  const chartWordsIn = (el: Element): string => {
    let out = '';
    for (const [chart, words] of chartWords) if (el === chart || el.contains(chart)) out += ` ${words}`;
    return out.slice(0, 400);
  };
  const SVG_SERIES: [string, string][] = [
    ['apexcharts-area-series', 'area'],
    ['apexcharts-line-series', 'line'],
    ['apexcharts-bar-series', 'bar'],
    ['apexcharts-candlestick-series', 'candlestick'],
    ['apexcharts-pie', 'pie'],
    ['apexcharts-radialbar', 'radial'],
    ['apexcharts-radar-series', 'radar'],
    ['apexcharts-heatmap-series', 'heatmap'],
    ['highcharts-area-series', 'area'],
    ['highcharts-areaspline-series', 'area'],
    ['highcharts-line-series', 'line'],
    ['highcharts-spline-series', 'line'],
    ['highcharts-column-series', 'bar'],
    ['highcharts-bar-series', 'bar'],
    ['highcharts-pie-series', 'pie'],
    ['highcharts-scatter-series', 'scatter'],
  ];
  for (const svg of document.querySelectorAll('svg.apexcharts-svg, svg.highcharts-root')) {
    const kinds = SVG_SERIES.filter(([cls]) => svg.querySelector(`.${cls}`)).map(([, kind]) => kind);
    if (
      svg.querySelector('.apexcharts-pie') &&
      svg.querySelector('.apexcharts-donut-slice, [class*="donut"]')
    ) {
      kinds.push('donut');
    }
    if (kinds.length > 0) chartKinds.set(svg, kinds);
  }
  const chartsIn = (el: Element): string[] => {
    const kinds = new Set<string>(chartKinds.get(el) ?? []);
    if (chartKinds.size > 0) {
      for (const [chart, list] of chartKinds) if (el.contains(chart)) for (const k of list) kinds.add(k);
    }
    return [...kinds].slice(0, 12);
  };
  // The identifiers of what an element holds (its descendants' ids and classes, a few dozen
  // distinct ones): "the card with progress bars" is the card holding `.progress-bar`s.
  // In document order an element's descendants are the run of elements right after it, as long as
  // its subtree: what it holds is counted in that run (by binary search in the sorted positions of
  // each kind of element), instead of searching each candidate's subtree again (a page's outer
  // blocks hold everything, and a large page's elements are mostly table cells and text).
  const all: Element[] = document.body ? [...document.body.querySelectorAll('*')] : [];
  const position = new Map<Element, number>();
  for (let i = 0; i < all.length; i++) position.set(all[i] as Element, i);
  const subtreeSize = new Int32Array(all.length);
  for (let i = all.length - 1; i >= 0; i--) {
    const parent = (all[i] as Element).parentElement;
    const p = parent ? position.get(parent) : undefined;
    if (p !== undefined) subtreeSize[p] = (subtreeSize[p] ?? 0) + (subtreeSize[i] ?? 0) + 1;
  }
  const KINDS = [
    'canvas',
    'svg',
    'tables',
    'forms',
    'inputs',
    'passwords',
    'emails',
    'searches',
    'buttons',
    'images',
    'links',
    'headings',
    'listItems',
    'identified',
  ] as const;
  type Kind = (typeof KINDS)[number];
  const at: Record<Kind, number[]> = Object.fromEntries(KINDS.map((k) => [k, []])) as unknown as Record<
    Kind,
    number[]
  >;
  const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
  // Each element's tag, role and whether authors named it (an id, a class, a test id), read once
  // here for the listing below too.
  const tagAt: string[] = new Array(all.length);
  const roleAt: string[] = new Array(all.length);
  const namedAt = new Uint8Array(all.length);
  for (let i = 0; i < all.length; i++) {
    const el = all[i] as Element;
    const tag = el.localName;
    const role = el.getAttribute('role');
    tagAt[i] = el.tagName.toLowerCase();
    roleAt[i] = (role ?? '').toLowerCase();
    const hasId = el.hasAttribute('id');
    const hasClass = el.hasAttribute('class');
    if (hasId || hasClass) at.identified.push(i);
    if (
      el.namespaceURI !== 'http://www.w3.org/2000/svg' &&
      ((hasId && el.id !== '') || (hasClass && el.classList.length > 0) || el.hasAttribute('data-testid'))
    )
      namedAt[i] = 1;
    if (tag === 'canvas') at.canvas.push(i);
    else if (tag === 'svg') {
      const r = rectOf(el);
      if (r.width >= 80 && r.height >= 50) at.svg.push(i);
    }
    if (tag === 'table' || role === 'table' || role === 'grid') at.tables.push(i);
    if (tag === 'form') at.forms.push(i);
    if (tag === 'input') {
      const type = (el.getAttribute('type') ?? '').toLowerCase();
      if (type !== 'hidden' && type !== 'submit' && type !== 'button') at.inputs.push(i);
      if (type === 'password') at.passwords.push(i);
      const has = (attr: string) => (el.getAttribute(attr) ?? '').toLowerCase().includes('email');
      if (
        type === 'email' ||
        el.getAttribute('autocomplete') === 'email' ||
        has('name') ||
        has('placeholder') ||
        has('aria-label')
      )
        at.emails.push(i);
      if (type === 'search' || role === 'search') at.searches.push(i);
      if (type === 'submit' || role === 'button') at.buttons.push(i);
    } else {
      if (tag === 'textarea' || tag === 'select') at.inputs.push(i);
      if (role === 'search' || tag === 'search') at.searches.push(i);
      if (tag === 'button' || role === 'button') at.buttons.push(i);
    }
    if (tag === 'img' || tag === 'picture' || role === 'img') at.images.push(i);
    if (tag === 'a' && el.hasAttribute('href')) at.links.push(i);
    if (HEADING_TAGS.has(tag) || role === 'heading') at.headings.push(i);
    if (tag === 'li') at.listItems.push(i);
  }
  /** The first index in a sorted list at or after `from`. */
  const lowerBound = (list: number[], from: number) => {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((list[mid] as number) < from) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  /** How many elements of a kind element `i` holds. */
  const held = (kind: Kind, i: number) => {
    const list = at[kind];
    return lowerBound(list, i + 1 + (subtreeSize[i] ?? 0)) - lowerBound(list, i + 1);
  };
  // The identifiers of what an element holds (its descendants' ids and classes, a few dozen
  // distinct ones from the first 400 identified ones): "the card with progress bars" is the card
  // holding `.progress-bar`s.
  // Each identified element's own identifiers, read once (every block around it asks).
  const identsOfElement = new Map<number, string[]>();
  const ownIdents = (j: number): string[] => {
    let list = identsOfElement.get(j);
    if (!list) {
      const d = all[j] as Element;
      // classList, not className: an SVG icon's className is not a string.
      list = d.id ? [d.id, ...d.classList] : [...d.classList];
      identsOfElement.set(j, list);
    }
    return list;
  };
  const innerIdentsOf = (i: number): string => {
    const seen = new Set<string>();
    const list = at.identified;
    const end = lowerBound(list, i + 1 + (subtreeSize[i] ?? 0));
    const start = lowerBound(list, i + 1);
    for (let j = start; j < end && j < start + 400 && seen.size < 48; j++) {
      for (const c of ownIdents(list[j] as number)) if (seen.size < 48) seen.add(c);
    }
    return [...seen].join(' ');
  };
  // The heading elements and fields inside each element (the first few of them).
  const listsIn = (selector: string, cap: number) => {
    const lists = new Map<Element, Element[]>();
    for (const x of document.body?.querySelectorAll(selector) ?? []) {
      for (let node = x.parentElement; node && node !== document.documentElement; node = node.parentElement) {
        const list = lists.get(node) ?? [];
        if (list.length >= cap) continue;
        list.push(x);
        lists.set(node, list);
      }
    }
    return lists;
  };
  const headingsIn = listsIn(HEADING_SELECTOR, 17);
  const fieldsIn = listsIn('input,textarea', 6);

  // The most children of one kind (same tag and first class) an element lays out: a grid, a list.
  const repeatsOf = (el: Element): number => {
    const counts = new Map<string, number>();
    let most = 0;
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
      const child = c;
      const key = `${child.tagName}.${child.classList[0] ?? ''}`;
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      most = Math.max(most, n);
    }
    return Math.min(most, 500);
  };

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
  const root = document.documentElement;
  const pageWidth = Math.max(root.scrollWidth, document.body?.scrollWidth ?? 0, window.innerWidth);
  const viewportWidth = window.innerWidth;
  const viewportHeight = window.innerHeight;
  const elements: Element[] = [];
  const candidates: ElementCandidate[] = [];
  const indexOf = new Map<Element, number>();
  for (let pos = 0; pos < all.length; pos++) {
    const el = all[pos] as Element;
    if (candidates.length >= args.max) break;
    const tag = tagAt[pos] as string;
    if (SKIP.has(tag)) continue;
    const role = roleAt[pos] as string;
    if (role === 'presentation' || role === 'none') continue;
    const owns = headingOwner.has(el);
    const sized = tag === 'svg' || tag === 'img' || tag === 'ul' || tag === 'ol';
    const identified = namedAt[pos] === 1 && tag !== 'a' && tag !== 'span';
    // What can be a candidate whatever its size is decided before its box is read: most of a
    // large page (table cells, plain text blocks) is not, and reading boxes is the listing's cost.
    if (!STRUCTURAL.has(tag) && role === '' && !owns && !sized && !identified && tag !== 'a') continue;
    const box = boxOf(el);
    if (box.width < 24 || box.height < 16) continue;
    // Off the page (a settings drawer parked beyond the right edge): not what anyone sees.
    if (box.x >= pageWidth || box.x + box.width <= 0 || box.y + box.height <= 0) continue;
    const large = box.width >= 120 && box.height >= 60;
    const block = box.width >= 60 && box.height >= 16 && box.width * box.height >= 2000;
    const eligible =
      STRUCTURAL.has(tag) ||
      role !== '' ||
      owns ||
      (tag === 'svg' && large) ||
      (tag === 'img' && large) ||
      ((tag === 'ul' || tag === 'ol') && large) ||
      (identified && block) ||
      (tag === 'a' && large && surfaceOf(el));
    if (!eligible || !visible(el)) continue;
    const heading = headingOwner.get(el);
    const inner = headingsIn.get(el) ?? [];
    const innerTitles = titlesIn.get(el) ?? [];
    // A table's column headers are its headings: they say what it lists.
    const columnHeads =
      tag === 'table' || role === 'table' || role === 'grid'
        ? [...el.querySelectorAll('th')].slice(0, 12)
        : [];
    const innerHeadings = [...inner, ...innerTitles, ...columnHeads]
      .filter((h) => h !== heading)
      .slice(0, 16)
      .map((h) => clean(h.textContent))
      .join(' | ');
    // Placeholders and labels of a few fields say what a small form or search box is for.
    const fields = fieldsIn.get(el) ?? [];
    const hints =
      fields.length > 0 && fields.length <= 5
        ? [...fields]
            .map((f) => `${f.getAttribute('placeholder') ?? ''} ${f.getAttribute('aria-label') ?? ''}`)
            .join(' ')
        : '';
    const drawn = chartWords.size > 0 ? chartWordsIn(el) : '';
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text (no script or style contents, no hidden parts) is what a description refers to
    const raw = (el as HTMLElement).innerText ?? el.textContent ?? '';
    // A long text (a whole page's blocks) is cleaned only as far as its start is kept: its length
    // and its amounts of money are read from it as it is.
    const long = raw.length > 4000;
    const fullText = long ? clean(raw.slice(0, 2000)) : clean(`${raw} ${hints}${drawn}`);
    let parent = -1;
    for (let up = el.parentElement; up; up = up.parentElement) {
      const found = indexOf.get(up);
      if (found !== undefined) {
        parent = found;
        break;
      }
    }
    const count = (kind: Kind) => held(kind, pos);
    const surface = surfaceOf(el);
    const index = candidates.length;
    indexOf.set(el, index);
    elements.push(el);
    candidates.push({
      index,
      tag,
      role: role || IMPLICIT_ROLES[tag] || '',
      name: nameOf(el),
      heading: heading ? headingText(heading) : '',
      headingDrawn: heading ? !realSet.has(heading) : false,
      innerHeadings,
      innerIdent: innerIdentsOf(pos),
      charts: chartsIn(el),
      ident: clean(
        [
          el.id,
          typeof el.className === 'string' ? el.className : '',
          el.getAttribute('data-testid'),
          el.getAttribute('name'),
        ].join(' '),
      ),
      text: fullText.slice(0, 400),
      textLength: long ? raw.length : fullText.length,
      contents: {
        canvas: count('canvas'),
        svg: count('svg'),
        tables: count('tables'),
        forms: count('forms'),
        inputs: count('inputs'),
        passwords: count('passwords'),
        emails: count('emails'),
        searches: count('searches'),
        buttons: count('buttons'),
        images: count('images'),
        links: count('links'),
        headings: count('headings'),
        listItems: count('listItems'),
        prices: Math.min(50, (long ? raw : fullText).match(/[$€£¥]\s?\d/g)?.length ?? 0),
        repeats: repeatsOf(el),
      },
      box,
      parent,
      surface,
      colour: surface ? colourOf(el) : '',
    });
  }
  (window as unknown as Record<string, unknown>)[args.globalName] = elements;
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
