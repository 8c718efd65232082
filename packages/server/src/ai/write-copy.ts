import type { AiCopy, PageSignals, PageType } from './ai-types.ts';

export const COPY_LIMITS = { headline: 60, subtitle: 120, badge: 40 } as const;

const SEPARATORS = /\s+[|\u2013\u2014\u00b7:•-]\s+/;

function normalise(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Cuts at a sentence, then a clause, then a word boundary, so copy never ends mid-word. */
export function shorten(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t.replace(/[.;,]$/, '');
  const head = t.slice(0, max + 1);
  for (const stop of [/[.!?](?=\s)/g, /[;,:\u2013\u2014](?=\s)/g]) {
    let cut = -1;
    for (const m of head.matchAll(stop)) if (m.index >= max * 0.4 && m.index < max) cut = m.index;
    if (cut > 0) return t.slice(0, cut).trim();
  }
  const space = head.lastIndexOf(' ', max);
  return (space > max * 0.3 ? t.slice(0, space) : t.slice(0, max)).replace(/[\s.;,:\u2013\u2014-]+$/, '');
}

/** The title without the site name: "Pricing | Acme" -> "Pricing", keeping the longest part. */
function coreOf(title: string): string {
  const parts = title
    .split(SEPARATORS)
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.sort((a, b) => b.length - a.length)[0] ?? title;
}

const LEADS: Record<PageType, string> = {
  landing: 'Meet',
  dashboard: 'Your numbers at a glance:',
  docs: 'The guide to',
  'e-commerce': 'Shop',
  blog: 'Read:',
  pricing: 'Plans for',
  portfolio: 'Selected work by',
  'app-sign-in': 'Welcome back to',
};

/**
 * Headline, subtitle and badge from the page's title, h1, meta description and Open Graph tags.
 * The headline is never the page title verbatim: the first candidate (h1, Open Graph title, the
 * title without its site name, the description's first clause) that differs from the title, or
 * else the title's core led by a phrase of the page type. Each is shortened at a boundary.
 */
export function writeCopy(s: PageSignals, type: PageType): AiCopy {
  const title = s.title.trim();
  const differs = (c: string) => normalise(c) !== normalise(title) && normalise(c).length >= 3;
  const candidates = [s.h1, s.ogTitle, title ? coreOf(title) : null, s.ogDescription, s.metaDescription]
    .filter((c): c is string => !!c)
    .map((c) => shorten(c, COPY_LIMITS.headline));
  let headline = candidates.find(differs) ?? null;
  if (!headline) {
    const core = coreOf(title || s.ogSiteName || 'this page');
    headline = shorten(`${LEADS[type]} ${core}`, COPY_LIMITS.headline);
  }
  const description = s.ogDescription ?? s.metaDescription;
  let subtitle = description ? shorten(description, COPY_LIMITS.subtitle) : null;
  if (subtitle && normalise(subtitle) === normalise(headline)) subtitle = null;
  return { headline, subtitle, badge: badgeOf(s, type) };
}

/** A short label the page itself supports: a reading time, a trial, a discount, a launch. */
function badgeOf(s: PageSignals, type: PageType): string | null {
  const t = s.text;
  const read = t.match(/(\d{1,2})\s*min(?:ute)?s?\s*read/);
  if (type === 'blog' && read) return `${read[1]} min read`;
  const off = t.match(/(\d{1,2})\s*%\s*off/);
  if (off) return `${off[1]}% off`;
  if (/free trial/.test(t)) return 'Free trial';
  if (/\bnew\b|\blaunch(ed|ing)?\b|introducing/.test(t) && type === 'landing') return 'New';
  if (type === 'docs') return 'Docs';
  if (type === 'pricing' && /\bfree\b/.test(t)) return 'Free plan';
  return null;
}
