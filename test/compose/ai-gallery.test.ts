import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAiStep } from '../../packages/server/src/ai/ai-step.ts';
import { createBuiltinProvider } from '../../packages/server/src/ai/builtin-provider.ts';
import type { BrowserPool } from '../../packages/server/src/browser/browser-pool.ts';
import { renderRaster } from '../../packages/server/src/compose/renderers/raster/render-raster.ts';
import { buildScene } from '../../packages/server/src/compose/scene.ts';
import type { RawImage } from '../../packages/server/src/image/raw-image.ts';
import { AI_FIXTURES, captureFixture } from '../ai/ai-fixtures.ts';
import { decideStyle } from '../support/ai-step-kit.ts';
import { testPool } from '../support/capture-test-kit.ts';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { compareWithReference } from './image-compare.ts';
import { useRasterKit } from './raster-kit.ts';

/**
 * The AI gallery: each labelled fixture page captured in Chromium, styled by the built-in engine
 * (`ai: true`: style and copy), composed by the raster renderer and kept as a reference at 720 px
 * wide, so a change to the engine's choices shows up as an image to look at.
 */
describe('AI gallery (built-in engine, ai: true)', () => {
  const kit = useRasterKit();
  let server: RunningServer;
  let pool: BrowserPool;
  const step = createAiStep({ provider: createBuiltinProvider() });

  beforeAll(async () => {
    server = await startFixtureServer();
    pool = testPool({ captureTimeoutMs: 120_000, concurrency: 1 });
  });
  afterAll(async () => {
    await pool?.close();
    await server?.close();
  });

  it.each(AI_FIXTURES.map((f) => [f.file.replace('.html', ''), f.file]))(
    'ai-%s matches its reference',
    async (name, file) => {
      const shot = await captureFixture(pool, `${server.origin}/ai/${file}`);
      const plan = { style: true, copy: true, brand: false, prompt: null, request: {}, projectBrand: null };
      const outcome = await decideStyle(step, plan, shot, AbortSignal.timeout(60_000));
      const decoded = await sharp(shot.png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const input = {
        data: decoded.data,
        width: decoded.info.width,
        height: decoded.info.height,
        channels: 4 as const,
      };
      const scene = buildScene(
        outcome.style,
        { ...input, dpr: 1, url: shot.finalUrl, title: shot.title, topColor: null },
        { measurer: kit.fonts.measurer },
      );
      const image = await renderRaster(scene, input, { fonts: kit.fonts, cache: kit.cache });
      const small = await sharp(image.data, {
        raw: { width: image.width, height: image.height, channels: 4 },
      })
        .resize({ width: 720 })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const scaled: RawImage = {
        data: small.data,
        width: small.info.width,
        height: small.info.height,
        channels: 4,
      };
      const result = await compareWithReference(`ai-${name}`, scaled, { maxDiffering: 0.01 });
      expect(result.ok, result.message).toBe(true);
    },
    180_000,
  );
});
