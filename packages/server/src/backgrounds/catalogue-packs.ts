import type { BackgroundGroupName } from '@vitrine/contract';
import type { BackgroundConfig } from './background-config.ts';
import { mixHex } from './color.ts';
import { cssMeshCss } from './generators/css-mesh.ts';
import { CSS_PATTERNS, cssPatternCss } from './generators/css-pattern.ts';
import { linearGradientCss, radialGradientCss } from './generators/pure-gradient.ts';
import { type BackgroundTheme, PALETTES, type Palette, type PaletteKey } from './palettes.ts';
import { createSeededRandom, type SeededRandom, seedFromString } from './seeded-random.ts';

/** A pack's group: the contract's BACKGROUND_GROUPS. */
export type BackgroundGroup = BackgroundGroupName;

/** One asset as a pack describes it, before ids and references are derived. */
export interface AssetDraft {
  name: string;
  subtype: string;
  theme: BackgroundTheme;
  tags: string[];
  config: BackgroundConfig;
}

/** A pack: a named, designed series of assets drawn by one generator. */
export interface PackDefinition {
  pack: string;
  title: string;
  description: string;
  group: BackgroundGroup;
  type: string;
  format: 'png' | 'webp';
  tags: string[];
  drafts(): AssetDraft[];
}

const p = (keys: PaletteKey[]): Palette[] => keys.map((k) => PALETTES[k]);
const colors = (pal: Palette) => ({ base: pal.base, colors: [...pal.accents] });
const ALL = Object.values(PALETTES) as Palette[];
const DARK = ALL.filter((x) => x.theme === 'dark');
const LIGHT = ALL.filter((x) => x.theme === 'light');
const MIXED = ALL.filter((x) => x.theme === 'mixed');

/** Builds drafts from palettes: a per-asset random source seeded from pack and position. */
function series(
  pack: string,
  palettes: Palette[],
  make: (
    pal: Palette,
    rnd: SeededRandom,
    seed: number,
    index: number,
  ) => Omit<AssetDraft, 'theme'> & { theme?: BackgroundTheme },
): AssetDraft[] {
  const used = new Map<string, number>();
  return palettes.map((pal, i) => {
    const seed = seedFromString(`${pack}/${i}`);
    const draft = make(pal, createSeededRandom(seed), seed, i);
    const seen = (used.get(draft.name) ?? 0) + 1;
    used.set(draft.name, seen);
    return {
      ...draft,
      name: seen > 1 ? `${draft.name} ${['', '', 'II', 'III', 'IV'][seen] ?? seen}` : draft.name,
      theme: draft.theme ?? pal.theme,
      tags: [...new Set([...draft.tags, ...pal.tags, draft.theme ?? pal.theme])],
    };
  });
}

const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;

