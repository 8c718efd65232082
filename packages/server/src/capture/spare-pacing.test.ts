import { describe, expect, it } from 'vitest';
import { nextPace } from './spare-pacing.ts';

describe('nextPace', () => {
  it('goes ahead when the spare was still being prepared, or there was none', () => {
    expect(nextPace('after', { startedAt: 1000 }, 1050)).toBe('ahead');
    expect(nextPace('after', undefined, 1050)).toBe('ahead');
    expect(nextPace('ahead', { startedAt: 1000 }, 1050)).toBe('ahead');
  });

  it('goes back to after once a spare was idle as long as it took to prepare', () => {
    // Ready 150 ms after its start, taken 150 ms later: prepared after the capture, it would
    // have been ready in time too.
    expect(nextPace('ahead', { startedAt: 1000, readyAt: 1150 }, 1300)).toBe('after');
    expect(nextPace('after', { startedAt: 1000, readyAt: 1150 }, 5000)).toBe('after');
  });

  it('keeps its pace when a ready spare was taken sooner than that', () => {
    expect(nextPace('ahead', { startedAt: 1000, readyAt: 1150 }, 1200)).toBe('ahead');
    expect(nextPace('after', { startedAt: 1000, readyAt: 1150 }, 1200)).toBe('after');
  });
});
