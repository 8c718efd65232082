import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BrowserPool } from '../../packages/server/src/browser/browser-pool.ts';
import { capture } from '../../packages/server/src/browser/capture-page.ts';
import { decode, pageOptions, testPool } from '../support/capture-test-kit.ts';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';

let server: RunningServer;
let pool: BrowserPool;

beforeAll(async () => {
  server = await startFixtureServer();
  pool = testPool({ concurrency: 1 });
});

afterAll(async () => {
  await pool?.close();
  await server?.close();
});

/** The glyph cell of the fixture's span number `index` (90x80 CSS px at x = 100 * index, y = 20). */
function cell(png: Buffer, index: number): Promise<Buffer> {
  return sharp(png)
    .extract({ left: index * 100, top: 20, width: 90, height: 80 })
    .removeAlpha()
    .raw()
    .toBuffer();
}

function colourfulPixels(raw: Buffer): number {
  let count = 0;
  for (let i = 0; i + 2 < raw.length; i += 3) {
    const r = raw[i] ?? 0;
    const g = raw[i + 1] ?? 0;
    const b = raw[i + 2] ?? 0;
    if (Math.max(r, g, b) - Math.min(r, g, b) > 60) count += 1;
  }
  return count;
}

function inkPixels(raw: Buffer): number {
  let count = 0;
  for (let i = 0; i + 2 < raw.length; i += 3) if ((raw[i] ?? 255) < 128) count += 1;
  return count;
}

it('renders colour emoji and CJK glyphs, not tofu', async () => {
  const shot = await capture(pool, pageOptions(`${server.origin}/capture/emoji-cjk.html`), {
    navigationTimeoutMs: 10_000,
  });
  expect((await decode(shot.png)).width).toBe(800);
  const cells = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => cell(shot.png, i)));
  // Emoji come from Noto Color Emoji: many saturated pixels (a tofu box is black on white).
  expect(colourfulPixels(cells[0] as Buffer)).toBeGreaterThan(300);
  expect(colourfulPixels(cells[1] as Buffer)).toBeGreaterThan(300);
  // CJK: each character draws ink, and distinct characters draw distinct shapes (tofu boxes are identical).
  const cjk = cells.slice(2) as Buffer[];
  for (const glyph of cjk) expect(inkPixels(glyph)).toBeGreaterThan(100);
  for (let a = 0; a < cjk.length; a += 1) {
    for (let b = a + 1; b < cjk.length; b += 1)
      expect((cjk[a] as Buffer).equals(cjk[b] as Buffer)).toBe(false);
  }
});
