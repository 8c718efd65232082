import crypto from 'node:crypto';
import { canonicalString as contractCanonical } from '@vitrine/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalString, signCaptureUrl } from './signed-url.ts';

describe('signed capture URLs', () => {
  it("builds the contract's canonical string for any pairs", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string(), fc.string()), { maxLength: 8 }), (pairs) => {
        expect(canonicalString('get', '/v1/capture', pairs)).toBe(
          contractCanonical('get', '/v1/capture', pairs),
        );
      }),
      { seed: 35, numRuns: 200 },
    );
  });

  it('signs the query, project and expiry with HMAC-SHA256 of the signing secret', () => {
    const url = new URL(
      signCaptureUrl({
        baseUrl: 'http://127.0.0.1:3000/',
        projectId: 'prj_01JABCDEFGHJKMNPQRSTVWXYZ0',
        signingSecret: 'secret',
        query: { url: 'https://example.com/a b?c=d', bg: 'ocean', width: 640 },
        now: new Date('2026-11-28T10:00:00Z'),
        expiresInSeconds: 60,
      }),
    );
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:3000/v1/capture');
    const pairs = [...url.searchParams];
    expect(url.searchParams.get('expires')).toBe(String(Date.parse('2026-11-28T10:01:00Z') / 1000));
    expect(url.searchParams.get('width')).toBe('640');
    const expected = crypto
      .createHmac('sha256', 'secret')
      .update(contractCanonical('GET', '/v1/capture', pairs))
      .digest('hex');
    expect(url.searchParams.get('signature')).toBe(expected);
  });
});
