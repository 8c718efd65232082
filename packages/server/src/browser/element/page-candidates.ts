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
  const boxOf = (el: Element): DocumentBox => {
    const r = el.getBoundingClientRect();
    return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height };
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

  // Headings: real ones (h1-h6, role=heading) and the titles pages draw without them (a short,
  // bold or title-classed block of text: a card header, a plan's name, a stat's label). Their
  // rank is their rendered size (a small bold h4 under a 16 px h6 is lower), not the tag.
  const TITLE_CLASS = /(^|[-_\s])(title|heading|header|caption|subheading|name|label)([-_\s]|$)/i;
  const NOT_TITLE = 'a,button,label,th,td,option,select,textarea,input,li,nav,summary';
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
    while (node && node !== document.body && node !== document.documentElement) {
      const others = (ranksIn.get(node) ?? []).filter((x) => x >= r - 0.5).length;
      if (others > 1) break;
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
  const canvases = document.querySelectorAll('canvas');
  canvases.forEach((c, i) => {
    const kinds = args.canvasKinds?.[i];
    if (kinds && kinds.length > 0) chartKinds.set(c, kinds);
  });
  const boxKinds = document.querySelectorAll('[_echarts_instance_]');
  boxKinds.forEach((c, i) => {
    const kinds = args.echartsKinds?.[i];
    if (kinds && kinds.length > 0) chartKinds.set(c, kinds);
  });
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
  const innerIdentsOf = (el: Element): string => {
    const seen = new Set<string>();
    const walker = el.querySelectorAll('[id],[class]');
    for (let i = 0; i < walker.length && i < 400 && seen.size < 48; i++) {
      const d = walker[i] as Element;
      if (d.id) seen.add(d.id);
      // classList, not className: an SVG icon's className is not a string.
      for (const c of d.classList) if (seen.size < 48) seen.add(c);
    }
    return [...seen].join(' ');
  };

  // The most children of one kind (same tag and first class) an element lays out: a grid, a list.
  const repeatsOf = (el: Element): number => {
    const counts = new Map<string, number>();
    let most = 0;
    for (const child of el.children) {
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
      headingDrawn: heading ? !realSet.has(heading) : false,
      innerHeadings,
      innerIdent: innerIdentsOf(el),
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
        emails: count(
          'input[type="email"],input[autocomplete="email"],input[name*="email" i],input[placeholder*="email" i],input[aria-label*="email" i]',
        ),
        searches: count('input[type="search"],[role="search"],search'),
        buttons: count('button,input[type="submit"],[role="button"]'),
        images: count('img,picture,[role="img"]'),
        links: count('a[href]'),
        headings: inner.length,
        listItems: count('li'),
        prices: Math.min(50, fullText.match(/[$€£¥]\s?\d/g)?.length ?? 0),
        repeats: repeatsOf(el),
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
