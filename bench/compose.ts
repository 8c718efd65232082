import type { CDPSession, Page } from 'playwright-core';
import { resolveStyle } from '../packages/server/src/captures/resolve/resolve-style.ts';
import { loadBrowserFonts } from '../packages/server/src/compose/renderers/browser/fonts.ts';
import { renderInBrowser } from '../packages/server/src/compose/renderers/browser/render-in-browser.ts';
import {
  createComposeCache,
  renderRaster,
} from '../packages/server/src/compose/renderers/raster/render-raster.ts';
import { buildScene } from '../packages/server/src/compose/scene.ts';
import { loadFontCatalogue } from '../packages/server/src/compose/text/font-catalogue.ts';
import { configureSharp } from '../packages/server/src/encode/configure-sharp.ts';
import { encodeImage } from '../packages/server/src/encode/encode-image.ts';
import type { RawPixels } from '../packages/server/src/image/raw-image.ts';
import { testPool } from '../test/support/capture-test-kit.ts';
import { fakeAppScreenshot } from '../test/support/fake-screenshot.ts';
import { interleaved, type Stats, stats, timed } from './measure.ts';
import { untilQuiet } from './process-cpu.ts';

/**
 * The looks measured: the default one (what P1 composes) and the heaviest of issue 5, a strong
 * tilt with lens depth blur (P2 applies to it too).
 */
export const COMPOSE_LOOKS = {
  default: {},
  'tilt-strong+lens': {
    perspective: 'tilt-left-strong',
    depth_blur: 70,
    depth_blur_type: 'lens',
    depth_blur_position: 0.6,
  },
} as const;

export interface ComposeResult {
  look: keyof typeof COMPOSE_LOOKS;
  mode: string;
  dpr: number;
  canvas: string;
  megapixels: number;
  /** The first render (empty compose cache, fonts not yet touched). */
  coldMs: number;
  /** Later renders: backgrounds and shadow masks come from the compose cache, as in the service. */
  warm: Stats;
  /**
   * CPU time of this process per warm render (process.cpuUsage: JavaScript and sharp's threads;
   * in browser mode Chromium's own CPU is not in it). Steadier than wall time on a shared machine.
   */
  warmCpu: Stats;
}

/**
 * P2 per compose mode, in this process with no HTTP: resolveStyle + buildScene + the renderer
 * (renderRaster, or renderInBrowser on a warm pool page of its own) + PNG encode of the default look (gradient, padding 64, soft shadow, radius 12)
 * around a 1440x900 screenshot (a drawn dashboard), at output dpr 1 and 2 (dpr 2 composes a
 * 2880x1800 capture, as the service does when capture_dpr follows output.dpr).
 */
export async function benchCompose(rounds: number): Promise<ComposeResult[]> {
  configureSharp();
  const [fonts, browserFonts] = await Promise.all([loadFontCatalogue(), loadBrowserFonts()]);
  const cache = createComposeCache();
  const pool = testPool({ concurrency: 1 });
  const withPage = <T>(fn: (page: Page, cdp: CDPSession) => Promise<T>) =>
    pool.run((lease) => fn(lease.page, lease.cdp));
  const modes = ['satori', 'browser'] as const;
  const setups = await Promise.all(
    (Object.keys(COMPOSE_LOOKS) as (keyof typeof COMPOSE_LOOKS)[])
      .flatMap((look) => modes.flatMap((mode) => [1, 2].map((dpr) => ({ look, mode, dpr }))))
      .map(async ({ look, mode, dpr }) => {
        const shot: RawPixels = await fakeAppScreenshot(1440 * dpr, 900 * dpr);
        const style = resolveStyle({ ...COMPOSE_LOOKS[look], output: { dpr: dpr as 1 | 2 } });
        const scene = buildScene(
          style,
          { width: shot.width, height: shot.height, dpr },
          { measurer: fonts.measurer },
        );
        const cpu: number[] = [];
        const run = async () => {
          const before = process.cpuUsage();
          const raw =
            mode === 'satori'
              ? await renderRaster(scene, shot, { fonts, cache })
              : await renderInBrowser(scene, shot, { withPage, fonts: browserFonts, cache });
          await encodeImage(raw, { format: 'png' });
          const used = process.cpuUsage(before);
          cpu.push((used.user + used.system) / 1000);
        };
        return { name: `${look} ${mode} dpr${dpr}`, look, mode, dpr, scene, run, cpu };
      }),
  );
  try {
    const cold = new Map<string, number>();
    for (const s of setups) cold.set(s.name, await timed(s.run));
    for (const s of setups) s.cpu.length = 0;
    const contenders = Object.fromEntries(setups.map((s) => [s.name, s.run]));
    // Each render starts on a quiet machine: a browser-mode render leaves Chromium's own work
    // (its frame, the page's clean-up) running into the next contender's turn.
    const times = await interleaved(contenders, rounds, { warmup: 1, between: untilQuiet });
    return setups.map((s) => ({
      look: s.look,
      mode: s.mode,
      dpr: s.dpr,
      canvas: `${s.scene.canvas.width}x${s.scene.canvas.height}`,
      megapixels: Math.round((s.scene.canvas.width * s.scene.canvas.height) / 1e5) / 10,
      coldMs: Math.round(cold.get(s.name) ?? 0),
      warm: stats(times[s.name] ?? []),
      // The interleaved rounds start with one warm-up render per contender.
      warmCpu: stats(s.cpu.slice(1)),
    }));
  } finally {
    await pool.close();
  }
}
