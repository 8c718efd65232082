import { errorEnvelopeSchema } from '@vitrine/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { ONCE_FAILED_LOOK, randomLook, seededRandom } from '../support/random-look.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

/**
 * A bounded run of bench/compose-load.ts: the look that once answered 500 under load and a few
 * seeded random valid looks, three at a time, in both compose modes. Every answer is a result
 * or a contract error, never a 5xx. (More looks: `node bench/compose-load.ts 200 6`.)
 */
describe('random valid looks under concurrency', () => {
  let t: TestApp;
  let fixtures: RunningServer;
  let key: TestKey;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    t = await startTestApp('sqlite', {
      env: { VITRINE_ALLOW_TARGETS: '127.0.0.2', VITRINE_RATE_LIMIT_CAPTURE_PER_MINUTE: '100000' },
    });
    key = await t.createKey({ credits: 1000 });
  });
  afterAll(async () => {
    await t?.close();
    await fixtures?.close();
  });

  it('answers each with a result or a contract error, never a 5xx', async () => {
    const url = `${fixtures.origin}/capture/simple.html`;
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
          const res = await t.request('POST', '/v1/capture', {
            key: key.key,
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
