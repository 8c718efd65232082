/**
 * P7 alone, quickly (not the whole bench): `/v1/raw` of the 10,000 px bench page, viewport and
 * full page, interleaved in rounds, with the service's own phases per capture. Prints p50s, the
 * ratio (target: full page at most 3 x the viewport) and where the full page spends its time.
 *
 *   node bench/full-page-ratio.ts [rounds]
 */
import { startFixtureServer } from '../test/support/fixture-server.ts';
import { VIEWPORT } from './in-process.ts';
import { percentile } from './measure.ts';
import { startVitrine } from './service.ts';

const rounds = Number(process.argv[2] ?? 12);
const fixtures = await startFixtureServer();
const vitrine = await startVitrine();
const url = `${fixtures.origin}/bench/long.html`;
const kinds = {
  viewport: { url, viewport: VIEWPORT, cache_ttl: 0 },
  full_page: { url, viewport: VIEWPORT, cache_ttl: 0, full_page: true },
};
const wall: Record<string, number[]> = { viewport: [], full_page: [] };
const phases: Record<string, Record<string, number[]>> = { viewport: {}, full_page: {} };
try {
  for (let round = -1; round < rounds; round += 1) {
    const order =
      round % 2 === 0 ? (['viewport', 'full_page'] as const) : (['full_page', 'viewport'] as const);
    for (const kind of order) {
      const started = performance.now();
      const { server } = await vitrine.postTraced('/v1/raw', kinds[kind]);
      if (round < 0) continue; // warm-up
      wall[kind]?.push(performance.now() - started);
      for (const [phase, ms] of Object.entries(server.phasesMs ?? {})) {
        const byPhase = phases[kind] as Record<string, number[]>;
        byPhase[phase] ??= [];
        byPhase[phase].push(ms);
      }
    }
  }
} finally {
  await vitrine.close();
  await fixtures.close();
}
const p50 = (values: number[]) => Math.round(percentile(values, 50));
const view = p50(wall.viewport ?? []);
const full = p50(wall.full_page ?? []);
console.log(
  `P7 over ${rounds} rounds: full page ${full} ms, viewport ${view} ms: ${(full / view).toFixed(2)} x (target <= 3)`,
);
for (const kind of ['viewport', 'full_page']) {
  const parts = Object.entries(phases[kind] ?? {}).map(([phase, values]) => `${phase} ${p50(values)}`);
  console.log(`  ${kind} phases p50 (ms): ${parts.join(', ')}`);
}
