import { describe, expect, it } from 'vitest';
import { toAppError } from '../http/error-response.ts';
import { AppError } from './app-error.ts';
import { dependencyOf, dependencyUnavailable, tagDependency } from './dependency-outage.ts';

describe('dependencyOf', () => {
  it('names the database for the pg driver connection errors and the server shutdown codes', () => {
    expect(dependencyOf(new Error('Connection terminated unexpectedly'))).toBe('database');
    expect(dependencyOf(new Error('timeout exceeded when trying to connect'))).toBe('database');
    expect(dependencyOf(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(
      'database',
    );
    expect(dependencyOf(Object.assign(new Error('x'), { code: '08006' }))).toBe('database');
  });

  it('names Redis for ioredis without its offline queue or out of retries', () => {
    expect(dependencyOf(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).toBe(
      'redis',
    );
    expect(dependencyOf(new Error('Connection is closed.'))).toBe('redis');
  });

  it('follows tags, AppError details and the cause chain', () => {
    expect(dependencyOf(tagDependency(new Error('connect ECONNREFUSED'), 'database'))).toBe('database');
    expect(dependencyOf(new Error('outer', { cause: new Error('Connection is closed.') }))).toBe('redis');
    expect(dependencyOf(dependencyUnavailable('object_store'))).toBe('object_store');
  });

  it('leaves other failures alone: a bug stays a 500, a unique violation is not an outage', () => {
    expect(dependencyOf(new TypeError('x is undefined'))).toBeUndefined();
    expect(dependencyOf(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBeUndefined();
    expect(dependencyOf(new AppError('internal_error', 'x'))).toBeUndefined();
    expect(toAppError(new TypeError('x')).code).toBe('internal_error');
  });
});

describe('toAppError for outages', () => {
  it('answers 503 overloaded naming the dependency, with retry_after, never the driver message', () => {
    const error = toAppError(tagDependency(new Error('connect ECONNREFUSED 127.0.0.1:5432'), 'database'));
    expect(error).toMatchObject({
      code: 'overloaded',
      status: 503,
      retryAfter: 5,
      details: { dependency: 'database' },
    });
    expect(error.message).not.toMatch(/ECONNREFUSED|5432/);
  });

  it('turns an internal error caused by an outage into the same 503', () => {
    const wrapped = new AppError('internal_error', 'x', { cause: new Error('Connection terminated') });
    expect(toAppError(wrapped)).toMatchObject({ code: 'overloaded', details: { dependency: 'database' } });
  });
});
