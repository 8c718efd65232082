import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageSignals, ScreenshotPalette } from '../../packages/server/src/ai/ai-types.ts';
import { decideBuiltin } from '../../packages/server/src/ai/builtin-provider.ts';
import { readScreenshot } from '../../packages/server/src/ai/screenshot-palette.ts';
import type { BrowserPool } from '../../packages/server/src/browser/browser-pool.ts';
import { testPool } from '../support/capture-test-kit.ts';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { AI_FIXTURES, captureFixture } from './ai-fixtures.ts';

let server: RunningServer;
let pool: BrowserPool;
const seen = new Map<string, { signals: PageSignals; palette: ScreenshotPalette; thumbnail: Buffer }>();

beforeAll(async () => {
  server = await startFixtureServer();
  pool = testPool({ captureTimeoutMs: 120_000, concurrency: 1 });
  // One page load per fixture: the screenshot and the signals come from the same capture.
  for (const fixture of AI_FIXTURES) {
    const shot = await captureFixture(pool, `${server.origin}/ai/${fixture.file}`);
    if (!shot.signals) throw new Error(`no signals for ${fixture.file}`);
    const { palette, thumbnail } = await readScreenshot(shot.png);
    seen.set(fixture.file, { signals: shot.signals, palette, thumbnail });
  }
}, 600_000);

afterAll(async () => {
  await pool?.close();
  await server?.close();
});

describe('built-in AI engine on the labelled fixture set', () => {
  it('matches the labelled page type and tone on at least 8 of 10 pages', () => {
    const rows = AI_FIXTURES.map((f) => {
      const input = seen.get(f.file);
      if (!input) throw new Error(f.file);
      const d = decideBuiltin({ ...input, style: true, copy: true, prompt: null });
      return {
        file: f.file,
        want: `${f.type}/${f.tone}`,
        got: `${d.page_type}/${d.tone}`,
        ok: d.page_type === f.type && d.tone === f.tone,
        why: d.reasons[1],
      };
    });
    console.table(rows);
    expect(AI_FIXTURES.length).toBeGreaterThanOrEqual(10);
    expect(rows.filter((r) => r.ok).length).toBeGreaterThanOrEqual(8);
  });

  it('writes headlines of at most 60 characters that differ from the page title', () => {
    for (const f of AI_FIXTURES) {
      const input = seen.get(f.file);
      if (!input) throw new Error(f.file);
      const { copy } = decideBuiltin({ ...input, style: false, copy: true, prompt: null });
      expect(copy.headline, f.file).toBeTruthy();
      expect(copy.headline?.length ?? 99, f.file).toBeLessThanOrEqual(60);
      expect(copy.headline?.trim().toLowerCase(), f.file).not.toBe(input.signals.title.trim().toLowerCase());
      expect(copy.subtitle?.length ?? 0, f.file).toBeLessThanOrEqual(120);
      expect(copy.badge?.length ?? 0, f.file).toBeLessThanOrEqual(40);
    }
  });

  it('reads the page signals a classifier needs from the DOM', () => {
    const signIn = seen.get('sign-in.html')?.signals;
    expect(signIn?.counts.passwordInputs).toBe(1);
    const shop = seen.get('shop.html')?.signals;
    expect(shop?.counts.prices).toBeGreaterThanOrEqual(3);
    expect(shop?.ogTitle).toBe('Hand-thrown ceramics for slow mornings');
    expect(seen.get('docs.html')?.signals.counts.codeBlocks).toBeGreaterThanOrEqual(3);
    expect(seen.get('landing.html')?.signals.themeColor).toBe('#7c3aed');
    expect(seen.get('landing.html')?.signals.fonts.heading).toBeTruthy();
  });
});
