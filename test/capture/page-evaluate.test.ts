import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateInPage, PageEvaluationError } from '../../packages/server/src/browser/page-evaluate.ts';
import { type PreparedPage, preparePage } from '../../packages/server/src/browser/prepared-page.ts';
import { CAPTURE_CHROMIUM_PATH } from '../support/capture-test-kit.ts';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startFixtureServer();
  server.route('/evaluate/hostile', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    // A page that breaks what a serialiser written in page JavaScript would lean on.
    res.end(`<!doctype html><title>hostile</title><script>
      JSON.stringify = () => '"hijacked"';
      JSON.parse = () => 'hijacked';
      Object.prototype.toJSON = () => 'hijacked';
      window.Promise = function () { throw new Error('no promises here'); };
    </script>`);
  });
  server.route('/evaluate/plain', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>plain</title><p>plain</p>');
  });
  browser = await chromium.launch({ executablePath: CAPTURE_CHROMIUM_PATH, args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Runs `body` on a page prepared as a capture's (its CDP session registered) at `path`. */
async function withPrepared(
  path: string,
  body: (page: PreparedPage['page'], cdp: PreparedPage['cdp']) => Promise<void>,
): Promise<void> {
  const { context, page, cdp } = await preparePage(browser, {}, undefined);
  try {
    await page.goto(`${server.origin}${path}`, { waitUntil: 'load' });
    await body(page, cdp);
  } finally {
    await context.close();
  }
}

describe('evaluateInPage (the capture CDP session, not Playwright utility script)', () => {
  it('passes JSON arguments in and returns JSON results, awaiting a promise', async () => {
    await withPrepared('/evaluate/plain', async (page, cdp) => {
      const sent: string[] = [];
      const send = cdp.send.bind(cdp);
      cdp.send = ((method: string, params?: object) => {
        sent.push(method);
        return send(method as never, params as never);
      }) as typeof cdp.send;
      const text = 'quotes " \' ` $x </script> \u2028 \u2029 ünïcode 漢字 🙂';
      const result = await evaluateInPage(
        page,
        async ({ text, n }) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          return { text, twice: n * 2, title: document.title, missing: undefined, list: [1, null] };
        },
        { text, n: 21 },
      );
      expect(result).toEqual({ text, twice: 42, title: 'plain', list: [1, null] });
      expect(await evaluateInPage(page, () => 7, undefined)).toBe(7);
      expect(await evaluateInPage(page, () => Number.NaN, undefined)).toBeNaN();
      expect(await evaluateInPage(page, () => undefined, undefined)).toBeUndefined();
      // Through the capture's own session, one protocol call each.
      expect(sent).toEqual(Array(4).fill('Runtime.evaluate'));
    });
  });

  it('is not fooled by a page that replaced JSON, Promise and toJSON', async () => {
    await withPrepared('/evaluate/hostile', async (page) => {
      const result = await evaluateInPage(
        page,
        async (arg: { a: string }) => ({ a: arg.a, title: document.title }),
        { a: 'kept' },
      );
      expect(result).toEqual({ a: 'kept', title: 'hostile' });
    });
  });

  it('throws what the page threw', async () => {
    await withPrepared('/evaluate/plain', async (page) => {
      const failing = evaluateInPage(
        page,
        () => {
          throw new TypeError('the page said no');
        },
        undefined,
      );
      await expect(failing).rejects.toBeInstanceOf(PageEvaluationError);
      await expect(failing).rejects.toThrow(/TypeError: the page said no/);
    });
  });

  it('fails with a "context was destroyed" or navigation error when the page leaves meanwhile', async () => {
    await withPrepared('/evaluate/plain', async (page) => {
      const leaving = evaluateInPage(
        page,
        (url: string) =>
          new Promise(() => {
            setTimeout(() => {
              location.href = url;
            }, 10);
          }),
        `${server.origin}/evaluate/hostile`,
      );
      // finishAnimations tells a navigation from a failure by this message.
      await expect(leaving).rejects.toThrow(/context was destroyed|navigat/i);
    });
  });

  it('evaluates through Playwright for a page no capture prepared', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${server.origin}/evaluate/plain`);
      expect(await evaluateInPage(page, (n: number) => n + 1, 1)).toBe(2);
    } finally {
      await context.close();
    }
  });
});
