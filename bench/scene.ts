/**
 * Issue 38: what a scene costs against its parts. A three-shot scene (three pages, each in its
 * own device) through POST /v1/capture, against the three single captures of the same pages and
 * devices one after another plus one compose of the scene (the compose phase the service logged
 * for the scene): the issue asks that a scene costs at most that sum. Fresh renders only
 * (`cache_ttl: 0`: no result cache, no page reuse), the same look for all.
 */
import { type Stats, stats } from './measure.ts';
import { startVitrine } from './service.ts';

export interface SceneBenchResult {
  /** The three-shot scene, end to end. */
  sceneMs: Stats;
  /** The scene's own compose phase (one compose of three shots). */
  composeMs: Stats;
  /** The three single captures one after another, per round. */
  singlesMs: Stats;
  /** Per round: the singles plus the scene's compose. */
  budgetMs: Stats;
  /** Rounds where the scene took at most the singles plus one compose. */
  within: number;
  rounds: number;
}

export async function sceneSection(pages: string[], rounds: number): Promise<SceneBenchResult> {
  const vitrine = await startVitrine();
  const look = { background_preset: 'aurora', title: 'Every screen', cache_ttl: 0 };
  const devices = ['macbook-pro-16', 'iphone-16-pro', 'browser-macos'] as const;
  const shots = pages.map((url, i) => ({ url, device: devices[i % devices.length] }));
  const scene = { ...look, url: pages[0], shots, scene: { layout: 'side-by-side' } };
  try {
    // Warm-up: fonts, the device rasters and the pool's pages.
    await vitrine.post('/v1/capture', scene);
    for (const shot of shots) await vitrine.post('/v1/capture', { ...look, ...shot });
    const sceneMs: number[] = [];
    const composeMs: number[] = [];
    const singlesMs: number[] = [];
    const budgetMs: number[] = [];
    let within = 0;
    for (let round = 0; round < rounds; round++) {
      const start = performance.now();
      const { server } = await vitrine.postTraced('/v1/capture', scene);
      const took = performance.now() - start;
      const compose = server.phasesMs?.compose ?? 0;
      let singles = 0;
      for (const shot of shots) {
        const one = performance.now();
        await vitrine.post('/v1/capture', { ...look, ...shot });
        singles += performance.now() - one;
      }
      sceneMs.push(took);
      composeMs.push(compose);
      singlesMs.push(singles);
      budgetMs.push(singles + compose);
      if (took <= singles + compose) within++;
    }
    const result = {
      sceneMs: stats(sceneMs),
      composeMs: stats(composeMs),
      singlesMs: stats(singlesMs),
      budgetMs: stats(budgetMs),
      within,
      rounds,
    };
    console.log(
      `  three-shot scene p50 ${Math.round(result.sceneMs.p50)} ms (compose ${Math.round(result.composeMs.p50)} ms); three single captures p50 ${Math.round(result.singlesMs.p50)} ms, plus one compose ${Math.round(result.budgetMs.p50)} ms; within it in ${within} of ${rounds} rounds`,
    );
    return result;
  } finally {
    await vitrine.close();
  }
}