/** Every pack of the catalogue, in catalogue order. */
export const PACKS: readonly PackDefinition[] = [
  {
    pack: 'mesh-gradients',
    title: 'Mesh Gradients',
    description: 'Soft colour fields melting into each other, with a whisper of grain.',
    group: 'backgrounds',
    type: 'mesh-gradient',
    format: 'webp',
    tags: ['mesh', 'gradient', 'soft', 'blur'],
    drafts: () =>
      series(
        'mesh-gradients',
        ALL.filter(
          (x) => x.key !== 'blueprint' && x.key !== 'graphite' && x.key !== 'paper' && x.key !== 'porcelain',
        ),
        (pal, rnd, seed) => {
          const spread = round(rnd.range(0.7, 1.15));
          return {
            name: `${pal.name} Mesh`,
            subtype: spread > 0.95 ? 'soft' : 'focused',
            tags: ['mesh', 'gradient', spread > 0.95 ? 'soft' : 'focused'],
            config: {
              generator: 'mesh-gradient',
              seed,
              ...colors(pal),
              blobs: rnd.int(5, 7),
              spread,
              grain: 0.035,
            },
          };
        },
      ),
  },
  {
    pack: 'fractal-glass',
    title: 'Fractal Glass',
    description: 'Colour seen through reeded glass: flutes that squeeze and mirror the light.',
    group: 'backgrounds',
    type: 'fractal-glass',
    format: 'webp',
    tags: ['glass', 'fractal glass', 'reeded', 'fluted', 'stripes'],
    drafts: () =>
      series(
        'fractal-glass',
        [...DARK.slice(0, 12), ...LIGHT.slice(0, 6), ...MIXED, ...DARK.slice(12, 13)],
        (pal, rnd, seed, i) => {
          const mirrored = i % 3 === 1;
          return {
            name: `${pal.name} Glass`,
            subtype: mirrored ? 'mirrored' : 'reeded',
            tags: ['glass', 'fractal glass', mirrored ? 'mirrored' : 'reeded'],
            config: {
              generator: 'fractal-glass',
              seed,
              ...colors(pal),
              flutes: rnd.pick([12, 16, 20, 24, 32]),
              refraction: round(mirrored ? -rnd.range(0.35, 0.6) : rnd.range(0.25, 0.5)),
              sheen: round(pal.theme === 'light' ? rnd.range(0.5, 0.7) : rnd.range(0.8, 1)),
              grain: 0.03,
            },
          };
        },
      ),
  },
  {
    pack: 'aurora',
    title: 'Aurora',
    description: 'Luminous ribbons drifting across a night sky, or a pale dawn.',
    group: 'backgrounds',
    type: 'aurora',
    format: 'webp',
    tags: ['aurora', 'glow', 'blur', 'northern lights'],
    drafts: () =>
      series(
        'aurora',
        p([
          'borealis',
          'nebula',
          'lagoon',
          'iris',
          'abyss',
          'plum',
          'neon',
          'synthwave',
          'forest',
          'rose',
          'ember',
          'copper',
          'oxide',
          'blueprint',
          'sky',
          'lavender',
          'mint',
          'seafoam',
          'blush',
          'peach',
        ]),
        (pal, rnd, seed) => {
          const night = pal.theme === 'dark';
          return {
            name: `${pal.name} Aurora`,
            subtype: night ? 'night' : 'dawn',
            tags: ['aurora', night ? 'night' : 'dawn'],
            config: {
              generator: 'aurora',
              seed,
              ...colors(pal),
              ribbons: rnd.int(2, 3),
              amplitude: round(rnd.range(0.08, 0.2)),
              blend: night ? 'screen' : 'normal',
              grain: 0.03,
            },
          };
        },
      ),
  },
  {
    pack: 'waves',
    title: 'Layered Waves',
    description: 'Paper-cut bands of colour rolling toward the bottom edge.',
    group: 'backgrounds',
    type: 'waves',
    format: 'png',
    tags: ['waves', 'layers', 'paper cut', 'curves'],
    drafts: () =>
      series(
        'waves',
        p([
          'abyss',
          'lagoon',
          'nebula',
          'ember',
          'forest',
          'plum',
          'synthwave',
          'iris',
          'sky',
          'peach',
          'mint',
          'lavender',
          'sorbet',
          'sand',
          'seafoam',
          'boulevard',
          'tropical',
          'berry',
          'riviera',
          'candy',
        ]),
        (pal, rnd, seed) => ({
          name: `${pal.name} Waves`,
          subtype: 'layered',
          tags: ['waves', 'layered'],
          config: {
            generator: 'waves',
            seed,
            ...colors(pal),
            layers: rnd.int(4, 6),
            amplitude: round(rnd.range(0.04, 0.09), 3),
            horizon: round(rnd.range(0.25, 0.45)),
          },
        }),
      ),
  },
  {
    pack: 'topographic',
    title: 'Topographic',
    description: 'Contour lines of imaginary terrain, every fifth line inked stronger.',
    group: 'backgrounds',
    type: 'topographic',
    format: 'png',
    tags: ['topographic', 'contour', 'lines', 'map'],
    drafts: () =>
      series(
        'topographic',
        p([
          'graphite',
          'abyss',
          'nebula',
          'forest',
          'lagoon',
          'oxide',
          'iris',
          'copper',
          'blueprint',
          'synthwave',
          'paper',
          'sand',
          'sage',
          'porcelain',
          'sky',
          'mint',
          'peach',
          'lavender',
          'mojito',
          'riviera',
        ]),
        (pal, rnd, seed) => ({
          name: `${pal.name} Contours`,
          subtype: 'contour',
          tags: ['topographic', 'contour', 'lines'],
          config: {
            generator: 'topographic',
            seed,
            ...colors(pal),
            levels: rnd.int(14, 24),
            frequency: round(rnd.range(1.4, 2.8)),
            lineWidth: round(rnd.range(1.1, 1.6)),
          },
        }),
      ),
  },
  {
    pack: 'bokeh',
    title: 'Bokeh',
    description: 'Out-of-focus lights: large soft discs behind small bright ones.',
    group: 'backgrounds',
    type: 'bokeh',
    format: 'webp',
    tags: ['bokeh', 'lights', 'circles', 'blur'],
    drafts: () =>
      series(
        'bokeh',
        p([
          'nebula',
          'copper',
          'lagoon',
          'neon',
          'rose',
          'abyss',
          'synthwave',
          'borealis',
          'ember',
          'iris',
          'peach',
          'sky',
          'blush',
          'citrus',
          'berry',
          'riviera',
        ]),
        (pal, rnd, seed) => ({
          name: `${pal.name} Bokeh`,
          subtype: 'lights',
          tags: ['bokeh', 'lights'],
          config: {
            generator: 'bokeh',
            seed,
            ...colors(pal),
            discs: rnd.int(40, 80),
            blend: pal.theme === 'light' ? 'normal' : 'screen',
            grain: 0.03,
          },
        }),
      ),
  },
  {
    pack: 'grainy-gradients',
    title: 'Grainy Gradients',
    description: 'Bold sweeps of colour with heavy film grain, printed-poster style.',
    group: 'backgrounds',
    type: 'grain',
    format: 'webp',
    tags: ['grain', 'noise', 'gradient', 'texture'],
    drafts: () =>
      series(
        'grainy-gradients',
        p([
          'synthwave',
          'nebula',
          'ember',
          'lagoon',
          'plum',
          'iris',
          'rose',
          'copper',
          'boulevard',
          'tropical',
          'berry',
          'riviera',
          'mojito',
          'candy',
          'flamingo',
          'peach',
          'sorbet',
          'lavender',
          'citrus',
          'seafoam',
        ]),
        (pal, rnd, seed) => ({
          name: `${pal.name} Grain`,
          subtype: 'noise',
          tags: ['grain', 'noise', 'gradient'],
          config: {
            generator: 'grainy-gradient',
            seed,
            ...colors(pal),
            angle: rnd.int(0, 7) * 45 + 20,
            grain: round(rnd.range(0.08, 0.14)),
          },
        }),
      ),
  },
  {
    pack: 'geometric',
    title: 'Geometric',
    description: 'Low-poly facets, Bauhaus tiles and isometric blocks.',
    group: 'backgrounds',
    type: 'geometric',
    format: 'png',
    tags: ['geometric', 'shapes', 'pattern'],
    drafts: () =>
      series(
        'geometric',
        p([
          'nebula',
          'abyss',
          'ember',
          'forest',
          'peach',
          'sky',
          'riviera',
          'berry',
          'sand',
          'boulevard',
          'iris',
          'graphite',
          'tropical',
          'mint',
          'oxide',
          'blush',
          'lagoon',
          'candy',
          'synthwave',
          'citrus',
          'plum',
          'porcelain',
          'copper',
          'mojito',
        ]),
        (pal, rnd, seed, i) => {
          const style = (['low-poly', 'bauhaus', 'isometric'] as const)[i % 3] as
            | 'low-poly'
            | 'bauhaus'
            | 'isometric';
          const title = { 'low-poly': 'Facets', bauhaus: 'Bauhaus', isometric: 'Blocks' }[style];
          return {
            name: `${pal.name} ${title}`,
            subtype: style,
            tags: [
              'geometric',
              style,
              style === 'low-poly' ? 'triangles' : style === 'bauhaus' ? 'circles' : 'cubes',
            ],
            config: {
              generator: 'geometric',
              seed,
              ...colors(pal),
              style,
              density:
                style === 'bauhaus'
                  ? rnd.int(6, 9)
                  : style === 'isometric'
                    ? rnd.int(10, 16)
                    : rnd.int(9, 14),
            },
          };
        },
      ),
  },
  {
    pack: 'linear-gradients',
    title: 'Linear Gradients',
    description: 'Clean two- and three-stop gradients, each with its CSS.',
    group: 'gradients',
    type: 'linear-gradient',
    format: 'png',
    tags: ['gradient', 'linear', 'css'],
    drafts: () =>
      series('linear-gradients', [...DARK.slice(0, 10), ...LIGHT.slice(0, 7), ...MIXED], (pal, rnd) => {
        const three = rnd.next() < 0.6;
        const [a, b, c] = pal.accents;
        const stops = three
          ? [
              { color: a, position: 0 },
              { color: b, position: rnd.int(40, 60) },
              { color: c, position: 100 },
            ]
          : [
              { color: pal.theme === 'light' ? a : pal.base, position: 0 },
              { color: pal.theme === 'light' ? c : b, position: 100 },
            ];
        const angle = rnd.pick([90, 120, 135, 160, 180, 200, 225, 315]);
        return {
          name: `${pal.name} Linear`,
          subtype: three ? 'three-stop' : 'two-stop',
          tags: ['gradient', 'linear', three ? 'three-stop' : 'two-stop'],
          config: { generator: 'linear-gradient', angle, stops, css: linearGradientCss(angle, stops) },
        };
      }),
  },
  {
    pack: 'radial-gradients',
    title: 'Radial Gradients',
    description: 'Spotlights and glows: radial gradients from an off-centre light.',
    group: 'gradients',
    type: 'radial-gradient',
    format: 'png',
    tags: ['gradient', 'radial', 'spotlight', 'css'],
    drafts: () =>
      series(
        'radial-gradients',
        p([
          'nebula',
          'abyss',
          'ember',
          'iris',
          'forest',
          'plum',
          'graphite',
          'copper',
          'peach',
          'sky',
          'mint',
          'lavender',
          'sand',
          'boulevard',
          'riviera',
          'berry',
        ]),
        (pal, rnd) => {
          const at = { x: rnd.pick([20, 30, 50, 70, 80]), y: rnd.pick([0, 20, 30, 50, 100]) };
          const stops =
            pal.theme === 'light'
              ? [
                  { color: '#FFFFFF', position: 0 },
                  { color: pal.accents[0], position: 45 },
                  { color: pal.accents[2], position: 100 },
                ]
              : [
                  { color: pal.accents[1], position: 0 },
                  { color: pal.accents[0], position: 30 },
                  { color: pal.base, position: 75 },
                ];
          return {
            name: `${pal.name} Radial`,
            subtype: 'spotlight',
            tags: ['gradient', 'radial', 'spotlight'],
            config: { generator: 'radial-gradient', at, stops, css: radialGradientCss(at, stops) },
          };
        },
      ),
  },
  {
    pack: 'css-patterns',
    title: 'CSS Patterns',
    description: 'Dots, grids, stripes and checks drawn with pure CSS gradients.',
    group: 'css-backgrounds',
    type: 'css-pattern',
    format: 'png',
    tags: ['pattern', 'css', 'repeating'],
    drafts: () =>
      series(
        'css-patterns',
        CSS_PATTERNS.flatMap((_, i) =>
          p(
            (
              [
                'paper',
                'graphite',
                'blueprint',
                'plum',
                'iris',
                'mint',
                'sand',
                'ember',
                'sky',
                'lagoon',
              ] as PaletteKey[]
            ).filter((__, j) => j % 10 === i % 10 || j % 10 === (i + 3) % 10 || j % 10 === (i + 7) % 10),
          ),
        ),
        (pal, rnd, _seed, i) => {
          const pattern = CSS_PATTERNS[Math.floor(i / 3)] ?? 'dots';
          const light = pal.theme === 'light';
          const fill =
            pattern === 'checkerboard' ||
            pattern === 'zigzag' ||
            pattern === 'diamonds' ||
            pattern === 'diagonal-stripes';
          const foreground = fill
            ? mixHex(pal.base, pal.accents[light ? 2 : 1], light ? 0.45 : 0.55)
            : pal.accents[2];
          const input = {
            pattern,
            size: fill ? rnd.pick([24, 32, 40, 48]) : rnd.pick([16, 20, 24, 32]),
            stroke:
              pattern === 'dots' || pattern === 'polka'
                ? rnd.pick([1.5, 2, 2.5])
                : pattern === 'diagonal-stripes'
                  ? rnd.pick([8, 12])
                  : 1,
            background: pal.base,
            foreground: fill ? foreground : mixHex(pal.base, foreground, light ? 0.75 : 0.45),
            secondary: mixHex(pal.base, foreground, light ? 0.35 : 0.18),
          };
          const title = pattern.replace(/-/g, ' ').replace(/\b\w/g, (ch) => ch.toUpperCase());
          return {
            name: `${pal.name} ${title}`,
            subtype: pattern,
            tags: ['pattern', 'css', pattern.replace(/-/g, ' ')],
            config: { generator: 'css-pattern', ...input, css: cssPatternCss(input) },
          };
        },
      ),
  },
  {
    pack: 'css-mesh',
    title: 'CSS Mesh',
    description: 'Mesh gradients made of layered radial gradients: paste the CSS, get the same picture.',
    group: 'css-backgrounds',
    type: 'css-mesh',
    format: 'png',
    tags: ['mesh', 'css', 'gradient'],
    drafts: () =>
      series(
        'css-mesh',
        p([
          'nebula',
          'lagoon',
          'iris',
          'plum',
          'synthwave',
          'abyss',
          'peach',
          'mint',
          'lavender',
          'sorbet',
          'sky',
          'citrus',
          'boulevard',
          'candy',
          'flamingo',
          'mojito',
        ]),
        (pal, rnd) => {
          const spots = pal.accents.map((color, k) => ({
            x: rnd.int(0, 100),
            y: k < 2 ? rnd.int(0, 45) : rnd.int(55, 100),
            color,
          }));
          return {
            name: `${pal.name} CSS Mesh`,
            subtype: 'spots',
            tags: ['mesh', 'css', 'gradient'],
            config: { generator: 'css-mesh', base: pal.base, spots, css: cssMeshCss(pal.base, spots) },
          };
        },
      ),
  },
];
