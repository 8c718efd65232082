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

async function prepared(path: string): Promise<PreparedPage> {
  const page = await preparePage(browser, {}, undefined);
  await page.page.goto(`${server.origin}${path}`, { waitUntil: 'load' });
  return page;
}

describe('evaluateInPage (the capture CDP session, not Playwright utility script)', () => {
  it('passes JSON arguments in and returns JSON results, awaiting a promise', async () => {
    const { context, page } = await prepared('/evaluate/plain');
    try {
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
    } finally {
      await context.close();
    }
  });

  it('is not fooled by a page that replaced JSON, Promise and toJSON', async () => {
    const { context, page } = await prepared('/evaluate/hostile');
    try {
      const result = await evaluateInPage(
        page,
        async (arg: { a: string }) => ({ a: arg.a, title: document.title }),
        { a: 'kept' },
      );
      expect(result).toEqual({ a: 'kept', title: 'hostile' });
    } finally {
      await context.close();
    }
  });

  it('throws what the page threw', async () => {
    const { context, page } = await prepared('/evaluate/plain');
    try {
      const failing = evaluateInPage(
        page,
        () => {
          throw new TypeError('the page said no');
        },
        undefined,
      );
      await expect(failing).rejects.toBeInstanceOf(PageEvaluationError);
      await expect(failing).rejects.toThrow(/TypeError: the page said no/);
    } finally {
      await context.close();
    }
  });

  it('fails with a "context was destroyed" or navigation error when the page leaves meanwhile', async () => {
    const { context, page } = await prepared('/evaluate/plain');
    try {
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
    } finally {
      await context.close();
    }
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
