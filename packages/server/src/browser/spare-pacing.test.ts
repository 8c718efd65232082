import { describe, expect, it } from 'vitest';
import { paceFor } from './spare-pacing.ts';

describe('paceFor', () => {
  it('prepares after the capture while nothing is known yet', () => {
    expect(paceFor({ othersRunning: 0, sinceLastEnd: undefined, prepareMs: undefined })).toBe('after');
    expect(paceFor({ othersRunning: 0, sinceLastEnd: 20, prepareMs: undefined })).toBe('after');
  });

  it('prepares ahead when another capture runs beside this one', () => {
    expect(paceFor({ othersRunning: 1, sinceLastEnd: 5000, prepareMs: 150 })).toBe('ahead');
  });

  it('prepares ahead when this capture came sooner after the last one than a page takes to prepare', () => {
    expect(paceFor({ othersRunning: 0, sinceLastEnd: 20, prepareMs: 150 })).toBe('ahead');
    expect(paceFor({ othersRunning: 0, sinceLastEnd: 149, prepareMs: 150 })).toBe('ahead');
  });

  it('prepares after the capture when the last one ended long enough before', () => {
    expect(paceFor({ othersRunning: 0, sinceLastEnd: 150, prepareMs: 150 })).toBe('after');
    expect(paceFor({ othersRunning: 0, sinceLastEnd: 2000, prepareMs: 150 })).toBe('after');
  });
});
