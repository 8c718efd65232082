import type { Locator, Page } from 'playwright-core';
import { AppError } from '../errors/app-error.ts';
import { raceAbort, sleep } from './abort-race.ts';
import { captureFailed } from './capture-errors.ts';
import { type ElementChooser, resolveElement } from './element/resolve-element.ts';
import type { ActionTarget, PageAction } from './page-controls.ts';

/** A little room past a step's own timeout for Playwright to report it before the step's guard does. */
const GUARD_MARGIN_MS = 1000;

export interface RunActionsOptions {
  signal: AbortSignal;
  /** Picks among candidates for an `element` description (the AI provider), as for `element`. */
  chooseElement?: ElementChooser;
}

function describeTarget(target: ActionTarget): string {
  return 'selector' in target ? `selector "${target.selector}"` : `element "${target.element}"`;
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : '';
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Why a step failed, in words about the request (never Playwright's log, which quotes the page):
 * a timeout, a selector the browser cannot parse, an unknown key, an element description that
 * matched nothing, an option that does not exist.
 */
function whyStepFailed(action: PageAction, error: unknown): string {
  if (error instanceof AppError) return error.message;
  const text = errorText(error);
  const timeout = 'timeoutMs' in action ? action.timeoutMs : 0;
  const target =
    'target' in action && action.target && !('y' in action.target) ? describeTarget(action.target) : null;
  if (/Unknown key/i.test(text) && action.type === 'press') return `unknown key "${action.key}"`;
  if (
    /(?:is not a valid selector|Unexpected token|Failed to find|selector)/i.test(text) &&
    errorName(error) !== 'TimeoutError'
  ) {
    return `${target ?? 'the selector'} is not a valid selector`;
  }
  if (errorName(error) === 'TimeoutError' || /timeout/i.test(text)) {
    if (action.type === 'wait_for') {
      return `no element matching "${action.selector}" became ${action.state} within ${timeout} ms`;
    }
    if (action.type === 'select') {
      return `${target}: no option with the value or label "${action.value}" could be selected within ${timeout} ms`;
    }
    return `${target ?? 'the page'}: not found, not visible or not usable within ${timeout} ms`;
  }
  if (action.type === 'select' && /option|select/i.test(text)) {
    return `${target}: no option with the value or label "${action.value}", or not a <select>`;
  }
  if (action.type === 'type' && /input|textarea|contenteditable|fill/i.test(text)) {
    return `${target} is not a field that can be typed into`;
  }
  return `${target ?? 'the step'} could not be done`;
}

function actionFailed(index: number, action: PageAction, error: unknown): AppError {
  return captureFailed(
    'action_failed',
    `actions[${index}] (${action.type}): ${whyStepFailed(action, error)}`,
    {
      details: { step: index, type: action.type },
      cause: error,
    },
  );
}

async function locate(page: Page, target: ActionTarget, options: RunActionsOptions): Promise<Locator> {
  if ('selector' in target) return page.locator(target.selector).first();
  const resolved = await resolveElement(page, target.element, {
    chooseElement: options.chooseElement,
    signal: options.signal,
  });
  return page.locator(resolved.selector).first();
}

async function runStep(page: Page, action: PageAction, options: RunActionsOptions): Promise<void> {
  switch (action.type) {
    case 'wait':
      return sleep(action.ms, options.signal);
    case 'wait_for':
      await page.waitForSelector(action.selector, { state: action.state, timeout: action.timeoutMs });
      return;
    case 'scroll_to':
      if ('y' in action.target) {
        const { x, y } = action.target;
        await page.evaluate(([left, top]) => window.scrollTo(left ?? 0, top ?? 0), [x, y]);
        return;
      }
      await (await locate(page, action.target, options)).scrollIntoViewIfNeeded({
        timeout: action.timeoutMs,
      });
      return;
    case 'press':
      if (action.target === null) {
        await page.keyboard.press(action.key);
        return;
      }
      await (await locate(page, action.target, options)).press(action.key, { timeout: action.timeoutMs });
      return;
    case 'click':
      await (await locate(page, action.target, options)).click({ timeout: action.timeoutMs });
      return;
    case 'hover':
      await (await locate(page, action.target, options)).hover({ timeout: action.timeoutMs });
      return;
    case 'type':
      await (await locate(page, action.target, options)).fill(action.text, { timeout: action.timeoutMs });
      return;
    case 'select':
      await (await locate(page, action.target, options)).selectOption(action.value, {
        timeout: action.timeoutMs,
      });
      return;
  }
}

/**
 * Runs the request's steps in order on the loaded page. Each is bounded by its own timeout (and
 * a guard a little past it, for a step that hangs in the page, e.g. an element search); the
 * first that fails ends the capture with 422 `capture_failed`, reason `action_failed`, naming
 * the step's index and type. Returns milliseconds per step, for the timings.
 */
export async function runPageActions(
  page: Page,
  actions: readonly PageAction[],
  options: RunActionsOptions,
): Promise<number[]> {
  const took: number[] = [];
  for (const [index, action] of actions.entries()) {
    const started = performance.now();
    const bound = action.type === 'wait' ? action.ms : action.timeoutMs;
    const guard = AbortSignal.any([options.signal, AbortSignal.timeout(bound + GUARD_MARGIN_MS)]);
    try {
      await raceAbort(runStep(page, action, { ...options, signal: guard }), guard);
    } catch (error) {
      if (options.signal.aborted) throw options.signal.reason;
      if (guard.aborted) {
        throw captureFailed(
          'action_failed',
          `actions[${index}] (${action.type}): did not finish within ${bound} ms`,
          { details: { step: index, type: action.type }, cause: error },
        );
      }
      throw actionFailed(index, action, error);
    }
    took.push(Math.round(performance.now() - started));
  }
  return took;
}
