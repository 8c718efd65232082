import type { GrainSpec } from './generators/generator-types.ts';
import { createSeededRandom } from './seeded-random.ts';

/** Side of the repeating grain tile, in output pixels (one grain per pixel). */
export const GRAIN_TILE = 384;

/** A square tile of monochrome grain values around 128 (its strength is applied when blending). */
export function grainTile(grain: GrainSpec, size: number): Uint8Array {
  const rnd = createSeededRandom(grain.seed ^ 0x9e3779b9);
  const tile = new Uint8Array(size * size);
  for (let i = 0; i < tile.length; i++) {
    // Sum of three uniforms: close enough to Gaussian grain.
    const g = 128 + (rnd.next() + rnd.next() + rnd.next() - 1.5) * 150;
    tile[i] = Math.max(0, Math.min(255, Math.round(g)));
  }
  return tile;
}

/**
 * Where the tile grid starts along one side: an odd number of tiles centred on the canvas, the
 * placement sharp's `composite({ tile: true })` used, so grain lands where it always did.
 */
function centredTileOffset(length: number, size: number): number {
  const tiles = Math.ceil(length / size) | 1;
  return Math.floor((tiles * size - length + 1) / 2) % size;
}

/**
 * The W3C `soft-light` blend of every grain value over every backdrop value, mixed by the grain's
 * opacity: `table[grain * 256 + backdrop]` is the output channel. 65,536 entries replace a
 * floating-point blend per channel per pixel (12 million at 2560x1600).
 */
function softLightTable(opacity: number): Uint8Array {
  const table = new Uint8Array(256 * 256);
  for (let s = 0; s < 256; s++) {
    // libvips blends the overlay premultiplied by its opacity (as sharp hands it over), and the
    // look of every grained asset was designed on that, so the table follows it exactly.
    const cs = (s / 255) * opacity;
    for (let b = 0; b < 256; b++) {
      const cb = b / 255;
      const d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : Math.sqrt(cb);
      const blended = cs <= 0.5 ? cb - (1 - 2 * cs) * cb * (1 - cb) : cb + (2 * cs - 1) * (d - cb);
      // Truncated, as libvips casts its float result back to 8 bits.
      table[s * 256 + b] = Math.floor(((1 - opacity) * cb + opacity * blended) * 255);
    }
  }
  return table;
}

/**
 * Opaque RGBA pixels (resvg's output on a filled background) to RGB with the film grain tiled
 * over them in soft-light. One pass over the raw pixels gives what a sharp `composite` of the
 * tile gave (to within one level in a few pixels), without libvips' float pipeline and the
 * extra copies of a 2560x1600 canvas.
 */
export function addFilmGrain(rgba: Uint8Array, width: number, height: number, grain: GrainSpec): Buffer {
  const rgb = Buffer.allocUnsafe(width * height * 3);
  const size = Math.min(GRAIN_TILE, width, height);
  const tile = grainTile(grain, size);
  const left = centredTileOffset(width, size);
  const top = centredTileOffset(height, size);
  // The grain's opacity, quantised to 8 bits as an RGBA tile would carry it.
  const table = softLightTable(Math.round(Math.min(1, grain.amount * 5) * 255) / 255);
  for (let y = 0; y < height; y++) {
    const tileRow = ((y + top) % size) * size;
    let i = y * width * 4;
    let o = y * width * 3;
    for (let x = 0, tx = left; x < width; x++) {
      const row = (tile[tileRow + tx] as number) * 256;
      rgb[o] = table[row + (rgba[i] as number)] as number;
      rgb[o + 1] = table[row + (rgba[i + 1] as number)] as number;
      rgb[o + 2] = table[row + (rgba[i + 2] as number)] as number;
      i += 4;
      o += 3;
      if (++tx === size) tx = 0;
    }
  }
  return rgb;
}
