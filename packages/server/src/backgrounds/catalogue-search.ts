import type { BackgroundAsset, BackgroundCatalogue } from './catalogue.ts';
import type { BackgroundTheme } from './palettes.ts';

/** Filters of GET /v1/backgrounds and /packs, already split and lowercased. */
export interface BackgroundFilter {
  group?: readonly string[];
  pack?: readonly string[];
  type?: readonly string[];
  theme?: BackgroundTheme;
  q?: string;
}

function matchesQuery(asset: BackgroundAsset, terms: readonly string[]): boolean {
  const haystack = [asset.name.toLowerCase(), asset.pack, ...asset.tags.map((t) => t.toLowerCase())];
  return terms.every((term) => haystack.some((field) => field.includes(term)));
}

/**
 * The assets matching every given filter, in catalogue order (stable, so pages never overlap).
 * Lists match any of their values; `q` is case-insensitive and every word of it must appear in
 * the name, the pack or a tag.
 */
export function filterBackgrounds(
  catalogue: BackgroundCatalogue,
  filter: BackgroundFilter,
): BackgroundAsset[] {
  const terms = (filter.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const inList = (list: readonly string[] | undefined, value: string) =>
    !list || list.length === 0 || list.includes(value);
  return catalogue.assets.filter(
    (asset) =>
      inList(filter.group, asset.group) &&
      inList(filter.pack, asset.pack) &&
      inList(filter.type, asset.type) &&
      (!filter.theme || asset.theme === filter.theme) &&
      (terms.length === 0 || matchesQuery(asset, terms)),
  );
}

/** One page of the filtered assets and the total the filter matches. */
export function pageBackgrounds(
  catalogue: BackgroundCatalogue,
  filter: BackgroundFilter,
  page: { limit: number; offset: number },
): { items: BackgroundAsset[]; total: number } {
  const all = filterBackgrounds(catalogue, filter);
  return { items: all.slice(page.offset, page.offset + page.limit), total: all.length };
}

/** A pack as listed: one entry per pack and theme among the matching assets. */
export interface PackSlice {
  group: string;
  pack: string;
  theme: BackgroundTheme;
  assets: BackgroundAsset[];
}

/** Groups the matching assets by pack and theme, in catalogue order. */
export function slicePacks(catalogue: BackgroundCatalogue, filter: BackgroundFilter): PackSlice[] {
  const slices = new Map<string, PackSlice>();
  for (const asset of filterBackgrounds(catalogue, filter)) {
    const key = `${asset.pack}/${asset.theme}`;
    const slice = slices.get(key) ?? { group: asset.group, pack: asset.pack, theme: asset.theme, assets: [] };
    slice.assets.push(asset);
    slices.set(key, slice);
  }
  return [...slices.values()];
}
