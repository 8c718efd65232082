import { describe, expect, it } from 'vitest';
import { scrollStops } from './scroll-capture.ts';

describe('scrollStops', () => {
  it('shoots the pinned parts about once a screenful down to the end, each standing for the positions nearest to it', () => {
    const stops = scrollStops(2400, 800);
    expect(stops.map((stop) => stop.y)).toEqual([800, 1600, 2400]);
    expect(stops.map((stop) => [stop.from, stop.until])).toEqual([
      [0, 1200],
      [1200, 2000],
      [2000, 2400],
    ]);
  });

  it('takes one stop, the end, for a short scroll and at most six for a long page', () => {
    expect(scrollStops(300, 800)).toEqual([{ y: 300, from: 0, until: 300 }]);
    const long = scrollStops(20_000, 800);
    expect(long).toHaveLength(6);
    expect(long.at(-1)?.y).toBe(20_000);
    // Every scroll position from 1 to the end is covered by exactly one stop.
    for (const y of [1, 1667, 1668, 9999, 20_000])
      expect(long.filter((stop) => y > stop.from && y <= stop.until)).toHaveLength(1);
  });
});
