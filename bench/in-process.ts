import type { Baseline } from './baselines.ts';
import { type CdnLoadResult, cdnLoad } from './cdn-load.ts';
import { interleaved, type Stats, stats, sustained } from './measure.ts';
import { untilQuiet } from './process-cpu.ts';
import type { VitrineClient } from './service.ts';

/** The viewport every contender captures at (Vitrine's default, the P1 size). */
export const VIEWPORT = { width: 1440, height: 900 };

export interface Contenders {
  vitrine: VitrineClient;
  /** Whether POST /v1/capture is in the running service's OpenAPI document. */
  styled: boolean;
  bare: Baseline;
  cwPerCall: Baseline;
  cwWarm: Baseline;
}

const rawBody = (url: string, extra: object = {}) => ({ url, viewport: VIEWPORT, cache_ttl: 0, ...extra });

/** Phase timings reported by the service, collected per contender for the p50 breakdown. */
type PhaseLog = Record<string, Record<string, number[]>>;

function phaseStats(log: PhaseLog): Record<string, Record<string, number>> {
  return Object.fromEntries(
    Object.entries(log).map(([name, phases]) => [
      name,
      Object.fromEntries(Object.entries(phases).map(([phase, v]) => [phase, stats(v).p50])),
    ]),
  );
}

function tracer(c: Contenders, log: PhaseLog) {
  return (name: string, path: string, body: unknown) => async () => {
    const { server } = await c.vitrine.postTraced(path, body);
    log[name] ??= {};
    const phases = log[name];
    for (const [phase, ms] of Object.entries(server.phasesMs ?? {})) {
      phases[phase] ??= [];
      phases[phase].push(ms);
    }
  };
}

/** P1r and P1: sequential latency per page, contenders interleaved in rotated rounds. */
export async function latencySection(c: Contenders, pages: Record<string, string>, rounds: number) {
  const byPage: Record<string, Record<string, Stats>> = {};
  const phases: Record<string, PhaseLog> = {};
  for (const [page, url] of Object.entries(pages)) {
    const log: PhaseLog = {};
    const traced = tracer(c, log);
    const contenders: Record<string, () => Promise<unknown>> = {
      'bare-playwright': () => c.bare.capture(url),
      'vitrine-raw': traced('vitrine-raw', '/v1/raw', rawBody(url)),
    };
    if (c.styled) contenders['vitrine-capture'] = traced('vitrine-capture', '/v1/capture', rawBody(url));
    const times = await interleaved(contenders, rounds, { warmup: 1, between: untilQuiet });
    byPage[page] = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, stats(v)]));
    phases[page] = log;
    console.log(`  latency ${page}: ${summary(byPage[page])}`);
  }
  return { byPage, phases: Object.fromEntries(Object.entries(phases).map(([p, l]) => [p, phaseStats(l)])) };
}

/**
 * capture-website, slow by design (a browser per call, networkidle2): fewer rounds, simple page
 * only, with its warm-browser variant and bare-playwright in the same rounds.
 */
export async function perCallSection(c: Contenders, url: string, rounds: number) {
  const times = await interleaved(
    {
      'capture-website': () => c.cwPerCall.capture(url),
      'capture-website-warm': () => c.cwWarm.capture(url),
      'bare-playwright': () => c.bare.capture(url),
    },
    rounds,
    { warmup: 0, between: untilQuiet },
  );
  const out = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, stats(v)]));
  console.log(`  latency simple, browser per call: ${summary(out)}`);
  return out;
}

/**
 * P7: full page of the 10,000 px page against a viewport capture of it, same run, with the
 * phases the service reported for each (the full page's shot and encode say where it goes).
 */
export async function fullPageSection(c: Contenders, url: string, rounds: number) {
  const log: PhaseLog = {};
  const traced = tracer(c, log);
  const times = await interleaved(
    {
      'vitrine-raw viewport': traced('vitrine-raw viewport', '/v1/raw', rawBody(url)),
      'vitrine-raw full_page': traced('vitrine-raw full_page', '/v1/raw', rawBody(url, { full_page: true })),
      'bare-playwright viewport': () => c.bare.capture(url),
      'bare-playwright fullPage': () => c.bare.capture(url, { fullPage: true }),
    },
    rounds,
    { warmup: 1, between: untilQuiet },
  );
  const out = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, stats(v)]));
  console.log(`  full page: ${summary(out)}`);
  return { times: out, phases: phaseStats(log) };
}

export interface ThroughputResult {
  perMinute: number;
  done: number;
  failed: number;
  seconds: number;
}

/**
 * P3: completed captures per minute at concurrency 4, in blocks of `blockSeconds` per contender,
 * the contenders rotated block by block, over the given pages in turn.
 */
