import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Mat3 } from '../camera/camera-math.ts';
import type { MaskGeometry } from './depth-blur-mask.ts';
import type { BlurLevel } from './layer-blur.ts';
import type { QuadRows } from './quad-rows.ts';
import type { RgbaTarget, StraightLayer } from './straight-layer.ts';
import { BAND_KIND, type BandKind, type BandRunner, createBandRunner } from './warp-bands.ts';

/**
 * The warp's per-pixel loop, and the halving of a layer for its blur levels, run in WebAssembly
 * (packages/server/assembly/warp.ts, built by `make install` into packages/server/dist/warp.wasm).
 * This module loads it and places one call's data in its memory: for a warp the parameter
 * block, the layer, the canvas rows the quad touches, the row spans and the blur, and after the
 * call it copies those canvas rows back.
 */
const WASM_FILE = fileURLToPath(new URL('../../../dist/warp.wasm', import.meta.url));

/** Slots of the parameter block (f64 each). Keep in step with P_* in assembly/warp.ts. */
const PARAM = {
  inv: 0,
  lx: 9,
  ly: 10,
  width: 11,
  height: 12,
  src: 13,
  dst: 14,
  dstWidth: 15,
  y0: 16,
  y1: 17,
  from: 18,
  to: 19,
  blurMode: 20,
  levelCount: 21,
  levels: 22,
  weights: 23,
  t0: 24,
  perT: 25,
  geometryKind: 26,
  geometry: 27,
  step: 32,
  gx: 33,
  gy: 34,
  gw: 35,
  gh: 36,
  values: 37,
  row: 38,
  gridColumns: 39,
  gridRow0: 40,
  gridRow1: 41,
  count: 42,
} as const;
const PARAM_BYTES = PARAM.count * 8;

/**
 * Rows per band (warp-bands.ts): small enough that the two threads end together (the far side
 * of a tilted frame costs several times the near side per row), large enough that a band's call
 * and claim are nothing beside its work.
 */
const WARP_BAND_ROWS = 32;
const GRID_BAND_ROWS = 8;
/**
 * The module's memory may grow to 4 GiB: a shared memory declares its maximum, and this one
 * must not exceed the module's own (`--maximumMemory` of `build:wasm` in package.json).
 */
const MAX_PAGES = 65_536;

/** f64 per blur level descriptor: pixels pointer, width, height, sx, sy. */
const LEVEL_SLOTS = 5;
/** Floats per grid point: premultiplied r, g, b, a, and the rest. */
const GRID_FLOATS = 5;
/** The row buffer and the grid are read 4 floats at a time: room for a last partial vector. */
const SIMD_PAD = 16;
const PAGE = 65_536;
/**
 * An instance (with its memory, which WebAssembly cannot shrink: up to 60 MB after a tilted
 * render at dpr 2, and its worker thread) is kept for the next render and dropped after this
 * long without one.
 */
const IDLE_MS = 30_000;

interface WarpExports {
  warp(params: number): void;
  blurGrid(params: number): void;
  halve(src: number, width: number, height: number, out: number): void;
  heapBase(): number;
}

/** The blur levels as warpOnto takes them (BlurredLayer of layer-blur.ts). */
export interface WarpBlur {
  levels: BlurLevel[];
  weights: Float32Array;
  t0: number;
  perT: number;
  geometry: MaskGeometry;
}

/** One warp: everything the WebAssembly loop reads, in plain data. */
export interface WarpJob {
  target: RgbaTarget;
  layer: StraightLayer;
  /** The inverse homography: target px -> layer space. */
  inv: Mat3;
  rows: QuadRows;
  blur: WarpBlur | null;
  /** The coarse grid the blur levels are interpolated from, or null to sample them per pixel. */
  grid: BlurGridPlan | null;
  /** Rows per band of the warp and of the grid (WARP_BAND_ROWS, GRID_BAND_ROWS unless given). */
  bandRows?: { warp: number; grid: number };
}

/** The coarse grid: `gw` x `gh` points `step` px apart from (`gx`, `gy`) (see gridPlan). */
export interface BlurGridPlan {
  step: number;
  gx: number;
  gy: number;
  gw: number;
  gh: number;
  /** Per grid row, the columns [from, to) that some visited pixel reads (pairs). */
  columns: Int32Array;
}

let compiled: WebAssembly.Module | null = null;
interface LiveWarp {
  exports: WarpExports;
  memory: WebAssembly.Memory;
  bands: BandRunner;
  idle: NodeJS.Timeout;
}
let live: LiveWarp | null = null;

