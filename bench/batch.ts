/**
 * Issue 39, `make bench` section `batch`: one POST /v1/batch of 50 items over 10 URLs with 3
 * looks (150 renders) against the same 150 renders as separate POST /v1/capture requests sent
 * with the same concurrency as the service's job workers. Wall time of each, and how often each
 * page was loaded by the browser (the fixture server's count): the batch should load each URL
 * once. Every render is different (a title per item), so the result cache serves none.
 */
import type { RunningServer } from '../test/support/fixture-server.ts';
import { startVitrine } from './service.ts';

export interface BatchBenchResult {
  items: number;
  urls: number;
  looks: number;
  renders: number;
  concurrency: number;
  batch: BatchRun;
  separate: BatchRun;
}

export interface BatchRun {
  wallMs: number;
  completed: number;
  failed: number;
  pageLoads: number;
  maxLoadsPerUrl: number;
  /** Sum of the renders' own `duration_ms` (the runner's time per render) divided by the concurrency. */
  renderMsPerWorker: number;
}

const LOOKS = {
  sunset: { background_preset: 'sunset', padding: 48 },
  midnight: { background_preset: 'midnight', padding: 64, shadow: 'float' },
  plain: { background_color: '#f4f1ea', padding: 24, shadow: 'soft' },
} as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function batchSection(
  fixtures: RunningServer,
  options: { items: number; urls: number },
): Promise<BatchBenchResult> {
  const concurrency = 2;
  const vitrine = await startVitrine({
    VITRINE_WORKER_CONCURRENCY: String(concurrency),
    VITRINE_QUEUE_POLL_MS: '50',
  });
  const pagePaths = ['/bench/simple.html', '/bench/heavy.html', '/bench/long.html'];
  const urlsOf = (run: string) =>
    Array.from(
      { length: options.urls },
      (_, i) => `${fixtures.origin}${pagePaths[i % pagePaths.length]}?u=${i}&run=${run}`,
    );
  const loadsOf = (urls: string[]) =>
    urls.map((url) => {
      const { pathname, search } = new URL(url);
      return fixtures.hits.filter((hit) => hit === pathname + search).length;
    });
  const itemsOf = (urls: string[]) =>
    Array.from({ length: options.items }, (_, j) => ({ url: urls[j % urls.length]!, title: `Shot ${j}` }));
  const defaults = { viewport: { width: 1280, height: 800 } };
  try {
    await vitrine.post('/v1/raw', { url: `${fixtures.origin}/bench/simple.html`, cache_ttl: 0 }); // warm pool
    const run = String(Date.now());

    // The batch.
    const batchUrls = urlsOf(`${run}b`);
    const startedBatch = performance.now();
    const accepted = (await vitrine.post('/v1/batch', {
      defaults,
      items: itemsOf(batchUrls),
      looks: LOOKS,
    })) as {
      id: string;
    };
    let counts = { completed: 0, failed: 0 };
    let batchRenderMs = 0;
    for (;;) {
      const response = await fetch(`${vitrine.test.baseUrl}/v1/batches/${accepted.id}`, {
        headers: { authorization: `Bearer ${vitrine.key}` },
      });
      const batch = (await response.json()) as {
        status: string;
        counts: typeof counts;
        renders: { result: { duration_ms: number } | null }[];
      };
      if (batch.status === 'completed') {
        counts = batch.counts;
        batchRenderMs = batch.renders.reduce((sum, r) => sum + (r.result?.duration_ms ?? 0), 0);
        break;
      }
      await sleep(100);
    }
    const batchWall = performance.now() - startedBatch;
    const batchLoads = loadsOf(batchUrls);

    // The same renders, one request each, `concurrency` at a time.
    const separateUrls = urlsOf(`${run}s`);
    const bodies = itemsOf(separateUrls).flatMap((item) =>
      Object.values(LOOKS).map((look) => ({ ...defaults, ...item, ...look })),
    );
    const startedSeparate = performance.now();
    let next = 0;
    const separate = { completed: 0, failed: 0 };
    let separateRenderMs = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next++; i < bodies.length; i = next++) {
          try {
            const result = await vitrine.post('/v1/capture', bodies[i]);
            separateRenderMs += Number(result.duration_ms ?? 0);
            separate.completed++;
          } catch {
            separate.failed++;
          }
        }
      }),
    );
    const separateWall = performance.now() - startedSeparate;
    const separateLoads = loadsOf(separateUrls);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    return {
      items: options.items,
      urls: options.urls,
      looks: Object.keys(LOOKS).length,
      renders: bodies.length,
      concurrency,
      batch: {
        wallMs: Math.round(batchWall),
        ...counts,
        pageLoads: sum(batchLoads),
        maxLoadsPerUrl: Math.max(...batchLoads),
        renderMsPerWorker: Math.round(batchRenderMs / concurrency),
      },
      separate: {
        wallMs: Math.round(separateWall),
        ...separate,
        pageLoads: sum(separateLoads),
        maxLoadsPerUrl: Math.max(...separateLoads),
        renderMsPerWorker: Math.round(separateRenderMs / concurrency),
      },
    };
  } finally {
    await vitrine.close();
  }
}

/** The lines docs/benchmarks.md shows for the section. */
export function batchLines(b: BatchBenchResult): string[] {
  const row = (name: string, r: BatchRun) =>
    `| ${name} | ${(r.wallMs / 1000).toFixed(1)} s | ${(r.renderMsPerWorker / 1000).toFixed(1)} s | ${r.completed} / ${r.failed} | ${r.pageLoads} (at most ${r.maxLoadsPerUrl} per URL) |`;
  return [
    `Batch (issue 39): ${b.items} items over ${b.urls} URLs x ${b.looks} looks = ${b.renders} renders (1280x800), job concurrency ${b.concurrency}; the same renders as separate POST /v1/capture requests, ${b.concurrency} at a time:`,
    '',
    '| how | wall time | render time per worker | completed / failed | page loads |',
    '|---|---|---|---|---|',
    row('POST /v1/batch', b.batch),
    row('separate requests', b.separate),
  ];
}
