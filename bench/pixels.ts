import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { BareProcess } from './bare-process.ts';

const DIR = path.resolve(import.meta.dirname, 'results/pixels');

export interface PixelCheck {
  /** Against the same capture of the previous bench run on this machine (before a change). */
  previous: { maxDelta: number; meanDelta: number; differing: number } | 'first run' | 'size differs';
  /** Against bare-playwright's capture of the same page (raw captures only). */
  bare?: { maxDelta: number; meanDelta: number; differing: number } | 'size differs';
}

async function decode(png: Uint8Array) {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Largest channel delta, mean channel delta and the fraction of pixels off by more than 24. */
function compare(a: Awaited<ReturnType<typeof decode>>, b: Awaited<ReturnType<typeof decode>>) {
  if (a.width !== b.width || a.height !== b.height) return 'size differs' as const;
  let max = 0;
  let sum = 0;
  let over = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    let d = 0;
    for (let c = 0; c < 4; c++) {
      const x = Math.abs((a.data[i + c] as number) - (b.data[i + c] as number));
      sum += x;
      d = Math.max(d, x);
    }
    max = Math.max(max, d);
    if (d > 24) over += 1;
  }
  return {
    maxDelta: max,
    meanDelta: Math.round((sum / a.data.length) * 1000) / 1000,
    differing: Math.round((over / (a.width * a.height)) * 1e6) / 1e6,
  };
}

/**
 * How long bare-playwright's reference capture waits after `load`: the dashboard template's
 * Chart.js charts animate for a second after it, and a shot at `load` catches them half drawn
 * (16,266 pixels off against the service's capture, which waits for them; 0 after this wait).
 */
const BARE_SETTLE_MS = 4000;

/**
 * "The bench's pages render identically before and after" (issue 15): each bench page captured
 * by the service raw and styled, compared with the same capture of the previous run (kept in
 * bench/results/pixels/, not committed; the first run on a machine only stores them), and each
 * raw capture with bare-playwright's of the same page, BARE_SETTLE_MS after its `load`.
 */
export async function pixelSection(
  capture: (route: '/v1/raw' | '/v1/capture', url: string) => Promise<Uint8Array>,
  bare: BareProcess,
  pages: Record<string, string>,
): Promise<Record<string, PixelCheck>> {
  fs.mkdirSync(DIR, { recursive: true });
  const out: Record<string, PixelCheck> = {};
  for (const [page, url] of Object.entries(pages))
    for (const route of ['/v1/raw', '/v1/capture'] as const) {
      const name = `${page}${route === '/v1/raw' ? '-raw' : '-styled'}`;
      const png = await capture(route, url);
      const now = await decode(png);
      const file = path.join(DIR, `${name}.png`);
      const previous = fs.existsSync(file) ? compare(now, await decode(fs.readFileSync(file))) : 'first run';
      fs.writeFileSync(file, png);
      const check: PixelCheck = { previous };
      if (route === '/v1/raw') {
        check.bare = compare(now, await decode(await bare.png(url, BARE_SETTLE_MS)));
      }
      out[name] = check;
      console.log(
        `  pixels ${name}: previous run ${JSON.stringify(check.previous)}${check.bare ? `, bare-playwright ${JSON.stringify(check.bare)}` : ''}`,
      );
    }
  return out;
}
