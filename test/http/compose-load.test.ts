import { errorEnvelopeSchema } from '@vitrine/contract';
import { describe, expect, it } from 'vitest';
import { useFixtureApp } from '../support/fixture-app.ts';
import { ONCE_FAILED_LOOK, randomLook, seededRandom } from '../support/random-look.ts';

/**
 * A bounded run of bench/compose-load.ts: the look that once answered 500 under load and a few
 * seeded random valid looks, three at a time, in both compose modes. Every answer is a result
 * or a contract error, never a 5xx. (More looks: `node bench/compose-load.ts 200 6`.)
 */
describe('random valid looks under concurrency', () => {
  const app = useFixtureApp({ env: { VITRINE_RATE_LIMIT_CAPTURE_PER_MINUTE: '100000' }, credits: 1000 });

  it('answers each with a result or a contract error, never a 5xx', async () => {
    const url = `${app.fixtures.origin}/capture/simple.html`;
    const looks: [string, Record<string, unknown>][] = [
      ['once-failed', ONCE_FAILED_LOOK],
      ['once-failed, satori', { ...ONCE_FAILED_LOOK, compose_mode: 'satori' }],
      ...[11, 12, 13, 14].map((seed): [string, Record<string, unknown>] => [
        `seed ${seed}`,
        randomLook(seededRandom(seed)),
      ]),
    ];
    const answers: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 3 }, async () => {
        while (next < looks.length) {
          const [label, look] = looks[next++] as [string, Record<string, unknown>];
          const res = await app.t.request('POST', '/v1/capture', {
            key: app.key.key,
            json: { url, cache_ttl: 0, ...look },
          });
          if (res.status !== 201) {
            // Under load a browser may go away (422 render_failed); what must never happen is
            // an answer outside the contract.
            expect(errorEnvelopeSchema.safeParse(res.json).success, `${label}: ${res.text}`).toBe(true);
          }
          answers.push(`${label}: ${res.status} ${res.status === 201 ? '' : res.text.slice(0, 200)}`);
        }
      }),
    );
    expect(answers.filter((a) => / 5\d\d /.test(a))).toEqual([]);
  }, 240_000);
});
