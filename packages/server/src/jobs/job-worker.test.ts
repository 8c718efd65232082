import { describe, expect, it } from 'vitest';
import { captureFailed } from '../browser/capture-errors.ts';
import { AppError } from '../errors/app-error.ts';
import { isRetryableRenderError, webhookIdOf } from './job-worker.ts';

describe('isRetryableRenderError', () => {
  it('retries transient page failures: a load timeout, a dead browser, a missed deadline', () => {
    expect(isRetryableRenderError(captureFailed('navigation_timeout', 'slow'))).toBe(true);
    expect(isRetryableRenderError(captureFailed('render_failed', 'The browser exited'))).toBe(true);
  });

  it('does not retry failures that another attempt would repeat', () => {
    for (const reason of ['target_unreachable', 'selector_not_found', 'too_large'] as const) {
      expect({ reason, retry: isRetryableRenderError(captureFailed(reason, 'no')) }).toEqual({
        reason,
        retry: false,
      });
    }
    expect(isRetryableRenderError(new AppError('invalid_params', 'bad'))).toBe(false);
    expect(isRetryableRenderError(new AppError('insufficient_credits', 'none'))).toBe(false);
  });

  it('retries infrastructure trouble and unknown errors', () => {
    expect(isRetryableRenderError(new AppError('overloaded', 'busy'))).toBe(true);
    expect(isRetryableRenderError(new AppError('internal_error', 'db down'))).toBe(true);
    expect(isRetryableRenderError(new Error('socket hang up'))).toBe(true);
  });
});

describe('webhookIdOf', () => {
  it('derives one stable webhook id per job', () => {
    expect(webhookIdOf('job_01J0000000000000000000000A')).toBe('msg_01J0000000000000000000000A');
  });
});
