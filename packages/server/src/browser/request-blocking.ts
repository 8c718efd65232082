import { BLOCK_CATEGORIES, BLOCK_RESOURCE_TYPES } from '@vitrine/contract';
import type { Page, Request } from 'playwright-core';
import type { BlockCategory, BlockLists } from './block-lists.ts';

/** The `block` field split into its three kinds of entries. */
export interface BlockRules {
  resourceTypes: Set<string>;
  categories: Set<BlockCategory>;
  globs: RegExp[];
}

const TYPES = new Set<string>(BLOCK_RESOURCE_TYPES);
const CATEGORIES = new Set<string>(BLOCK_CATEGORIES);

/**
 * A URL glob as a regular expression over the whole URL: `*` matches any run of characters
 * (slashes included), everything else is literal. An entry without `*` matches any URL that
 * contains it, so `tracker.example.com` and `*tracker.example.com*` mean the same.
 */
export function globToRegExp(glob: string): RegExp {
  const pattern = glob.includes('*') ? glob : `*${glob}*`;
  const body = pattern
    .split(/\*+/)
    .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 'i');
}

export function parseBlockEntries(entries: readonly string[]): BlockRules {
  const rules: BlockRules = { resourceTypes: new Set(), categories: new Set(), globs: [] };
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === '') continue;
    if (TYPES.has(entry)) rules.resourceTypes.add(entry);
    else if (CATEGORIES.has(entry)) rules.categories.add(entry as BlockCategory);
    else rules.globs.push(globToRegExp(entry));
  }
  return rules;
}

export function hasBlockRules(rules: BlockRules): boolean {
  return rules.resourceTypes.size > 0 || rules.categories.size > 0 || rules.globs.length > 0;
}

/** Whether one request is blocked; the page's own top-level document never is. */
export function isBlocked(
  request: Pick<Request, 'url' | 'resourceType'> & { sourceUrl: string },
  rules: BlockRules,
  lists: BlockLists | undefined,
): boolean {
  const url = request.url();
  if (url.startsWith('data:') || url.startsWith('blob:')) return false;
  const type = request.resourceType();
  if (rules.resourceTypes.has(type)) return true;
  if (rules.globs.some((glob) => glob.test(url))) return true;
  if (rules.categories.size > 0 && lists) {
    return lists
      .categoriesOf({ url, type, sourceUrl: request.sourceUrl })
      .some((c) => rules.categories.has(c));
  }
  return false;
}

/**
 * Aborts matching requests of `page` as "blocked by client"; everything else falls through to
 * routes set on the context (the network policy's accounting stays in charge of those).
 */
export async function installRequestBlocking(
  page: Page,
  rules: BlockRules,
  lists: BlockLists | undefined,
): Promise<void> {
  if (!hasBlockRules(rules)) return;
  await page.route('**/*', async (route) => {
    const request = route.request();
    const topDocument = request.isNavigationRequest() && request.frame() === page.mainFrame();
    const sourceUrl = request.frame().url() || page.url();
    if (
      !topDocument &&
      isBlocked(
        { url: () => request.url(), resourceType: () => request.resourceType(), sourceUrl },
        rules,
        lists,
      )
    ) {
      await route.abort('blockedbyclient').catch(() => undefined);
      return;
    }
    await route.fallback().catch(() => undefined);
  });
}
