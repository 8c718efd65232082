import { describe, expect, it } from 'vitest';
import { captureScreenshot } from './capture-screenshot.ts';

/** A CDP session double that answers `Page.captureScreenshot` from a list of outcomes. */
function session(outcomes: (string | Error)[]) {
  const calls: unknown[] = [];
  return {
    calls,
    send: async (method: string, params?: unknown) => {
      calls.push([method, params]);
      const next = outcomes.shift();
      if (next instanceof Error) throw next;
      return { data: next };
    },
  };
}

describe('captureScreenshot', () => {
  const params = { format: 'png', optimizeForSpeed: true };

  it('asks once more when Chromium had no frame ready', async () => {
    const cdp = session([
      new Error('Protocol error (Page.captureScreenshot): Unable to capture screenshot'),
      'ok',
    ]);
    await expect(captureScreenshot(cdp as never, params)).resolves.toEqual({ data: 'ok' });
    expect(cdp.calls).toEqual([
      ['Page.captureScreenshot', params],
      ['Page.captureScreenshot', params],
    ]);
  });

  it('asks again while Chromium has no frame, five requests at most, and not for other failures', async () => {
    const noFrame = () => new Error('Unable to capture screenshot');
    const late = session([noFrame(), noFrame(), noFrame(), noFrame(), 'ok']);
    await expect(captureScreenshot(late as never, params)).resolves.toEqual({ data: 'ok' });
    expect(late.calls).toHaveLength(5);
    const never = session([noFrame(), noFrame(), noFrame(), noFrame(), noFrame(), 'never']);
    await expect(captureScreenshot(never as never, params)).rejects.toThrow('Unable to capture screenshot');
    expect(never.calls).toHaveLength(5);
    const closed = session([new Error('Target closed'), 'never']);
    await expect(captureScreenshot(closed as never, params)).rejects.toThrow('Target closed');
    expect(closed.calls).toHaveLength(1);
  });
});
