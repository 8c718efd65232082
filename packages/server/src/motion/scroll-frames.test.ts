import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/raw-image.ts';
import { prepareScrollFrames } from './scroll-frames.ts';

/** A page `height` px tall whose row y has red = y % 256 (so a frame's first row tells its scroll). */
function rampPage(width: number, height: number): RawImage {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data.set([y % 256, 0, 0, 255], (y * width + x) * 4);
  return { data, width, height, channels: 4 };
}

function solid(width: number, height: number, rgba: [number, number, number, number]): RawImage {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set(rgba, i * 4);
  return { data, width, height, channels: 4 };
}

const at = (img: RawImage, x: number, y: number) => [
  ...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4),
];

describe('scroll frames', () => {
  it('shows the page at the scroll position, fitted to the screen once', async () => {
    const frames = await prepareScrollFrames(rampPage(40, 200), [], 1, {
      crop: { x: 0, y: 0, width: 40, height: 50 },
      rect: { width: 40, height: 50 },
    });
    expect(at(frames.frameAt(30), 5, 0)[0]).toBe(30);
    expect(at(frames.frameAt(30), 5, 49)[0]).toBe(79);
    // Past the end: the last screenful, never rows beyond the page.
    expect(at(frames.frameAt(500), 5, 49)[0]).toBe(199);
  });

  it('keeps a fixed part at its place and lets a sticky part stick at its top', async () => {
    const fixed = {
      image: solid(40, 4, [0, 0, 255, 255]),
      rect: { x: 0, top: 0, width: 40, height: 4 },
      position: 'fixed' as const,
      stickTop: 0,
      shownFrom: 0,
      shownUntil: 1000,
    };
    const sticky = {
      image: solid(40, 3, [0, 255, 0, 255]),
      rect: { x: 0, top: 20, width: 40, height: 3 },
      position: 'sticky' as const,
      stickTop: 4,
      shownFrom: 0,
      shownUntil: 1000,
    };
    const frames = await prepareScrollFrames(rampPage(40, 200), [fixed, sticky], 1, {
      crop: { x: 0, y: 0, width: 40, height: 50 },
      rect: { width: 40, height: 50 },
    });
    const early = frames.frameAt(10);
    expect(at(early, 3, 0)).toEqual([0, 0, 255, 255]); // the header
    expect(at(early, 3, 10)).toEqual([0, 255, 0, 255]); // the bar, not stuck yet: 20 - 10
    expect(at(early, 3, 5)[0]).toBe(15); // the page between them
    const late = frames.frameAt(100);
    expect(at(late, 3, 3)).toEqual([0, 0, 255, 255]);
    expect(at(late, 3, 4)).toEqual([0, 255, 0, 255]); // stuck under the header
    expect(at(late, 3, 7)[0]).toBe(107);
  });

  it('fits a wider capture (DPR 2) to a smaller screen', async () => {
    const frames = await prepareScrollFrames(rampPage(80, 400), [], 2, {
      crop: { x: 0, y: 0, width: 80, height: 100 },
      rect: { width: 40, height: 50 },
    });
    const frame = frames.frameAt(20); // 40 device rows down, 20 screen rows
    expect(frame.width).toBe(40);
    expect(frame.height).toBe(50);
    expect(Math.abs((at(frame, 10, 10)[0] ?? 0) - 60)).toBeLessThanOrEqual(2); // device row 60
  });

  it('says once whether its frames are opaque, so the renderer does not scan each', async () => {
    const fit = { crop: { x: 0, y: 0, width: 40, height: 50 }, rect: { width: 40, height: 50 } };
    const opaque = await prepareScrollFrames(rampPage(40, 200), [], 1, fit);
    expect(opaque.frameAt(30).opaque).toBe(true);
    const see = rampPage(40, 200);
    see.data[(150 * 40 + 3) * 4 + 3] = 128; // one half-transparent pixel far below the first screen
    const through = await prepareScrollFrames(see, [], 1, fit);
    expect(through.frameAt(30).opaque).toBe(false);
  });

  it('draws each shot of a pinned part only over the scroll positions it stands for', async () => {
    const shot = (rgba: [number, number, number, number], shownFrom: number, shownUntil: number) => ({
      image: solid(40, 4, rgba),
      rect: { x: 0, top: 0, width: 40, height: 4 },
      position: 'fixed' as const,
      stickTop: 0,
      shownFrom,
      shownUntil,
    });
    // The header as shot at 50 px down (scroll spy on the first section), and at the end (150).
    const frames = await prepareScrollFrames(
      rampPage(40, 200),
      [shot([0, 0, 255, 255], 0, 100), shot([0, 255, 0, 255], 100, 150)],
      1,
      { crop: { x: 0, y: 0, width: 40, height: 50 }, rect: { width: 40, height: 50 } },
    );
    expect(at(frames.frameAt(10), 3, 1)).toEqual([0, 0, 255, 255]);
    expect(at(frames.frameAt(100), 3, 1)).toEqual([0, 0, 255, 255]);
    expect(at(frames.frameAt(101), 3, 1)).toEqual([0, 255, 0, 255]);
    expect(at(frames.frameAt(150), 3, 1)).toEqual([0, 255, 0, 255]);
  });
});
