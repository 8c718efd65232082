/** A polyline in grid coordinates (x along columns, y along rows). */
export type Polyline = [number, number][];

type Edge = 'T' | 'R' | 'B' | 'L';

const CASES: Record<number, [Edge, Edge][]> = {
  1: [['L', 'B']],
  2: [['B', 'R']],
  3: [['L', 'R']],
  4: [['T', 'R']],
  5: [
    ['L', 'T'],
    ['B', 'R'],
  ],
  6: [['T', 'B']],
  7: [['L', 'T']],
  8: [['L', 'T']],
  9: [['T', 'B']],
  10: [
    ['T', 'R'],
    ['L', 'B'],
  ],
  11: [['T', 'R']],
  12: [['L', 'R']],
  13: [['B', 'R']],
  14: [['L', 'B']],
};

/**
 * The iso-lines of a sampled scalar field at `level` (marching squares), joined into polylines
 * so they can be drawn as smooth strokes. `values[row][col]`.
 */
export function contourLines(values: Float64Array[], level: number): Polyline[] {
  const rows = values.length - 1;
  const cols = (values[0]?.length ?? 1) - 1;
  const points = new Map<string, [number, number]>();
  const segments: [string, string][] = [];
  const at = (r: number, c: number) => (values[r] as Float64Array)[c] as number;
  const edgePoint = (edge: Edge, c: number, r: number): string => {
    const key =
      edge === 'T'
        ? `h${c},${r}`
        : edge === 'B'
          ? `h${c},${r + 1}`
          : edge === 'L'
            ? `v${c},${r}`
            : `v${c + 1},${r}`;
    if (!points.has(key)) {
      const [c0, r0, c1, r1] =
        edge === 'T'
          ? [c, r, c + 1, r]
          : edge === 'B'
            ? [c, r + 1, c + 1, r + 1]
            : edge === 'L'
              ? [c, r, c, r + 1]
              : [c + 1, r, c + 1, r + 1];
      const a = at(r0, c0);
      const b = at(r1, c1);
      const t = a === b ? 0.5 : (level - a) / (b - a);
      points.set(key, [c0 + (c1 - c0) * t, r0 + (r1 - r0) * t]);
    }
    return key;
  };
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const index =
        (at(r, c) > level ? 8 : 0) |
        (at(r, c + 1) > level ? 4 : 0) |
        (at(r + 1, c + 1) > level ? 2 : 0) |
        (at(r + 1, c) > level ? 1 : 0);
      for (const [a, b] of CASES[index] ?? []) segments.push([edgePoint(a, c, r), edgePoint(b, c, r)]);
    }
  }
  const byPoint = new Map<string, number[]>();
  segments.forEach(([a, b], i) => {
    for (const key of [a, b]) byPoint.set(key, [...(byPoint.get(key) ?? []), i]);
  });
  const used = new Uint8Array(segments.length);
  const lines: Polyline[] = [];
  const extend = (chain: string[], from: string) => {
    let current = from;
    for (;;) {
      const next = (byPoint.get(current) ?? []).find((i) => !used[i]);
      if (next === undefined) return;
      used[next] = 1;
      const [a, b] = segments[next] as [string, string];
      current = a === current ? b : a;
      chain.push(current);
    }
  };
  segments.forEach(([a, b], i) => {
    if (used[i]) return;
    used[i] = 1;
    const forward = [a, b];
    extend(forward, b);
    const backward: string[] = [];
    extend(backward, a);
    lines.push([...backward.reverse(), ...forward].map((key) => points.get(key) as [number, number]));
  });
  return lines;
}
