import { invalidParam } from '../errors/app-error.ts';
import { backgroundAssetId } from './asset-id.ts';
import type { BackgroundConfig } from './background-config.ts';
import { type BackgroundGroup, PACKS, type PackDefinition } from './catalogue-packs.ts';
import type { BackgroundTheme } from './palettes.ts';

/** One hosted background: catalogue data only (URLs are added where the public URL is known). */
export interface BackgroundAsset {
  id: string;
  name: string;
  slug: string;
  pack: string;
  group: BackgroundGroup;
  type: string;
  subtype: string;
  theme: BackgroundTheme;
  /** Format of the full-size `image_url`. */
  format: 'png' | 'webp';
  tags: string[];
  /** The `pack/slug` reference accepted by the capture field `background`. */
  background: string;
  service_params: { background: string };
  config: BackgroundConfig;
}

/** A pack as listed: its assets in catalogue order. */
export interface BackgroundPack {
  pack: string;
  title: string;
  description: string;
  group: BackgroundGroup;
  type: string;
  assets: readonly BackgroundAsset[];
}

/** The whole catalogue, immutable, with lookups by reference and by id. */
export interface BackgroundCatalogue {
  readonly assets: readonly BackgroundAsset[];
  readonly packs: readonly BackgroundPack[];
  /** By `pack/slug` reference or `bg_` id; undefined when unknown. */
  find(reference: string): BackgroundAsset | undefined;
  pack(name: string): BackgroundPack | undefined;
}

function buildPack(definition: PackDefinition): BackgroundPack {
  const assets = definition.drafts().map((draft, i): BackgroundAsset => {
    const slug = `${definition.pack}-${String(i + 1).padStart(2, '0')}`;
    const background = `${definition.pack}/${slug}`;
    return Object.freeze({
      id: backgroundAssetId(definition.pack, slug),
      name: draft.name,
      slug,
      pack: definition.pack,
      group: definition.group,
      type: definition.type,
      subtype: draft.subtype,
      theme: draft.theme,
      format: definition.format,
      tags: [...new Set([...definition.tags, ...draft.tags])],
      background,
      service_params: { background },
      config: draft.config,
    });
  });
  return Object.freeze({
    pack: definition.pack,
    title: definition.title,
    description: definition.description,
    group: definition.group,
    type: definition.type,
    assets: Object.freeze(assets),
  });
}

/**
 * Builds the catalogue from the pack definitions. Deterministic: the same code always yields
 * the same ids, slugs and configs, so nothing is stored but rendered bytes.
 */
export function createBackgroundCatalogue(
  definitions: readonly PackDefinition[] = PACKS,
): BackgroundCatalogue {
  const packs = Object.freeze(definitions.map(buildPack));
  const assets = Object.freeze(packs.flatMap((p) => p.assets));
  const byKey = new Map<string, BackgroundAsset>();
  for (const asset of assets) {
    if (byKey.has(asset.background) || byKey.has(asset.id))
      throw new Error(`Duplicate background ${asset.background}`);
    byKey.set(asset.background, asset);
    byKey.set(asset.id, asset);
  }
  const packByName = new Map(packs.map((p) => [p.pack, p]));
  return {
    assets,
    packs,
    find: (reference) => byKey.get(reference.trim()),
    pack: (name) => packByName.get(name),
  };
}

/** The service's catalogue: immutable data, built once from the pack definitions. */
export const BACKGROUND_CATALOGUE: BackgroundCatalogue = createBackgroundCatalogue();

/**
 * Resolves the capture field `background` (`pack/slug` or a `bg_` id) to its asset, or fails
 * with `invalid_params` naming the field and where the valid values are listed.
 */
export function resolveBackgroundReference(
  reference: string,
  catalogue: BackgroundCatalogue = BACKGROUND_CATALOGUE,
): BackgroundAsset {
  const asset = catalogue.find(reference);
  if (asset) return asset;
  const packName = reference.split('/')[0] ?? '';
  const pack = catalogue.pack(packName);
  const hint = pack
    ? `Pack ${packName} has ${pack.assets[0]?.slug} to ${pack.assets.at(-1)?.slug}.`
    : `Packs: ${catalogue.packs.map((p) => p.pack).join(', ')}.`;
  throw invalidParam(
    'background',
    `Unknown background "${reference.slice(0, 100)}". Use a pack/slug reference (e.g. ${catalogue.assets[0]?.background}) or a bg_ id listed by GET /v1/backgrounds. ${hint}`,
  );
}
