import type { CDPSession, Page } from 'playwright-core';

/**
 * Evaluates in the page's main world through the capture's own CDP session.
 *
 * Playwright's `page.evaluate` compiles its utility script (its serialiser of arguments and
 * results, tens of kilobytes of source) into every new document before its first call: 8-12 ms
 * of the renderer's main thread per capture on a loaded page, every capture being a new document
 * (docs/decisions.md, "Cheaper per capture, part 5"). The functions a capture runs in the page
 * take and return plain JSON, which `Runtime.evaluate` carries by value without that script.
 *
 * A page is registered with its session when its capture context is prepared (prepared-page.ts);
 * a page that was not (a test's own page) is evaluated through Playwright as before.
 */
const sessions = new WeakMap<Page, CDPSession>();

export function registerPageSession(page: Page, cdp: CDPSession): void {
  sessions.set(page, cdp);
}

/** What a protocol evaluation threw in the page, as Playwright would report it. */
export class PageEvaluationError extends Error {
  override name = 'PageEvaluationError';
}

interface EvaluateResult {
  result: { type: string; value?: unknown; unserializableValue?: string };
  exceptionDetails?: { text: string; exception?: { description?: string } };
}

/**
 * `fn(arg)` in the page's main world, awaited, its JSON result returned. `fn` must be
 * self-contained (it is sent as source, as with `page.evaluate`) and `arg` plain JSON.
 */
export async function evaluateInPage<Arg, Result>(
  page: Page,
  fn: (arg: Arg) => Result | Promise<Result>,
  arg: Arg,
): Promise<Result> {
  const cdp = sessions.get(page);
  if (!cdp) return page.evaluate(fn as never, arg) as Promise<Result>;
  // JSON is a JavaScript literal; `undefined` (no argument) is spelled out.
  const literal = arg === undefined ? 'undefined' : JSON.stringify(arg);
  const { result, exceptionDetails } = (await cdp.send('Runtime.evaluate', {
    expression: `(${fn.toString()})(${literal})`,
    awaitPromise: true,
    returnByValue: true,
  })) as EvaluateResult;
  if (exceptionDetails) {
    throw new PageEvaluationError(exceptionDetails.exception?.description ?? exceptionDetails.text);
  }
  if (result.unserializableValue !== undefined) return Number(result.unserializableValue) as Result;
  return result.value as Result;
}
