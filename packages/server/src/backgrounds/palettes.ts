/** Which text colour reads on a background: light (dark text), dark (light text), or mixed. */
export type BackgroundTheme = 'light' | 'dark' | 'mixed';

/**
 * A curated palette: a base (the canvas colour) and four accents chosen to sit together.
 * Generators draw only these colours (and mixes of them), never random hues, so every asset
 * looks designed.
 */
export interface Palette {
  key: string;
  name: string;
  theme: BackgroundTheme;
  base: string;
  accents: readonly [string, string, string, string];
  /** Words a person might search for (colours, moods). */
  tags: readonly string[];
}

function palette(
  key: string,
  name: string,
  theme: BackgroundTheme,
  base: string,
  accents: [string, string, string, string],
  tags: string[],
): Palette {
  return { key, name, theme, base, accents, tags };
}

/** Every palette of the catalogue, by key. */
export const PALETTES = {
  nebula: palette(
    'nebula',
    'Nebula',
    'dark',
    '#0B0A1F',
    ['#6D28D9', '#DB2777', '#2563EB', '#F0ABFC'],
    ['purple', 'pink', 'space'],
  ),
  lagoon: palette(
    'lagoon',
    'Lagoon',
    'dark',
    '#021B24',
    ['#0E7490', '#14B8A6', '#22D3EE', '#A7F3D0'],
    ['teal', 'cyan', 'ocean'],
  ),
  ember: palette(
    'ember',
    'Ember',
    'dark',
    '#1A0505',
    ['#B91C1C', '#EA580C', '#F59E0B', '#FDE68A'],
    ['red', 'orange', 'warm', 'fire'],
  ),
  iris: palette(
    'iris',
    'Midnight Iris',
    'dark',
    '#0A0F2C',
    ['#3730A3', '#6366F1', '#A78BFA', '#C7D2FE'],
    ['indigo', 'violet', 'blue'],
  ),
  borealis: palette(
    'borealis',
    'Borealis',
    'dark',
    '#04111F',
    ['#10B981', '#06B6D4', '#8B5CF6', '#A7F3D0'],
    ['green', 'teal', 'northern lights'],
  ),
  rose: palette(
    'rose',
    'Obsidian Rose',
    'dark',
    '#140A12',
    ['#9D174D', '#E11D48', '#FB7185', '#FBCFE8'],
    ['pink', 'red', 'rose'],
  ),
  forest: palette(
    'forest',
    'Deep Forest',
    'dark',
    '#04140C',
    ['#065F46', '#15803D', '#84CC16', '#D9F99D'],
    ['green', 'nature', 'forest'],
  ),
  neon: palette(
    'neon',
    'Neon Arcade',
    'dark',
    '#0A0A12',
    ['#7C3AED', '#EC4899', '#06B6D4', '#FDE047'],
    ['neon', 'vivid', 'cyber'],
  ),
  oxide: palette(
    'oxide',
    'Oxide',
    'dark',
    '#111315',
    ['#9A3412', '#C2410C', '#78716C', '#FED7AA'],
    ['rust', 'earth', 'brown'],
  ),
  abyss: palette(
    'abyss',
    'Abyss',
    'dark',
    '#020617',
    ['#1E3A8A', '#0284C7', '#38BDF8', '#E0F2FE'],
    ['blue', 'navy', 'ocean'],
  ),
  plum: palette(
    'plum',
    'Plum Noir',
    'dark',
    '#170B1F',
    ['#581C87', '#A21CAF', '#F472B6', '#FBCFE8'],
    ['purple', 'magenta', 'plum'],
  ),
  graphite: palette(
    'graphite',
    'Graphite',
    'dark',
    '#0C0D10',
    ['#27272A', '#52525B', '#A1A1AA', '#E4E4E7'],
    ['grey', 'monochrome', 'minimal'],
  ),
  synthwave: palette(
    'synthwave',
    'Synthwave',
    'dark',
    '#12062B',
    ['#FF2E97', '#FF8A00', '#7B2FF7', '#2DE2E6'],
    ['retro', 'neon', 'pink', '80s'],
  ),
  copper: palette(
    'copper',
    'Copper Night',
    'dark',
    '#0F0B08',
    ['#7C2D12', '#D97706', '#FBBF24', '#FEF3C7'],
    ['gold', 'amber', 'warm'],
  ),
  peach: palette(
    'peach',
    'Peach Cream',
    'light',
    '#FFF7ED',
    ['#FDBA74', '#FB7185', '#F9A8D4', '#FDE68A'],
    ['peach', 'pastel', 'warm'],
  ),
  mint: palette(
    'mint',
    'Mint Breeze',
    'light',
    '#F0FDF4',
    ['#86EFAC', '#5EEAD4', '#A5F3FC', '#D9F99D'],
    ['mint', 'green', 'pastel', 'fresh'],
  ),
  lavender: palette(
    'lavender',
    'Lavender Mist',
    'light',
    '#FAF5FF',
    ['#C4B5FD', '#F0ABFC', '#A5B4FC', '#FBCFE8'],
    ['lavender', 'purple', 'pastel'],
  ),
  sky: palette(
    'sky',
    'Clear Sky',
    'light',
    '#F0F9FF',
    ['#7DD3FC', '#93C5FD', '#C4B5FD', '#BAE6FD'],
    ['blue', 'sky', 'calm'],
  ),
  sorbet: palette(
    'sorbet',
    'Sorbet',
    'light',
    '#FFF1F2',
    ['#FDA4AF', '#FCD34D', '#FDBA74', '#F9A8D4'],
    ['pink', 'yellow', 'summer'],
  ),
  sand: palette(
    'sand',
    'Sand Dune',
    'light',
    '#FAF6F0',
    ['#E7D3B5', '#D6B88D', '#C8A27C', '#F5E6CC'],
    ['beige', 'neutral', 'earth'],
  ),
  porcelain: palette(
    'porcelain',
    'Porcelain',
    'light',
    '#F8FAFC',
    ['#CBD5E1', '#94A3B8', '#E2E8F0', '#BFDBFE'],
    ['grey', 'minimal', 'clean'],
  ),
  citrus: palette(
    'citrus',
    'Citrus',
    'light',
    '#FEFCE8',
    ['#FDE047', '#A3E635', '#FB923C', '#FEF08A'],
    ['yellow', 'lime', 'fresh'],
  ),
  blush: palette(
    'blush',
    'Blush',
    'light',
    '#FDF2F8',
    ['#F9A8D4', '#FBCFE8', '#DDD6FE', '#FECDD3'],
    ['pink', 'soft', 'pastel'],
  ),
  seafoam: palette(
    'seafoam',
    'Seafoam',
    'light',
    '#ECFEFF',
    ['#67E8F9', '#99F6E4', '#A7F3D0', '#BAE6FD'],
    ['cyan', 'aqua', 'fresh'],
  ),
  sage: palette(
    'sage',
    'Sage',
    'light',
    '#F4F7F2',
    ['#B5C9A8', '#8FAF8A', '#DCE5D3', '#E9D8A6'],
    ['sage', 'green', 'muted', 'natural'],
  ),
  paper: palette(
    'paper',
    'Paper',
    'light',
    '#FAFAF9',
    ['#E7E5E4', '#D6D3D1', '#A8A29E', '#F5F5F4'],
    ['white', 'neutral', 'minimal'],
  ),
  boulevard: palette(
    'boulevard',
    'Sunset Boulevard',
    'mixed',
    '#F43F5E',
    ['#FB923C', '#A855F7', '#6366F1', '#FDE68A'],
    ['sunset', 'orange', 'purple', 'vivid'],
  ),
  tropical: palette(
    'tropical',
    'Tropical',
    'mixed',
    '#0891B2',
    ['#22C55E', '#FACC15', '#F97316', '#06B6D4'],
    ['tropical', 'green', 'yellow', 'vivid'],
  ),
  berry: palette(
    'berry',
    'Berry Smoothie',
    'mixed',
    '#7C3AED',
    ['#DB2777', '#F97316', '#C026D3', '#FDBA74'],
    ['berry', 'purple', 'pink', 'vivid'],
  ),
  riviera: palette(
    'riviera',
    'Riviera',
    'mixed',
    '#2563EB',
    ['#0EA5E9', '#6366F1', '#EC4899', '#BAE6FD'],
    ['blue', 'pink', 'vivid'],
  ),
  mojito: palette(
    'mojito',
    'Mojito',
    'mixed',
    '#0F766E',
    ['#14B8A6', '#84CC16', '#FDE047', '#ECFCCB'],
    ['green', 'lime', 'fresh'],
  ),
  candy: palette(
    'candy',
    'Cotton Candy',
    'mixed',
    '#818CF8',
    ['#F472B6', '#38BDF8', '#FDE68A', '#C4B5FD'],
    ['pastel', 'pink', 'blue', 'playful'],
  ),
  flamingo: palette(
    'flamingo',
    'Flamingo',
    'mixed',
    '#FB7185',
    ['#FDBA74', '#C084FC', '#F43F5E', '#FFE4E6'],
    ['pink', 'coral', 'warm'],
  ),
  blueprint: palette(
    'blueprint',
    'Blueprint',
    'dark',
    '#0B3D91',
    ['#1E56B8', '#5B8DEF', '#BFD4FF', '#FFFFFF'],
    ['blue', 'blueprint', 'technical'],
  ),
} as const satisfies Record<string, Palette>;

export type PaletteKey = keyof typeof PALETTES;

export function paletteByKey(key: PaletteKey): Palette {
  return PALETTES[key];
}
