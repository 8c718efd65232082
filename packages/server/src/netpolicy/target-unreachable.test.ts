import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error.ts';
import {
  isNetworkFailure,
  isTargetUnreachable,
  TARGET_UNREACHABLE_MESSAGE,
  targetUnreachable,
  toTargetError,
} from './target-unreachable.ts';

describe('target_unreachable mapping', () => {
  it.each([
    new Error('page.goto: net::ERR_CONNECTION_REFUSED at http://example.test/'),
    new Error('page.goto: net::ERR_TUNNEL_CONNECTION_FAILED at https://example.test/'),
    new Error('net::ERR_NAME_NOT_RESOLVED'),
    Object.assign(new Error('connect ECONNREFUSED 1.2.3.4:80'), { code: 'ECONNREFUSED' }),
    Object.assign(new Error('timeout'), { code: 'UND_ERR_CONNECT_TIMEOUT' }),
    Object.assign(new Error('bad response'), { code: 'HPE_INVALID_CONSTANT' }),
    new TypeError('fetch failed', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) }),
  ])('maps %s to one generic error', (error) => {
    expect(isNetworkFailure(error)).toBe(true);
    const mapped = toTargetError(error);
    expect(isTargetUnreachable(mapped)).toBe(true);
    expect((mapped as AppError).message).toBe(TARGET_UNREACHABLE_MESSAGE);
    expect((mapped as AppError).message).not.toMatch(/net::|ECONN|ERR_/);
    expect((mapped as AppError).cause).toBe(error);
  });

  it('leaves AppErrors and unrelated errors alone', () => {
    const refused = new AppError('target_not_allowed', 'url is not allowed');
    expect(toTargetError(refused)).toBe(refused);
    const bug = new TypeError('x is not a function');
    expect(toTargetError(bug)).toBe(bug);
    expect(isNetworkFailure(bug)).toBe(false);
  });

  it('is a 422 capture_failed with reason target_unreachable', () => {
    const error = targetUnreachable(new Error('cause'));
    expect(error.status).toBe(422);
    expect(error.details).toEqual({ reason: 'target_unreachable' });
  });
});
