import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAiStep } from '../../packages/server/src/ai/ai-step.ts';
import type { FontFaceSource } from '../../packages/server/src/ai/ai-types.ts';
import { createBuiltinProvider } from '../../packages/server/src/ai/builtin-provider.ts';
import type { BrowserPool } from '../../packages/server/src/browser/browser-pool.ts';
import type { PageCapture } from '../../packages/server/src/browser/page-capture-options.ts';
import type { ResolvedStyle } from '../../packages/server/src/captures/resolve/resolve-style.ts';
import { createGuardedFetch } from '../../packages/server/src/netpolicy/guarded-fetch.ts';
import { createTargetPolicy } from '../../packages/server/src/netpolicy/target-policy.ts';
import { captureFixture } from '../ai/ai-fixtures.ts';
import { type AiTestPlan, decideStyle } from '../support/ai-step-kit.ts';
import { testPool } from '../support/capture-test-kit.ts';
import {
  FIXTURE_PAGES_DIR,
  type RunningServer,
  startCanary,
  startFixtureServer,
} from '../support/fixture-server.ts';
import { compareWithReference } from './image-compare.ts';
import { compareModes } from './parity-compare.ts';
import { useParityKit } from './parity-kit.ts';

/** As the font catalogue gallery: a title on a small canvas, satori's and Chromium's glyph edges. */
const PARITY = { pixelThreshold: 24, maxDiffering: 0.01, maxMeanDelta: 1.5 };

/**
 * Issue 34, item 3: a brand site whose heading font is a self-hosted WOFF2 (Abril Fatface, not in
 * the catalogue: test/fixtures/pages/brand-font). `ai_brand` draws the title in the site's own
 * file in both compose modes; a font that cannot be used falls back to the nearest catalogue
 * family with the reason in ai_decisions; the font is fetched only through the guarded fetch.
 */
