import type { PageSignals } from './ai-types.ts';

/**
 * Runs inside the captured page (Playwright serialises it; it must not use anything from this
 * module's scope). Reads the document once, after the page settled and before the screenshot's
 * page is closed, so the AI step and brand extraction need no second load.
 */
export function collectPageSignals(): PageSignals {
  const doc = document;
  const clean = (s: string | null | undefined): string | null => {
    const t = (s ?? '').replace(/\s+/g, ' ').trim();
    return t ? t.slice(0, 300) : null;
  };
  const meta = (sel: string): string | null => clean(doc.querySelector(sel)?.getAttribute('content'));
  const count = (sel: string): number => doc.querySelectorAll(sel).length;
  // biome-ignore lint/performance/useDomNodeTextContent: the visible text is what a reader sees
  const visibleText = (doc.body?.innerText ?? '').replace(/\s+/g, ' ').trim();
  const text = visibleText.toLowerCase().slice(0, 3000);
  const priceMatches = visibleText.match(/(?:[$€£¥]\s?\d[\d,.]*|\d[\d,.]*\s?(?:€|USD|EUR|GBP))/g) ?? [];
  const colorOf = (sel: string, prop: 'color' | 'backgroundColor', max: number): string[] => {
    const out: string[] = [];
    for (const el of Array.from(doc.querySelectorAll(sel)).slice(0, 40)) {
      const value = getComputedStyle(el)[prop];
      if (value && value !== 'rgba(0, 0, 0, 0)' && value !== 'transparent' && !out.includes(value)) {
        out.push(value);
      }
      if (out.length >= max) break;
    }
    return out;
  };
  const rootStyle = getComputedStyle(doc.documentElement);
  const customProperties: string[] = [];
  for (const name of [
    '--primary',
    '--brand',
    '--color-primary',
    '--brand-color',
    '--accent',
    '--secondary',
  ]) {
    const value = rootStyle.getPropertyValue(name).trim();
    if (value) customProperties.push(`${name}: ${value}`);
  }
  const firstFamily = (el: Element | null): string | null => {
    if (!el) return null;
    const family = getComputedStyle(el).fontFamily.split(',')[0];
    return family ? family.replace(/["']/g, '').trim() || null : null;
  };
  const h1 = doc.querySelector('h1');
  /**
   * The @font-face sources of a family the page declares (same-origin and inline sheets: a
   * cross-origin sheet's rules cannot be read), in the order the page lists them, the face
   * whose weight is nearest the element's first.
   */
  const faceSources = (el: Element | null, family: string | null) => {
    if (!el || !family) return [];
    const wantedWeight = Number.parseInt(getComputedStyle(el).fontWeight, 10) || 400;
    const found: { url: string; format: string | null; weight: number; order: number }[] = [];
    const visit = (rules: CSSRuleList, base: string, depth: number) => {
      for (const rule of Array.from(rules)) {
        if (found.length >= 24) return;
        if (rule instanceof CSSFontFaceRule) {
          const name = rule.style.getPropertyValue('font-family').replace(/["']/g, '').trim();
          if (name.toLowerCase() !== family.toLowerCase()) continue;
          if ((rule.style.getPropertyValue('font-style') || 'normal') !== 'normal') continue;
          const weight = Number.parseInt(rule.style.getPropertyValue('font-weight'), 10) || 400;
          const src = rule.style.getPropertyValue('src');
          for (const m of src.matchAll(
            /url\(\s*(["']?)([^"')]+)\1\s*\)(?:\s*format\(\s*["']?([\w-]+)["']?\s*\))?/g,
          )) {
            try {
              found.push({
                url: new URL(m[2] as string, base).href,
                format: m[3] ?? null,
                weight,
                order: found.length,
              });
            } catch {
              // not a URL
            }
          }
        } else if (rule instanceof CSSImportRule && rule.styleSheet && depth < 3) {
          try {
            visit(rule.styleSheet.cssRules, rule.styleSheet.href ?? base, depth + 1);
          } catch {
            // a cross-origin import
          }
        } else if ('cssRules' in rule && depth < 3) {
          visit((rule as CSSGroupingRule).cssRules, base, depth + 1);
        }
      }
    };
    for (const sheet of Array.from(doc.styleSheets)) {
      try {
        visit(sheet.cssRules, sheet.href ?? doc.baseURI, 0);
      } catch {
        // a cross-origin sheet
      }
    }
    // A data: URL is kept whole only up to what the 2 MB limit decodes from (cut longer, it still
    // decodes to more than 2 MB and is refused as too large); one per family, so a page cannot
    // make its signals big.
    let inline = 0;
    return found
      .filter((f) => !f.url.startsWith('data:') || inline++ === 0)
      .sort(
        (a, b) => Math.abs(a.weight - wantedWeight) - Math.abs(b.weight - wantedWeight) || a.order - b.order,
      )
      .slice(0, 6)
      .map(({ url, format, weight }) => ({
        url: url.startsWith('data:') ? url.slice(0, 2_800_000) : url,
        format,
        weight,
      }));
  };
  /** The generic family a computed font-family list ends in (serif, monospace...), if any. */
  const genericOf = (el: Element | null): string | null => {
    if (!el) return null;
    const generics = [
      'serif',
      'sans-serif',
      'monospace',
      'cursive',
      'fantasy',
      'system-ui',
      'ui-serif',
      'ui-sans-serif',
      'ui-monospace',
    ];
    const names = getComputedStyle(el)
      .fontFamily.split(',')
      .map((f) => f.replace(/["']/g, '').trim().toLowerCase());
    return names.find((n) => generics.includes(n)) ?? null;
  };
  const headingEl = doc.querySelector('h1, h2');
  const headingFamily = firstFamily(headingEl);
  const bodyFamily = firstFamily(doc.body);
  const abs = (u: string | null | undefined): string | null => {
    if (!u) return null;
    try {
      return new URL(u, doc.baseURI).href;
    } catch {
      return null;
    }
  };
  const header = doc.querySelector('header, nav, [role="banner"]') ?? doc.body;
  const logoImg = header?.querySelector(
    'img[class*="logo" i], img[alt*="logo" i], img[src*="logo" i], a[href="/"] img, img',
  ) as HTMLImageElement | null;
  const svgLogo = header?.querySelector('svg[class*="logo" i], a[href="/"] svg, svg[aria-label*="logo" i]');
  const iconLinks = Array.from(doc.querySelectorAll('link[rel~="icon" i]')) as HTMLLinkElement[];
  return {
    title: clean(doc.title) ?? '',
    // biome-ignore lint/performance/useDomNodeTextContent: the visible text is what a reader sees
    h1: clean((h1 as HTMLElement | null)?.innerText ?? h1?.textContent),
    metaDescription: meta('meta[name="description"]'),
    ogTitle: meta('meta[property="og:title"]'),
    ogDescription: meta('meta[property="og:description"]'),
    ogSiteName: meta('meta[property="og:site_name"]'),
    themeColor: meta('meta[name="theme-color"]'),
    text,
    wordCount: visibleText ? visibleText.split(' ').length : 0,
    counts: {
      forms: count('form'),
      passwordInputs: count('input[type="password"]'),
      inputs: count('input:not([type="hidden"]), textarea, select'),
      tables: count('table'),
      charts: count(
        'canvas, svg[class*="chart" i], [class*="chart" i] svg, [role="img"][aria-label*="chart" i]',
      ),
      codeBlocks: count('pre, code'),
      articles: count('article, [itemtype*="BlogPosting"], [itemtype*="Article"]'),
      times: count('time'),
      prices: priceMatches.length,
      headings: count('h1, h2, h3'),
      images: count('img, picture'),
      buttons: count('button, a[class*="btn" i], a[class*="button" i], [role="button"]'),
      navLinks: count('nav a'),
      asides: count('aside, [role="complementary"], nav[class*="side" i]'),
      products: count('[itemtype*="Product"], [class*="product" i], [class*="add-to-cart" i]'),
    },
    colors: {
      buttons: colorOf(
        'button, a[class*="btn" i], a[class*="button" i], [role="button"]',
        'backgroundColor',
        4,
      ),
      links: colorOf('a', 'color', 4),
      headings: colorOf('h1, h2', 'color', 3),
      customProperties,
      body: doc.body
        ? { text: getComputedStyle(doc.body).color, background: getComputedStyle(doc.body).backgroundColor }
        : undefined,
    },
    fonts: {
      heading: headingFamily,
      body: bodyFamily,
      sources: {
        heading: faceSources(headingEl, headingFamily),
        body: bodyFamily === headingFamily ? [] : faceSources(doc.body, bodyFamily),
        headingGeneric: genericOf(headingEl),
        bodyGeneric: genericOf(doc.body),
      },
    },
    assets: {
      logo: abs(logoImg?.getAttribute('src')),
      inlineSvgLogo: svgLogo ? svgLogo.outerHTML.slice(0, 100_000) : null,
      appleTouchIcon: abs(doc.querySelector('link[rel="apple-touch-icon" i]')?.getAttribute('href')),
      icons: iconLinks
        .map((l) => abs(l.getAttribute('href')))
        .filter((u): u is string => u !== null)
        .slice(0, 4),
      ogImage: abs(doc.querySelector('meta[property="og:image"]')?.getAttribute('content')),
    },
  };
}
