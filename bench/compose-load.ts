/**
 * Load test of the compose modes: random valid looks (test/support/random-look.ts), sent
 * concurrently to a real server, looking for answers outside the contract (500 internal_error,
 * or anything that is not a result or an envelope). Prints each such answer with its seed.
 *
 *   node bench/compose-load.ts [count=60] [concurrency=6] [seed=1]
 */
import { errorEnvelopeSchema } from '@vitrine/contract';
import { startFixtureServer } from '../test/support/fixture-server.ts';
import { ONCE_FAILED_LOOK, randomLook, seededRandom } from '../test/support/random-look.ts';
import { startTestApp } from '../test/support/test-app.ts';
import { UNLIMITED_CAPTURES } from './service.ts';

const [count = 60, concurrency = 6, firstSeed = 1] = process.argv.slice(2).map(Number);
const verbose = process.env.VERBOSE === '1';
const fixtures = await startFixtureServer();
const t = await startTestApp('sqlite', {
  env: {
    VITRINE_ALLOW_TARGETS: '127.0.0.2',
    ...UNLIMITED_CAPTURES,
    VITRINE_LOG_LEVEL: 'error',
  },
});
const key = await t.createKey({ credits: 1_000_000 });
const url = `${fixtures.origin}/capture/simple.html`;
const looks: [string, Record<string, unknown>][] = [['once-failed', ONCE_FAILED_LOOK]];
for (let seed = firstSeed; looks.length < count; seed++)
  looks.push([`seed ${seed}`, randomLook(seededRandom(seed))]);

const statuses = new Map<string, number>();
const outsideContract: string[] = [];
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < looks.length) {
      const [label, look] = looks[next++] as [string, Record<string, unknown>];
      const res = await t.request('POST', '/v1/capture', {
        key: key.key,
        json: { url, cache_ttl: 0, ...look },
      });
      const code = res.status === 201 ? '201' : `${res.status} ${res.json?.error?.code ?? '?'}`;
      statuses.set(code, (statuses.get(code) ?? 0) + 1);
      const envelope = errorEnvelopeSchema.safeParse(res.json).success;
      if (res.status !== 201 && verbose) console.log(`${label}: ${res.status} ${res.text.slice(0, 200)}`);
      if (res.status >= 500 || (res.status !== 201 && !envelope)) {
        outsideContract.push(`${label}: ${res.status} ${res.text.slice(0, 300)}\n  ${JSON.stringify(look)}`);
      }
    }
  }),
);
console.log(
  `${looks.length} captures, concurrency ${concurrency}, ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
console.log(Object.fromEntries([...statuses].sort()));
for (const line of outsideContract) console.log(line);
await t.close();
await fixtures.close();
process.exit(outsideContract.length === 0 ? 0 : 1);