export async function throughputSection(c: Contenders, urls: string[], blocks: number, blockSeconds: number) {
  const contenders: Record<string, (i: number) => Promise<unknown>> = {
    'bare-playwright': (i) => c.bare.capture(urls[i % urls.length] as string),
    'vitrine-raw': (i) => c.vitrine.post('/v1/raw', rawBody(urls[i % urls.length] as string)),
    'capture-website': (i) => c.cwPerCall.capture(urls[i % urls.length] as string),
    // Not capture-website-warm: at concurrency 4 it stalled in a trial run (1.8 per minute,
    // calls ending at its 60 s timeout), probably its pages sharing one browser window.
  };
  if (c.styled)
    contenders['vitrine-capture'] = (i) =>
      c.vitrine.post('/v1/capture', rawBody(urls[i % urls.length] as string));
  const names = Object.keys(contenders);
  const totals: Record<string, { done: number; failed: number; ms: number }> = {};
  for (let block = 0; block < blocks; block += 1) {
    const order = [...names.slice(block % names.length), ...names.slice(0, block % names.length)];
    for (const name of order) {
      const work = contenders[name] as (i: number) => Promise<unknown>;
      const r = await sustained((_w, i) => work(i), 4, blockSeconds * 1000);
      totals[name] ??= { done: 0, failed: 0, ms: 0 };
      const t = totals[name];
      t.done += r.done;
      t.failed += r.failed;
      t.ms += r.elapsedMs;
    }
  }
  const out: Record<string, ThroughputResult> = {};
  for (const [name, t] of Object.entries(totals)) {
    out[name] = {
      perMinute: Math.round((t.done / t.ms) * 60_000 * 10) / 10,
      done: t.done,
      failed: t.failed,
      seconds: Math.round(t.ms / 100) / 10,
    };
  }
  console.log(
    `  throughput/min: ${Object.entries(out)
      .map(([k, v]) => `${k} ${v.perMinute}`)
      .join(', ')}`,
  );
  return out;
}

/** P4: the same request again (default cache_ttl) answered from the capture cache; CDN req/s. */
export async function cacheSection(c: Contenders, url: string, rounds: number) {
  const out: Record<string, { server: Stats; client: Stats }> = {};
  const paths = c.styled ? ['/v1/raw', '/v1/capture'] : ['/v1/raw'];
  let imageUrl = '';
  for (const path of paths) {
    const body = { url, viewport: VIEWPORT };
    const first = await c.vitrine.post(path, body);
    imageUrl ||= String(first.url);
    const server: number[] = [];
    const client: number[] = [];
    for (let i = 0; i < rounds; i += 1) {
      const started = performance.now();
      const { body: answer, server: side } = await c.vitrine.postTraced(path, body);
      client.push(performance.now() - started);
      if (answer.cached !== true)
        throw new Error(`${path}: the repeated request was not served from the cache`);
      if (side.responseTimeMs !== undefined) server.push(side.responseTimeMs);
    }
    out[path] = { server: stats(server), client: stats(client) };
  }
  const cdn: CdnLoadResult = await cdnLoad({ url: imageUrl, connections: 8, durationMs: 5000 });
  console.log(
    `  cached: ${Object.entries(out)
      .map(([k, v]) => `${k} server p50 ${v.server.p50} ms`)
      .join(', ')}; CDN ${cdn.perSecond} req/s`,
  );
  return { cached: out, cdn };
}

/**
 * P2 inside the service: the compose and encode phases the service itself reports for
 * POST /v1/capture, per compose mode and output dpr. A mode the service does not have yet is
 * reported as skipped (the service answers with a fallback warning).
 */
export async function serviceComposeSection(c: Contenders, url: string, rounds: number) {
  const out: Record<string, { compose: Stats; encode: Stats; total: Stats } | { skipped: string }> = {};
  for (const mode of ['satori', 'browser']) {
    for (const dpr of [1, 2]) {
      const name = `${mode} dpr${dpr}`;
      const compose: number[] = [];
      const encode: number[] = [];
      const total: number[] = [];
      for (let i = -1; i < rounds; i += 1) {
        const body = rawBody(url, { compose_mode: mode, output: { dpr } });
        const { body: answer, server } = await c.vitrine.postTraced('/v1/capture', body);
        const warnings = (answer.warnings as string[] | undefined) ?? [];
        const fallback = warnings.find((w) => w.includes(`compose_mode ${mode} is not available`));
        if (fallback) {
          out[name] = { skipped: `the service has no ${mode} compose mode yet: ${fallback}` };
          break;
        }
        const p = server.phasesMs ?? {};
        if (i < 0 || p.compose === undefined || p.encode === undefined) continue;
        compose.push(p.compose);
        encode.push(p.encode);
        total.push(p.compose + p.encode);
      }
      out[name] ??= { compose: stats(compose), encode: stats(encode), total: stats(total) };
    }
  }
  const text = Object.entries(out).map(([k, v]) => `${k} ${'total' in v ? `${v.total.p50} ms` : 'skipped'}`);
  console.log(`  compose+encode in the service: ${text.join(', ')}`);
  return out;
}

function summary(s: Record<string, Stats>): string {
  return Object.entries(s)
    .map(([k, v]) => `${k} p50 ${Math.round(v.p50)} / p95 ${Math.round(v.p95)} ms`)
    .join('; ');
}

/**
 * Issue 16: the playground's preview update time. A page is captured once with the default
 * look; each round then changes one styling field (a new padding, so nothing is served from the
 * result cache) as the playground does, and the capture-level page cache answers without a page
 * load. Client time is what the playground waits for; the phases show no navigation.
 */
export async function previewSection(c: Contenders, url: string, rounds: number) {
  const body = { url, viewport: VIEWPORT };
  await c.vitrine.post('/v1/capture', body);
  const client: number[] = [];
  const server: number[] = [];
  let navigations = 0;
  for (let i = 0; i < rounds; i += 1) {
    const started = performance.now();
    const { body: answer, server: side } = await c.vitrine.postTraced('/v1/capture', {
      ...body,
      padding: 20 + i,
    });
    client.push(performance.now() - started);
    if (answer.cached === true) throw new Error('a style change was answered from the result cache');
    if (side.phasesMs?.navigation !== undefined) navigations += 1;
    if (side.responseTimeMs !== undefined) server.push(side.responseTimeMs);
  }
  const out = { client: stats(client), server: stats(server), navigations, rounds };
  console.log(
    `  preview update (style change on a captured page): client p50 ${out.client.p50} ms, server p50 ${out.server.p50} ms, ${navigations} of ${rounds} navigated`,
  );
  return out;
}
