import { ERROR_CODE_NAMES } from '@vitrine/contract';
import { describe, expect, it } from 'vitest';
import { EXIT, EXIT_CODE_FOR_ERROR, EXIT_CODE_MEANINGS } from './exit-codes.ts';

describe('exit codes', () => {
  it('map every error code of the contract to a documented exit code', () => {
    const documented = new Set(EXIT_CODE_MEANINGS.map((m) => m.code));
    for (const code of ERROR_CODE_NAMES) {
      expect(documented.has(EXIT_CODE_FOR_ERROR[code]), code).toBe(true);
      expect(EXIT_CODE_FOR_ERROR[code], code).toBeGreaterThan(1);
    }
  });

  it('document each exit code once', () => {
    const codes = EXIT_CODE_MEANINGS.map((m) => m.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(new Set(codes)).toEqual(new Set(Object.values(EXIT)));
  });
});
