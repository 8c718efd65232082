import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error.ts';
import { backgroundAssetId } from './asset-id.ts';
import { BACKGROUND_CATALOGUE, createBackgroundCatalogue, resolveBackgroundReference } from './catalogue.ts';
import { filterBackgrounds, pageBackgrounds, slicePacks } from './catalogue-search.ts';

const catalogue = BACKGROUND_CATALOGUE;

describe('background catalogue', () => {
  it('has at least 10 packs and 200 assets across all groups and themes', () => {
    expect(catalogue.packs.length).toBeGreaterThanOrEqual(10);
    expect(catalogue.assets.length).toBeGreaterThanOrEqual(200);
    expect(new Set(catalogue.assets.map((a) => a.group))).toEqual(
      new Set(['backgrounds', 'gradients', 'css-backgrounds']),
    );
    expect(new Set(catalogue.assets.map((a) => a.theme))).toEqual(new Set(['light', 'dark', 'mixed']));
    for (const type of [
      'mesh-gradient',
      'fractal-glass',
      'aurora',
      'waves',
      'topographic',
      'bokeh',
      'grain',
      'geometric',
    ]) {
      expect(catalogue.assets.some((a) => a.type === type && a.group === 'backgrounds')).toBe(true);
    }
  });

  it('gives every asset a stable, unique bg_ id and pack/slug reference', () => {
    const ids = new Set(catalogue.assets.map((a) => a.id));
    expect(ids.size).toBe(catalogue.assets.length);
    for (const a of catalogue.assets) {
      expect(a.id).toMatch(/^bg_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(a.id).toBe(backgroundAssetId(a.pack, a.slug));
      expect(a.background).toBe(`${a.pack}/${a.slug}`);
      expect(a.service_params).toEqual({ background: a.background });
      expect(a.tags.length).toBeGreaterThan(2);
    }
    expect(backgroundAssetId('fractal-glass', 'fractal-glass-01')).toBe(
      backgroundAssetId('fractal-glass', 'fractal-glass-01'),
    );
    expect(backgroundAssetId('fractal-glass', 'fractal-glass-01')).not.toBe(
      backgroundAssetId('fractal-glass', 'fractal-glass-02'),
    );
  });

  it('is deterministic: building it again yields the same assets', () => {
    expect(JSON.stringify(createBackgroundCatalogue().assets)).toBe(JSON.stringify(catalogue.assets));
  });

  it('keeps the CSS of css-backgrounds and gradients in config', () => {
    for (const a of catalogue.assets.filter((x) => x.group !== 'backgrounds')) {
      expect((a.config as { css?: string }).css).toMatch(/gradient\(/);
    }
  });
});

describe('resolveBackgroundReference', () => {
  it('resolves pack/slug and bg_ ids', () => {
    const asset = catalogue.assets[40]!;
    expect(resolveBackgroundReference(asset.background)).toBe(asset);
    expect(resolveBackgroundReference(asset.id)).toBe(asset);
  });

  it('rejects unknown references with invalid_params naming background', () => {
    for (const ref of ['fractal-glass/fractal-glass-999', 'nope/nothing', '']) {
      let error: unknown;
      try {
        resolveBackgroundReference(ref);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AppError);
      const appError = error as AppError;
      expect(appError.code).toBe('invalid_params');
      expect(appError.details).toEqual({
        issues: [{ path: 'background', message: expect.stringContaining('GET /v1/backgrounds') }],
      });
    }
    expect(() => resolveBackgroundReference('fractal-glass/x')).toThrow(/fractal-glass-01 to fractal-glass-/);
  });
});

describe('catalogue search', () => {
  it('filters by comma lists, theme and q, and total matches the filter', () => {
    const dark = filterBackgrounds(catalogue, { theme: 'dark', group: ['backgrounds'] });
    expect(dark.length).toBeGreaterThan(0);
    expect(dark.every((a) => a.theme === 'dark' && a.group === 'backgrounds')).toBe(true);
    const two = filterBackgrounds(catalogue, { pack: ['aurora', 'waves'] });
    expect(new Set(two.map((a) => a.pack))).toEqual(new Set(['aurora', 'waves']));
    expect(two.length).toBe(catalogue.pack('aurora')!.assets.length + catalogue.pack('waves')!.assets.length);
    const byType = filterBackgrounds(catalogue, { type: ['css-pattern'] });
    expect(byType.every((a) => a.type === 'css-pattern')).toBe(true);
    expect(filterBackgrounds(catalogue, { pack: ['no-such-pack'] })).toEqual([]);
  });

  it('searches name, pack and tags case-insensitively, every word required', () => {
    const glass = filterBackgrounds(catalogue, { q: 'GLASS' });
    expect(glass.length).toBeGreaterThanOrEqual(catalogue.pack('fractal-glass')!.assets.length);
    const byName = filterBackgrounds(catalogue, { q: 'nebula' });
    expect(byName.length).toBeGreaterThan(3);
    expect(
      byName.every((a) => `${a.name} ${a.pack} ${a.tags.join(' ')}`.toLowerCase().includes('nebula')),
    ).toBe(true);
    const both = filterBackgrounds(catalogue, { q: 'nebula glass' });
    expect(both.length).toBeGreaterThan(0);
    expect(both.length).toBeLessThan(byName.length);
    expect(filterBackgrounds(catalogue, { q: 'zzzz-nothing' })).toEqual([]);
  });

  it('pages without overlap in a stable order', () => {
    const filter = { group: ['backgrounds', 'gradients'] };
    const all = filterBackgrounds(catalogue, filter);
    const seen: string[] = [];
    for (let offset = 0; offset < all.length + 30; offset += 30) {
      const page = pageBackgrounds(catalogue, filter, { limit: 30, offset });
      expect(page.total).toBe(all.length);
      seen.push(...page.items.map((a) => a.id));
    }
    expect(seen).toEqual(all.map((a) => a.id));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('slices packs by pack and theme with counts that add up', () => {
    const slices = slicePacks(catalogue, {});
    expect(slices.reduce((n, s) => n + s.assets.length, 0)).toBe(catalogue.assets.length);
    expect(slicePacks(catalogue, { theme: 'light' }).every((s) => s.theme === 'light')).toBe(true);
  });
});