describe('ai_brand titles in the brand site own font (issue 34, item 3)', () => {
  const kit = useParityKit();
  let site: RunningServer;
  let canary: RunningServer;
  let pool: BrowserPool;
  let shot: PageCapture;
  const step = createAiStep({
    provider: createBuiltinProvider(),
    guardedFetch: createGuardedFetch(
      createTargetPolicy({ allowTargets: ['127.0.0.2'], allowedPorts: [80, 443] }),
    ),
  });
  const plan = (request: AiTestPlan['request'] = {}): AiTestPlan => ({
    style: false,
    copy: false,
    brand: true,
    prompt: null,
    request: { title: 'Books worth the shelf', title_size: 56, background_preset: 'dusk', ...request },
    projectBrand: null,
  });
  /** The captured page with its heading family's sources replaced (a hostile or broken site). */
  const withSources = (sources: FontFaceSource[]): PageCapture => {
    const fonts = shot.signals?.fonts;
    if (!fonts?.sources) throw new Error('the capture has no font sources');
    return {
      ...shot,
      signals: { ...shot.signals!, fonts: { ...fonts, sources: { ...fonts.sources, heading: sources } } },
    };
  };
  const source = (url: string): FontFaceSource => ({ url, format: 'woff2', weight: 400 });

  beforeAll(async () => {
    site = await startFixtureServer();
    canary = await startCanary();
    site.route('/brand-font/fonts/not-a-font.woff2', (_req, res) => {
      res.writeHead(200, { 'content-type': 'font/woff2' }).end('<!doctype html><p>not a font</p>');
    });
    site.route('/brand-font/fonts/huge.woff2', (_req, res) => {
      const body = Buffer.alloc(3 * 1024 * 1024);
      body.write('wOF2', 0, 'latin1');
      res.writeHead(200, { 'content-type': 'font/woff2' }).end(body);
    });
    pool = testPool({ captureTimeoutMs: 120_000, concurrency: 1 });
    shot = await captureFixture(pool, `${site.origin}/brand-font/index.html`);
  }, 180_000);
  afterAll(async () => {
    await pool?.close();
    await site?.close();
    await canary?.close();
  });

  it('the capture finds the heading family and its self-hosted woff2', () => {
    expect(shot.signals?.fonts.heading).toBe('Abril Fatface');
    expect(shot.signals?.fonts.sources?.heading).toEqual([
      {
        url: `${site.origin}/brand-font/fonts/abril-fatface-latin-400-normal.woff2`,
        format: 'woff2',
        weight: 400,
      },
    ]);
    expect(shot.signals?.fonts.sources?.headingGeneric).toBe('serif');
  });

  it('draws the title in the site own file, in both modes (reference images), unlike the fallback', async () => {
    const outcome = await decideStyle(step, plan(), shot, AbortSignal.timeout(60_000));
    const style = outcome.style as ResolvedStyle;
    expect(style.title_font).toMatch(/^Brand [0-9a-f]{16}$/);
    const brand = outcome.decisions.brand as Record<string, unknown>;
    expect(brand.title_font).toEqual({
      family: 'Abril Fatface',
      from: 'site',
      file: `${site.origin}/brand-font/fonts/abril-fatface-latin-400-normal.woff2`,
    });
    expect(outcome.decisions.reasons).toContain(
      "brand font Abril Fatface on the title, drawn from the site's own file",
    );
    const own = await kit.bothResolved(style);
    const raster = await compareWithReference('brand-font-raster', own.raster);
    expect(raster.ok, raster.message).toBe(true);
    const browser = await compareWithReference('brand-font-browser', own.browser, { maxDiffering: 0.004 });
    expect(browser.ok, browser.message).toBe(true);
    const parity = await compareModes('brand-font', own.raster, own.browser, PARITY);
    expect(parity.ok, parity.message).toBe(true);
    // The same scene in the catalogue family the fallback picks (Lora) is another image: the
    // references above show the site's file, not a catalogue face.
    const lora = await kit.bothResolved({ ...style, title_font: 'Lora' });
    const differs = await compareModes('brand-font-vs-lora', own.raster, lora.raster, PARITY);
    expect(differs.ok, differs.message).toBe(false);
  }, 180_000);

  it('a font that 404s or is not a font: the nearest catalogue family (by class), and ai_decisions says why', async () => {
    for (const [file, why] of [
      ['missing.woff2', 'the font file answered HTTP 404'],
      ['not-a-font.woff2', 'the file is not a font'],
      ['huge.woff2', 'the font file is larger than 2 MB'],
    ] as const) {
      const outcome = await decideStyle(
        step,
        plan(),
        withSources([source(`${site.origin}/brand-font/fonts/${file}`)]),
        AbortSignal.timeout(60_000),
      );
      expect(outcome.style.title_font, file).toBe('Lora');
      const reasons = outcome.decisions.reasons as string[];
      const reason = reasons.find((r) => r.startsWith('brand font Abril Fatface could not be used'));
      expect(reason, JSON.stringify(reasons)).toContain(why);
      expect(reason).toContain('nearest catalogue family Lora (by generic class serif) on the title');
      expect((outcome.decisions.brand as Record<string, unknown>).title_font).toEqual({
        family: 'Lora',
        from: 'catalogue',
        instead_of: 'Abril Fatface',
      });
      expect((outcome.decisions.chosen as Record<string, unknown>).title_font).toBe('Lora');
    }
  }, 120_000);

  it('an inline (data: URL) face is used too; an inline non-font is not', async () => {
    const woff2 = readFileSync(
      path.join(FIXTURE_PAGES_DIR, 'brand-font/fonts/abril-fatface-latin-400-normal.woff2'),
    );
    const inline = await decideStyle(
      step,
      plan(),
      withSources([
        { url: `data:font/woff2;base64,${woff2.toString('base64')}`, format: 'woff2', weight: 400 },
      ]),
      AbortSignal.timeout(60_000),
    );
    expect(inline.style.title_font).toMatch(/^Brand [0-9a-f]{16}$/);
    expect((inline.decisions.brand as Record<string, unknown>).title_font).toMatchObject({
      file: 'data: URL',
    });
    const junk = await decideStyle(
      step,
      plan(),
      withSources([
        {
          url: `data:font/woff2;base64,${Buffer.from('GIF89a junk junk').toString('base64')}`,
          format: 'woff2',
          weight: 400,
        },
      ]),
      AbortSignal.timeout(60_000),
    );
    expect(junk.style.title_font).toBe('Lora');
  });

  it('a font on a refused address is refused by the guard: the canary gets no request', async () => {
    const outcome = await decideStyle(
      step,
      plan(),
      withSources([source(`${canary.origin}/font.woff2`), source(`http://[::1]:${canary.port}/font.woff2`)]),
      AbortSignal.timeout(60_000),
    );
    expect(outcome.style.title_font).toBe('Lora');
    expect((outcome.decisions.reasons as string[]).join('\n')).toContain(
      'the font file is on an address this server does not fetch from',
    );
    expect(JSON.stringify(outcome.decisions)).not.toContain('127.0.0.1');
    expect(canary.hits).toEqual([]);
  });

  it('an explicit title_font wins: the brand font is not fetched', async () => {
    const before = site.hits.length;
    const outcome = await decideStyle(
      step,
      plan({ title_font: 'Poppins' }),
      shot,
      AbortSignal.timeout(60_000),
    );
    expect(outcome.style.title_font).toBe('Poppins');
    expect(site.hits.length).toBe(before);
  });
});
