import { createHash } from 'node:crypto';

/** A deterministic pseudo-random source: the same seed always yields the same sequence. */
export interface SeededRandom {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [min, max). */
  range(min: number, max: number): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
}

/** A 32-bit seed from any string (first four bytes of its SHA-256). */
export function seedFromString(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

/**
 * Mulberry32: small, fast and good enough for layout decisions. Generators take their seed
 * from the asset's config so that a render is a pure function of the config and the size.
 */
export function createSeededRandom(seed: number | string): SeededRandom {
  let state = (typeof seed === 'string' ? seedFromString(seed) : seed) >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    range: (min, max) => min + (max - min) * next(),
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
  };
}
