import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureOf, creditsOf, insertUser, renderKit } from '../../../../test/jobs/job-kit.ts';
import { type TestDatabase, testDatabase } from '../../../../test/support/test-database.ts';
import type { OpenedDatabase } from '../db/open-database.ts';
import { AppError } from '../errors/app-error.ts';
import { newId } from '../ids.ts';
import { asRenderFailure, renderDeadlineMs } from './run-capture.ts';

describe('render failures are contract errors', () => {
  let database: TestDatabase;
  let opened: OpenedDatabase;
  beforeAll(async () => {
    database = testDatabase('sqlite');
    opened = await database.open();
  });
  afterAll(async () => {
    await opened.close();
    await database.destroy();
  });

  it('turns anything a stage throws into 422 capture_failed render_failed, without internals', async () => {
    const kit = renderKit(opened.db, async () => {
      throw new Error('Target page, context or browser has been closed');
    });
    const principal = await insertUser(opened.db, 5);
    const reservation = await kit.credits.reserve(principal, 'capture', 1);
    const failure = await kit
      .render(
        { capture: captureOf('https://example.com/'), principal, reservation, captureId: newId('capture') },
        new AbortController().signal,
      )
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({
      code: 'capture_failed',
      status: 422,
      details: { reason: 'render_failed' },
      message: 'The image could not be rendered',
    });
    expect((failure as AppError).message).not.toContain('Target page');
    // A queued capture's reservation stays for the job worker to retry with or refund.
    expect(await creditsOf(opened.db, principal.userId)).toEqual({ remaining: 4, ledger: ['reserved:1'] });
  });

  it('keeps contract errors as they are', () => {
    const original = new AppError('capture_failed', 'Selector not found', {
      details: { reason: 'selector_not_found' },
    });
    expect(asRenderFailure(original)).toBe(original);
    expect(asRenderFailure(new TypeError('x')).details).toEqual({ reason: 'render_failed' });
  });
});

describe('the render deadline', () => {
  it('is the capture deadline for a still, plus the per-frame budget for every frame of a video', () => {
    expect(renderDeadlineMs(45_000, null, 200)).toBe(45_000);
    expect(renderDeadlineMs(45_000, { duration: 6, fps: 30 }, 200)).toBe(45_000 + 180 * 200);
    // Both parts follow their configuration.
    expect(renderDeadlineMs(10_000, { duration: 2, fps: 10 }, 500)).toBe(10_000 + 20 * 500);
  });
});