function warpModule(): WebAssembly.Module {
  if (compiled) return compiled;
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = new Uint8Array(fs.readFileSync(WASM_FILE));
  } catch (cause) {
    throw new Error(`the warp's WebAssembly module is missing (${WASM_FILE}): run make install`, { cause });
  }
  const module = new WebAssembly.Module(bytes);
  // A module built before the warp ran on two threads has a memory of its own: it would load,
  // ignore the shared memory and draw nothing.
  const sharesMemory = WebAssembly.Module.imports(module).some(
    (entry) => entry.module === 'env' && entry.name === 'memory' && entry.kind === 'memory',
  );
  if (!sharesMemory)
    throw new Error(`the warp's WebAssembly module is out of date (${WASM_FILE}): run make install`);
  compiled = module;
  return compiled;
}

function warpInstance(): LiveWarp {
  if (live) {
    live.idle.refresh();
    return live;
  }
  const module = warpModule();
  const memory = new WebAssembly.Memory({ initial: 1, maximum: MAX_PAGES, shared: true });
  const exports = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as WarpExports;
  const idle = setTimeout(() => {
    live?.bands.close();
    live = null;
  }, IDLE_MS);
  idle.unref();
  live = { exports, memory, bands: createBandRunner(module, memory), idle };
  return live;
}

/** Hands out 16-byte aligned offsets from the module's heap base, then grows the memory to fit. */
class Placement {
  private next: number;
  private readonly warp: LiveWarp;
  constructor(warp: LiveWarp) {
    this.warp = warp;
    this.next = align(warp.exports.heapBase());
  }
  take(bytes: number): number {
    const at = this.next;
    this.next = align(at + bytes);
    return at;
  }
  /** Grows the memory to hold everything taken; returns it (views of it stay valid: shared). */
  memory(): SharedArrayBuffer {
    const short = this.next - this.warp.memory.buffer.byteLength;
    if (short > 0) this.warp.memory.grow(Math.ceil(short / PAGE));
    return this.warp.memory.buffer as unknown as SharedArrayBuffer;
  }
}

const align = (n: number) => (n + 15) & ~15;

/**
 * Runs one warp in WebAssembly and writes the touched canvas rows back into `job.target`: the
 * blur grid, then the warp, each in bands of rows on two threads (warp-bands.ts).
 */
