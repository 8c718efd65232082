import { describe, expect, it } from 'vitest';
import { parseQueryPairs } from '../../../server/src/auth/query-pairs.ts';
import { createSignedUrlVerifier } from '../../../server/src/auth/signed-url.ts';
import type { ProjectRow } from '../../../server/src/db/projects-repository.ts';
import { parseExpiry, parsePairs, signCaptureUrl } from './sign-command.ts';

const PROJECT = 'prj_01JTESTPROJECT000000000000';
const SECRET = 'vss_test-secret';

describe('vitrine sign', () => {
  it("mints URLs the server's verifier accepts, and only as minted", async () => {
    const now = new Date('2026-05-01T12:00:00Z');
    const verify = createSignedUrlVerifier({
      findProject: async (id) => (id === PROJECT ? ({ id, user_id: 'usr_X' } as ProjectRow) : undefined),
      validSecrets: () => [SECRET],
      clock: () => now,
      maxTtlSeconds: 604_800,
    });
    const pairs = parsePairs([
      'url=https://example.com/a b?x=1&y=ü',
      'device=iphone-16-pro',
      'response=image',
    ]);
    pairs.set('project_id', PROJECT);
    const signed = new URL(
      signCaptureUrl({
        baseUrl: 'http://127.0.0.1:8080',
        secret: SECRET,
        pairs,
        expires: now.getTime() / 1000 + 3600,
      }),
    );
    expect(signed.pathname).toBe('/v1/capture');
    const verified = await verify('GET', '/v1/capture', parseQueryPairs(signed.search.slice(1)));
    expect(verified.id).toBe(PROJECT);

    const tampered = new URL(signed);
    tampered.searchParams.set('device', 'macbook-pro-16');
    await expect(
      verify('GET', '/v1/capture', parseQueryPairs(tampered.search.slice(1))),
    ).rejects.toMatchObject({
      code: 'signature_invalid',
    });
  });

  it('refuses unknown, repeated and reserved query fields, and reads expiry forms', () => {
    expect(() => parsePairs(['teleport=yes'])).toThrow(/Unknown query field "teleport"/);
    expect(() => parsePairs(['url=a', 'url=b'])).toThrow(/given twice/);
    expect(() => parsePairs(['signature=00'])).toThrow(/set by vitrine sign itself/);
    expect(() => parsePairs(['novalue'])).toThrow(/key=value/);
    expect(parseExpiry('30m', 1000)).toBe(1000 + 1800);
    expect(parseExpiry('7d', 0)).toBe(604_800);
    expect(parseExpiry('1777777777', 0)).toBe(1_777_777_777);
    expect(() => parseExpiry('soon', 0)).toThrow(/Invalid --expires/);
  });
});
