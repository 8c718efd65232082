import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import loadTrackerDB from '@ghostery/trackerdb';
import type { BLOCK_CATEGORIES } from '@vitrine/contract';
import { loadOnce } from '../load-once.ts';

/** One of the contract's block categories (`ads`, `trackers`, `cookie-banners`, `chat-widgets`). */
export type BlockCategory = (typeof BLOCK_CATEGORIES)[number];

/** A request as the matcher sees it; `type` is Playwright's resource type. */
export interface BlockListRequest {
  url: string;
  type: string;
  /** URL of the page that made the request (for third-party rules). */
  sourceUrl: string;
}

/**
 * The maintained lists behind the `block` categories, read from installed npm packages:
 * Ghostery's TrackerDB (an adblocker engine with its filters and their categories, shipped in
 * `@ghostery/trackerdb`) for requests, and the cookie-banner selectors of DuckDuckGo's
 * autoconsent rules (`@duckduckgo/autoconsent`) for consent pop-ups drawn by the page itself.
 */
export interface BlockLists {
  /** The block categories a request belongs to (empty when none). */
  categoriesOf(request: BlockListRequest): BlockCategory[];
  /** CSS selectors of cookie-consent pop-ups, hidden when `cookie-banners` is blocked. */
  cookieBannerSelectors: readonly string[];
}

/** TrackerDB category keys behind each contract category. */
export const TRACKERDB_CATEGORIES: Record<string, BlockCategory> = {
  advertising: 'ads',
  pornvertising: 'ads',
  site_analytics: 'trackers',
  consent: 'cookie-banners',
  customer_interaction: 'chat-widgets',
};

/** Playwright resource types in the adblocker's vocabulary. */
const REQUEST_TYPES: Record<string, string> = {
  document: 'sub_frame',
  fetch: 'xhr',
  eventsource: 'other',
  texttrack: 'media',
  manifest: 'other',
};

interface AutoconsentRule {
  prehideSelectors?: string[];
}

async function loadCookieBannerSelectors(resolve: NodeJS.RequireResolve): Promise<string[]> {
  const file = resolve('@duckduckgo/autoconsent/rules/rules.json');
  const rules = JSON.parse(await readFile(file, 'utf8')) as { autoconsent?: AutoconsentRule[] };
  const selectors = new Set<string>();
  for (const rule of rules.autoconsent ?? []) {
    for (const selector of rule.prehideSelectors ?? []) {
      if (selector.trim() !== '') selectors.add(selector.trim());
    }
  }
  return [...selectors];
}

/** Generic element-hiding rules (`##selector`) of TrackerDB's consent managers. */
function consentCosmeticSelectors(trackerDbText: string): string[] {
  const lines = trackerDbText.split('\n');
  const selectors: string[] = [];
  for (let i = 0; i + 1 < lines.length; i += 1) {
    const next = lines[i + 1] ?? '';
    if (lines[i]?.includes('trackerdb_category:consent') && next.startsWith('##')) {
      selectors.push(next.slice(2).trim());
    }
  }
  return selectors;
}

function hostOf(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return undefined;
  }
}

interface PatternMatch {
  pattern: { domains: string[]; website_url: string | null };
  category: { key: string };
}

/**
 * Whether a domain-level match counts. TrackerDB lists every domain of an organisation under
 * one pattern (all of google.com is "advertising"); the organisation's own website domain is
 * therefore not blocked wholesale, only through the pattern's explicit filters.
 */
function domainMatchCounts(match: PatternMatch, requestHost: string): boolean {
  const website = hostOf(match.pattern.website_url);
  const matched = match.pattern.domains.find((d) => requestHost === d || requestHost.endsWith(`.${d}`));
  return matched !== undefined && matched !== website;
}

/** Reads both lists from disk (about 50 ms); load once at start-up and share. */
export async function loadBlockLists(): Promise<BlockLists> {
  const require = createRequire(import.meta.url);
  const distDir = path.resolve(path.dirname(require.resolve('@ghostery/trackerdb')), '..');
  const [engineBytes, trackerDbText, autoconsentSelectors] = await Promise.all([
    readFile(path.join(distDir, 'trackerdb.engine')),
    readFile(path.join(distDir, 'trackerdb.txt'), 'utf8'),
    loadCookieBannerSelectors(require.resolve),
  ]);
  const trackerDb = await loadTrackerDB(new Uint8Array(engineBytes));
  const cookieBannerSelectors = [
    ...new Set([...autoconsentSelectors, ...consentCosmeticSelectors(trackerDbText)]),
  ];

  const categorise = (matches: PatternMatch[], accept: (match: PatternMatch) => boolean): BlockCategory[] => {
    const found = new Set<BlockCategory>();
    for (const match of matches) {
      const category = TRACKERDB_CATEGORIES[match.category.key];
      if (category && accept(match)) found.add(category);
    }
    return [...found];
  };

  return {
    cookieBannerSelectors,
    categoriesOf(request) {
      const details = {
        url: request.url,
        type: (REQUEST_TYPES[request.type] ?? request.type) as 'other',
        sourceUrl: request.sourceUrl,
      };
      const byFilter = categorise(trackerDb.matchUrl(details, { getDomainMetadata: false }), () => true);
      if (byFilter.length > 0) return byFilter;
      const host = hostOf(request.url);
      if (host === undefined || host === hostOf(request.sourceUrl)) return [];
      return categorise(trackerDb.matchUrl(details, { getDomainMetadata: true }), (match) =>
        domainMatchCounts(match, host),
      );
    },
  };
}

/**
 * Lazily loaded lists, so a process that never blocks a category never reads them. The state
 * lives in the returned object (one per service), not in the module.
 */
export function createBlockListsLoader(): () => Promise<BlockLists> {
  return loadOnce(loadBlockLists);
}