export function runWarp(job: WarpJob): void {
  const { target, layer, rows, blur, grid } = job;
  const warp = warpInstance();
  const place = new Placement(warp);
  const src = place.take(layer.data.length);
  const rowBytes = target.width * 4;
  const canvasStart = rows.y0 * rowBytes;
  const canvasEnd = rows.y1 * rowBytes;
  const dst = place.take(canvasEnd - canvasStart);
  const from = place.take(rows.from.byteLength);
  const to = place.take(rows.to.byteLength);
  const levelData = blur ? blur.levels.map((l) => place.take(l.data.length)) : [];
  const levels = place.take((blur?.levels.length ?? 0) * LEVEL_SLOTS * 8);
  const weights = place.take(blur?.weights.byteLength ?? 0);
  const values = place.take(grid ? grid.gw * grid.gh * GRID_FLOATS * 4 + SIMD_PAD : 0);
  const columns = place.take(grid ? grid.columns.byteLength : 0);
  const warpBands = bandsOf(rows.y0, rows.y1, job.bandRows?.warp ?? WARP_BAND_ROWS);
  const gridBands = grid ? bandsOf(0, grid.gh, job.bandRows?.grid ?? GRID_BAND_ROWS) : [];
  const warpParams = place.take(warpBands.length * PARAM_BYTES);
  const gridParams = place.take(gridBands.length * PARAM_BYTES);
  // Each warp band interpolates the grid into a row buffer of its own.
  const rowBufferBytes = align(grid ? grid.gw * GRID_FLOATS * 4 + SIMD_PAD : 0);
  const rowBuffers = place.take(warpBands.length * rowBufferBytes);
  const memory = place.memory();

  const bytes = new Uint8Array(memory);
  // What every band's parameter block starts from (on the JavaScript heap: zeros where unset).
  const p = new Float64Array(PARAM.count);
  bytes.set(layer.data, src);
  bytes.set(target.data.subarray(canvasStart, canvasEnd), dst);
  new Int32Array(memory, from, rows.from.length).set(rows.from);
  new Int32Array(memory, to, rows.to.length).set(rows.to);
  p.set(job.inv, PARAM.inv);
  p[PARAM.lx] = layer.x + 0.5;
  p[PARAM.ly] = layer.y + 0.5;
  p[PARAM.width] = layer.width;
  p[PARAM.height] = layer.height;
  p[PARAM.src] = src;
  p[PARAM.dstWidth] = target.width;
  p[PARAM.blurMode] = blur ? (grid ? 2 : 1) : 0;
  if (blur) {
    const descriptors = new Float64Array(memory, levels, blur.levels.length * LEVEL_SLOTS);
    blur.levels.forEach((level, i) => {
      const at = levelData[i] as number;
      bytes.set(level.data, at);
      descriptors.set([at, level.width, level.height, level.sx, level.sy], i * LEVEL_SLOTS);
    });
    new Float32Array(memory, weights, blur.weights.length).set(blur.weights);
    p[PARAM.levelCount] = blur.levels.length;
    p[PARAM.levels] = levels;
    p[PARAM.weights] = weights;
    p[PARAM.t0] = blur.t0;
    p[PARAM.perT] = blur.perT;
    const g = blur.geometry;
    p[PARAM.geometryKind] = g.kind === 'linear' ? 0 : 1;
    p.set(
      g.kind === 'linear'
        ? [g.origin.x, g.origin.y, g.dir.x, g.dir.y, g.unit]
        : [g.centre.x, g.centre.y, g.rx, g.ry, 0],
      PARAM.geometry,
    );
  }
  if (grid) {
    p[PARAM.step] = grid.step;
    p[PARAM.gx] = grid.gx;
    p[PARAM.gy] = grid.gy;
    p[PARAM.gw] = grid.gw;
    p[PARAM.gh] = grid.gh;
    p[PARAM.values] = values;
    p[PARAM.gridColumns] = columns;
    new Int32Array(memory, columns, grid.columns.length).set(grid.columns);
    gridBands.forEach(([r0, r1], i) => {
      const band = bandBlock(memory, gridParams, i, p);
      band[PARAM.gridRow0] = r0;
      band[PARAM.gridRow1] = r1;
    });
    runJob(warp, BAND_KIND.grid, gridParams, gridBands.length);
  }
  // A band of canvas rows [y0, y1): its rows of the canvas copy and of the spans.
  warpBands.forEach(([y0, y1], i) => {
    const band = bandBlock(memory, warpParams, i, p);
    band[PARAM.y0] = y0;
    band[PARAM.y1] = y1;
    band[PARAM.dst] = dst + (y0 - rows.y0) * rowBytes;
    band[PARAM.from] = from + (y0 - rows.y0) * 4;
    band[PARAM.to] = to + (y0 - rows.y0) * 4;
    band[PARAM.row] = rowBuffers + i * rowBufferBytes;
  });
  runJob(warp, BAND_KIND.warp, warpParams, warpBands.length);
  target.data.set(bytes.subarray(dst, dst + (canvasEnd - canvasStart)), canvasStart);
}

/** Bands of rows run since the current instance started, and how many on this thread (tests). */
export function warpBandStats(): { bands: number; onThisThread: number } {
  return live ? live.bands.stats() : { bands: 0, onThisThread: 0 };
}

/** Band `i`'s parameter block in the module's memory, a copy of `template`. */
function bandBlock(memory: SharedArrayBuffer, base: number, i: number, template: Float64Array): Float64Array {
  const block = new Float64Array(memory, base + i * PARAM_BYTES, PARAM.count);
  block.set(template);
  return block;
}

/** One job of bands; a failure drops the instance and its worker, so the next render starts anew. */
function runJob(warp: LiveWarp, kind: BandKind, base: number, count: number): void {
  try {
    warp.bands.run(warp.exports, kind, base, PARAM_BYTES, count);
  } catch (error) {
    warp.bands.close();
    clearTimeout(warp.idle);
    live = null;
    throw error;
  }
}

/** [start, end) cut into bands of at most `size` (at least 1). */
function bandsOf(start: number, end: number, size: number): [number, number][] {
  const bands: [number, number][] = [];
  const step = Math.max(1, Math.floor(size));
  for (let at = start; at < end; at += step) bands.push([at, Math.min(end, at + step)]);
  return bands;
}

/** Straight-alpha RGBA halved on each axis in WebAssembly (halved in layer-blur.ts). */
export function runHalve(src: { data: Uint8Array; width: number; height: number }): {
  data: Buffer;
  width: number;
  height: number;
} {
  const width = Math.ceil(src.width / 2);
  const height = Math.ceil(src.height / 2);
  const warp = warpInstance();
  const place = new Placement(warp);
  const from = place.take(src.data.length);
  const to = place.take(width * height * 4);
  const bytes = new Uint8Array(place.memory());
  bytes.set(src.data, from);
  warp.exports.halve(from, src.width, src.height, to);
  return { data: Buffer.from(bytes.subarray(to, to + width * height * 4)), width, height };
}
