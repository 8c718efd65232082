import type { PageMetadata } from '@vitrine/contract';
import type { PageSignals } from '../ai/ai-types.ts';

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

/** The result's `metadata`: the declarations, and the colours and fonts the AI step reads. */
export function pageMetadataOf(declared: DeclaredMetadata, signals: PageSignals): PageMetadata {
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
