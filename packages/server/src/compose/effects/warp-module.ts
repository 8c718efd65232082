import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Mat3 } from '../camera/camera-math.ts';
import type { MaskGeometry } from './depth-blur-mask.ts';
import type { BlurLevel } from './layer-blur.ts';
import type { QuadRows } from './quad-rows.ts';
import type { RgbaTarget, StraightLayer } from './straight-layer.ts';

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
  count: 40,
} as const;

/** f64 per blur level descriptor: pixels pointer, width, height, sx, sy. */
const LEVEL_SLOTS = 5;
/** Floats per grid point: premultiplied r, g, b, a, and the rest. */
const GRID_FLOATS = 5;
/** The row buffer and the grid are read 4 floats at a time: room for a last partial vector. */
const SIMD_PAD = 16;
const PAGE = 65_536;
/**
 * An instance (and its memory, which WebAssembly cannot shrink: up to 60 MB after a tilted
 * render at dpr 2) is kept for the next render and dropped after this long without one.
 */
const IDLE_MS = 30_000;

interface WarpExports {
  memory: WebAssembly.Memory;
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
let live: { exports: WarpExports; idle: NodeJS.Timeout } | null = null;

function warpModule(): WebAssembly.Module {
  if (compiled) return compiled;
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = new Uint8Array(fs.readFileSync(WASM_FILE));
  } catch (cause) {
    throw new Error(`the warp's WebAssembly module is missing (${WASM_FILE}): run make install`, { cause });
  }
  compiled = new WebAssembly.Module(bytes);
  return compiled;
}

function warpInstance(): WarpExports {
  if (live) {
    live.idle.refresh();
    return live.exports;
  }
  const exports = new WebAssembly.Instance(warpModule(), {}).exports as unknown as WarpExports;
  const idle = setTimeout(() => {
    live = null;
  }, IDLE_MS);
  idle.unref();
  live = { exports, idle };
  return exports;
}

/** Hands out 16-byte aligned offsets from the module's heap base, then grows the memory to fit. */
class Placement {
  private next: number;
  private readonly wasm: WarpExports;
  constructor(wasm: WarpExports) {
    this.wasm = wasm;
    this.next = align(wasm.heapBase());
  }
  take(bytes: number): number {
    const at = this.next;
    this.next = align(at + bytes);
    return at;
  }
  /** Grows the memory to hold everything taken; returns it (grown memory detaches old views). */
  memory(): ArrayBuffer {
    const short = this.next - this.wasm.memory.buffer.byteLength;
    if (short > 0) this.wasm.memory.grow(Math.ceil(short / PAGE));
    return this.wasm.memory.buffer;
  }
}

const align = (n: number) => (n + 15) & ~15;

/** Runs one warp in WebAssembly and writes the touched canvas rows back into `job.target`. */
export function runWarp(job: WarpJob): void {
  const { target, layer, rows, blur, grid } = job;
  const wasm = warpInstance();
  const place = new Placement(wasm);
  const params = place.take(PARAM.count * 8);
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
  const row = place.take(grid ? grid.gw * GRID_FLOATS * 4 + SIMD_PAD : 0);
  const columns = place.take(grid ? grid.columns.byteLength : 0);
  const memory = place.memory();

  const bytes = new Uint8Array(memory);
  const p = new Float64Array(memory, params, PARAM.count);
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
  p[PARAM.dst] = dst;
  p[PARAM.dstWidth] = target.width;
  p[PARAM.y0] = rows.y0;
  p[PARAM.y1] = rows.y1;
  p[PARAM.from] = from;
  p[PARAM.to] = to;
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
    p[PARAM.row] = row;
    p[PARAM.gridColumns] = columns;
    new Int32Array(memory, columns, grid.columns.length).set(grid.columns);
    wasm.blurGrid(params);
  }
  wasm.warp(params);
  target.data.set(bytes.subarray(dst, dst + (canvasEnd - canvasStart)), canvasStart);
}

/** Straight-alpha RGBA halved on each axis in WebAssembly (halved in layer-blur.ts). */
export function runHalve(src: { data: Uint8Array; width: number; height: number }): {
  data: Buffer;
  width: number;
  height: number;
} {
  const width = Math.ceil(src.width / 2);
  const height = Math.ceil(src.height / 2);
  const wasm = warpInstance();
  const place = new Placement(wasm);
  const from = place.take(src.data.length);
  const to = place.take(width * height * 4);
  const bytes = new Uint8Array(place.memory());
  bytes.set(src.data, from);
  wasm.halve(from, src.width, src.height, to);
  return { data: Buffer.from(bytes.subarray(to, to + width * height * 4)), width, height };
}
