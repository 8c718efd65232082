import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLine, processTree } from '../../bench/measure.ts';
import {
  type BrowserProcess,
  CAPTURE_DISABLED_FEATURES,
  launchBrowserProcess,
} from '../../packages/server/src/browser/browser-process.ts';
import { TEST_CHROMIUM_PATH } from '../support/capture-test-kit.ts';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';

/** The features of each `--disable-features` switch Chromium was started with, in order. */
function disabledFeatureSwitches(pid: number): string[][] {
  return commandLine(pid)
    .split(' ')
    .filter((arg) => arg.startsWith('--disable-features='))
    .map((arg) => arg.slice('--disable-features='.length).split(','));
}

describe('the capture browser’s switches', () => {
  let server: RunningServer;
  let chromium: BrowserProcess;

  beforeAll(async () => {
    server = await startFixtureServer();
    chromium = await launchBrowserProcess({ executablePath: TEST_CHROMIUM_PATH });
  }, 60_000);
  afterAll(async () => {
    await chromium?.close(5000);
    await server?.close();
  });

  it('keeps every feature Playwright disables: Chromium honours only the last --disable-features', () => {
    const switches = disabledFeatureSwitches(chromium.pid as number);
    // Playwright's own switch, then ours.
    expect(switches.length).toBe(2);
    const [playwrights, ours] = switches as [string[], string[]];
    expect(playwrights.length).toBeGreaterThan(5);
    expect(ours).toEqual(expect.arrayContaining([...playwrights, ...CAPTURE_DISABLED_FEATURES]));
  });

  it('a capture context opens no omnibox popup and one renderer, the page’s', async () => {
    const context = await chromium.browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${server.origin}/capture/simple.html`);
      const session = await chromium.browser.newBrowserCDPSession();
      // The popup's page and Chromium's spare renderer start just after the page's own, later on
      // a loaded machine: watch for 2 s and keep the worst seen.
      const browserUi = new Set<string>();
      let renderers = 0;
      for (const started = Date.now(); Date.now() - started < 2000; ) {
        const { targetInfos } = (await session.send('Target.getTargets')) as {
          targetInfos: { type: string; url: string }[];
        };
        expect(targetInfos.map((target) => target.url)).toContain(`${server.origin}/capture/simple.html`);
        for (const target of targetInfos) if (target.url.startsWith('chrome://')) browserUi.add(target.url);
        const now = processTree(chromium.pid as number).filter((pid) =>
          commandLine(pid).includes('--type=renderer'),
        );
        renderers = Math.max(renderers, now.length);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await session.detach();
      expect([...browserUi]).toEqual([]);
      expect(renderers).toBe(1);
    } finally {
      await context.close();
    }
  });
});
