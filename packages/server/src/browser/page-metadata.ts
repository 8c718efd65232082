import type { PageMetadata } from '@vitrine/contract';
import type { Page } from 'playwright-core';
import { z } from 'zod';
import type { PageSignals } from '../ai/ai-types.ts';
import { collectPageSignals } from '../ai/collect-page-signals.ts';

/** What the document declares about itself, read in the page (see {@link readDeclaredMetadata}). */
export interface DeclaredMetadata {
  title: string | null;
  description: string | null;
  canonical: string | null;
  favicon: string | null;
  themeColor: string | null;
  language: string | null;
  openGraph: Record<string, string>;
  twitter: Record<string, string>;
}

/**
 * Runs inside the captured page (Playwright serialises it; nothing from this module's scope):
 * the head's own declarations, URLs made absolute against the document. Values are trimmed and
 * cut at 2000 characters; at most 50 Open Graph and 50 Twitter properties.
 */
export function readDeclaredMetadata(): DeclaredMetadata {
  const doc = document;
  const clean = (value: string | null | undefined): string | null => {
    const text = (value ?? '').replace(/\s+/g, ' ').trim();
    return text ? text.slice(0, 2000) : null;
  };
  const absolute = (href: string | null | undefined): string | null => {
    const value = clean(href);
    if (!value) return null;
    try {
      return new URL(value, doc.baseURI).href;
    } catch {
      return null;
    }
  };
  const content = (selector: string) => clean(doc.querySelector(selector)?.getAttribute('content'));
  const properties = (prefix: string): Record<string, string> => {
    const found: Record<string, string> = {};
    for (const meta of Array.from(doc.querySelectorAll('meta[property], meta[name]')).slice(0, 500)) {
      const key = (meta.getAttribute('property') ?? meta.getAttribute('name') ?? '').trim().toLowerCase();
      const value = clean(meta.getAttribute('content'));
      if (!key.startsWith(prefix) || !value || key in found) continue;
      found[key.slice(prefix.length)] = value;
      if (Object.keys(found).length >= 50) break;
    }
    return found;
  };
  const title = typeof doc.title === 'string' ? clean(doc.title) : null;
  return {
    title,
    description: content('meta[name="description" i]'),
    canonical: absolute(doc.querySelector('link[rel~="canonical" i]')?.getAttribute('href')),
    favicon: absolute(
      doc.querySelector('link[rel~="icon" i]')?.getAttribute('href') ??
        doc.querySelector('link[rel="apple-touch-icon" i]')?.getAttribute('href'),
    ),
    themeColor: content('meta[name="theme-color" i]'),
    language: clean(doc.documentElement.getAttribute('lang')),
    openGraph: properties('og:'),
    twitter: properties('twitter:'),
  };
}

const text = z.string().max(2000).nullable();
const properties = z
  .record(z.string().max(200), z.string().max(2000))
  .refine((record) => Object.keys(record).length <= 50);
const colours = z.array(z.string().max(200)).max(20);

/**
 * The page's script runs in the page's own world, so a hostile page can answer anything: what it
 * returns is checked (shapes and sizes) before it is stored and returned.
 */
const checkedMetadataSchema = z.object({
  title: text,
  description: text,
  canonical_url: text,
  favicon_url: text,
  theme_color: text,
  language: text,
  open_graph: properties,
  twitter: properties,
  colors: z.object({
    text: text,
    background: text,
    buttons: colours,
    links: colours,
    headings: colours,
  }),
  fonts: z.object({ headings: text, body: text }),
});

/**
 * The result's `metadata`: the declarations, and the colours and fonts the AI step reads; null
 * when what the page answered is not of the expected shape or size.
 */
export function pageMetadataOf(declared: DeclaredMetadata, signals: PageSignals): PageMetadata | null {
  let assembled: PageMetadata;
  try {
    assembled = assembleMetadata(declared, signals);
  } catch {
    return null;
  }
  const checked = checkedMetadataSchema.safeParse(assembled);
  return checked.success ? checked.data : null;
}

function assembleMetadata(declared: DeclaredMetadata, signals: PageSignals): PageMetadata {
  return {
    title: declared.title,
    description: declared.description,
    canonical_url: declared.canonical,
    favicon_url: declared.favicon,
    theme_color: declared.themeColor,
    language: declared.language,
    open_graph: declared.openGraph,
    twitter: declared.twitter,
    colors: {
      text: signals.colors.body?.text ?? null,
      background: signals.colors.body?.background ?? null,
      buttons: signals.colors.buttons,
      links: signals.colors.links,
      headings: signals.colors.headings,
    },
    fonts: { headings: signals.fonts.heading, body: signals.fonts.body },
  };
}

/**
 * Reads the page's metadata after the shot (the signals too, unless the AI step already read
 * them); null when the page's answer is unusable or its scripts broke the reading (a page that
 * swaps the DOM's methods): the capture is still delivered, with a warning.
 */
export async function readPageMetadata(
  page: Page,
  signals: PageSignals | undefined,
): Promise<PageMetadata | null> {
  try {
    const read = signals ?? (await page.evaluate(collectPageSignals));
    return pageMetadataOf(await page.evaluate(readDeclaredMetadata), read);
  } catch {
    return null;
  }
}
