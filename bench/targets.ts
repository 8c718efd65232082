import type { Results } from './report.ts';

/** One row of the targets table of performance.md: the figure reached and the verdict. */
export interface TargetRow {
  id: string;
  metric: string;
  target: string;
  reached: string;
  verdict: 'meets' | 'falls short' | 'partly' | 'not measured';
}

/** a / b as shown (two decimals); verdicts compare `exact`, so 0.503 x shows as 0.5 and falls short of 0.5. */
const ratio = (a: number | undefined, b: number | undefined) =>
  a !== undefined && b !== undefined && b > 0 ? Math.round((a / b) * 100) / 100 : undefined;
const exact = (a: number | undefined, b: number | undefined) =>
  a !== undefined && b !== undefined && b > 0 ? a / b : undefined;
const verdict = (ok: boolean | undefined): TargetRow['verdict'] =>
  ok === undefined ? 'not measured' : ok ? 'meets' : 'falls short';

function latencyRatio(
  r: Results,
  contender: string,
  limit: number,
  id: string,
  metric: string,
  target: string,
) {
  const pages = r.latency?.byPage ?? {};
  const parts: string[] = [];
  let ok: boolean | undefined;
  for (const [page, s] of Object.entries(pages)) {
    const x = ratio(s[contender]?.p50, s['bare-playwright']?.p50);
    const exactX = exact(s[contender]?.p50, s['bare-playwright']?.p50);
    if (x === undefined || exactX === undefined) continue;
    parts.push(
      `${page} ${x} x (${Math.round(s[contender]?.p50 ?? 0)} vs ${Math.round(s['bare-playwright']?.p50 ?? 0)} ms)`,
    );
    ok = (ok ?? true) && exactX <= limit;
  }
  const reached = parts.length ? parts.join('; ') : r.latency && !r.styledRoute ? 'not available yet' : '-';
  return { id, metric, target, reached, verdict: verdict(ok) };
}

/** Where a full page's time went, from the service's phases: its Chromium shot and its encode. */
function fullPageSplit(phases: Record<string, number> | undefined): string {
  if (phases?.capture === undefined || phases.encode === undefined) return '';
  return `; of the full page: Chromium's shot ${Math.round(phases.capture)} ms, encode ${Math.round(phases.encode)} ms`;
}

const composeLimit = (dpr: number) => (dpr >= 2 ? 400 : 120);

/**
 * P2 (and P10) hold for each compose mode: `meets` when every mode meets it in isolation (and,
 * for P2, every mode the service has wired meets it inside the service too); `partly` when only
 * some do.
 */
function composeVerdict(r: Results, look: string, withService: boolean): TargetRow['verdict'] {
  // P10 gives browser mode twice the budget of the default (raster) mode.
  const limit = (mode: string, dpr: number) =>
    composeLimit(dpr) * (look !== 'default' && mode === 'browser' ? 2 : 1);
  const checks = [
    ...(r.composeIsolated ?? [])
      .filter((c) => (c.look ?? 'default') === look)
      .map((c) => c.warm.p50 <= limit(c.mode, c.dpr)),
    ...(withService ? Object.entries(r.composeService ?? {}) : []).flatMap(([name, v]) =>
      'total' in v ? [v.total.p50 <= composeLimit(name.endsWith('dpr2') ? 2 : 1)] : [],
    ),
  ];
  if (checks.length === 0) return 'not measured';
  return checks.every(Boolean) ? 'meets' : checks.some(Boolean) ? 'partly' : 'falls short';
}

export function targets(r: Results): TargetRow[] {
  const rows: TargetRow[] = [];
  rows.push(
    latencyRatio(
      r,
      'vitrine-capture',
      0.5,
      'P1',
      'POST /v1/capture default look, p50',
      '≤ 0.5 x bare-playwright, every bench page',
    ),
  );
  rows.push(
    latencyRatio(
      r,
      'vitrine-raw',
      0.5,
      'P1r',
      'POST /v1/raw, p50',
      '≤ 0.5 x bare-playwright, every bench page',
    ),
  );

  const isolated = (look: string) =>
    (r.composeIsolated ?? [])
      .filter((c) => (c.look ?? 'default') === look)
      .map(
        (c) =>
          `${c.mode} dpr${c.dpr} ${c.warm.p50} ms${c.warmCpu ? ` (CPU ${Math.round(c.warmCpu.p50)} ms${c.mode === 'browser' ? ' in Node' : ''})` : ''} (${c.megapixels} MP)`,
      );
  const service = Object.entries(r.composeService ?? {}).map(([k, v]) =>
    'total' in v ? `${k} ${v.total.p50} ms` : `${k} not wired yet`,
  );
  rows.push({
    id: 'P2',
    metric: 'compose + encode of the default look, p50',
    target: '≤ 120 ms (dpr 1), ≤ 400 ms (dpr 2), each mode',
    reached: [
      isolated('default').length ? `in isolation: ${isolated('default').join(', ')}` : '',
      service.length ? `inside the service: ${service.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('; '),
    verdict: composeVerdict(r, 'default', true),
  });
  rows.push({
    id: 'P10',
    metric: 'compose + encode of strong tilt + lens blur (tilt-strong+lens), p50',
    target: 'default (raster) mode within P2; browser mode ≤ 2 x that (240 / 800 ms)',
    reached: isolated('tilt-strong+lens').length
      ? `in isolation: ${isolated('tilt-strong+lens').join(', ')}`
      : '-',
    verdict: composeVerdict(r, 'tilt-strong+lens', false),
  });

  const t = r.throughput ?? {};
  const styled = t['vitrine-capture'];
  const subject = styled ?? t['vitrine-raw'];
  const vsBare = ratio(subject?.perMinute, t['bare-playwright']?.perMinute);
  const vsCw = ratio(subject?.perMinute, t['capture-website']?.perMinute);
  // A contender whose requests failed ran below concurrency 4 (a failure answers at once): its
  // captures per minute compare with nothing.
  const failures = Object.entries(t)
    .filter(([, result]) => result.failed > 0)
    .map(([name, result]) => `${name} ${result.failed} failed`);
  rows.push({
    id: 'P3',
    metric: `${styled ? 'styled' : 'raw (styled not available yet)'} captures per minute, concurrency 4`,
    target: '≥ 2 x bare-playwright and ≥ 4 x capture-website',
    reached: subject
      ? `${subject.perMinute}/min: ${vsBare} x bare-playwright (${t['bare-playwright']?.perMinute}/min), ${vsCw} x capture-website (${t['capture-website']?.perMinute}/min)${failures.length > 0 ? `; not comparable: ${failures.join(', ')}` : ''}`
      : '-',
    verdict:
      failures.length > 0
        ? 'not measured'
        : verdict(
            subject && vsBare !== undefined && vsCw !== undefined
              ? (exact(subject.perMinute, t['bare-playwright']?.perMinute) ?? 0) >= 2 &&
                  (exact(subject.perMinute, t['capture-website']?.perMinute) ?? 0) >= 4
              : undefined,
          ),
  });

  const cached = r.cache?.cached['/v1/capture'] ?? r.cache?.cached['/v1/raw'];
  const cachedPath = r.cache?.cached['/v1/capture'] ? '/v1/capture' : '/v1/raw';
  rows.push({
    id: 'P4',
    metric: 'cached capture server time p50; CDN req/s',
    target: '≤ 5 ms; ≥ 2,000 req/s',
    reached: r.cache
      ? `${cachedPath} ${cached?.server.p50} ms (client ${cached?.client.p50} ms); CDN ${r.cache.cdn.perSecond} req/s`
      : '-',
    verdict: verdict(r.cache && cached ? cached.server.p50 <= 5 && r.cache.cdn.perSecond >= 2000 : undefined),
  });

  const m = r.memory;
  const pssRatio = ratio(m?.vitrine.peakPssMb, m?.bare.peakPssMb);
  rows.push({
    id: 'P5',
    metric: `peak PSS of the service tree at concurrency 4 vs bare-playwright's; PSS drift over ${m?.vitrine.captures ?? '-'} captures`,
    target: '≤ 0.8 x bare-playwright PSS; drift ≤ 10 % over 1,000',
    reached: m
      ? `${m.vitrine.peakPssMb} MB PSS (RSS ${m.vitrine.peakRssMb} MB) vs bare-playwright ${m.bare.peakPssMb} MB PSS (RSS ${m.bare.peakRssMb} MB): ${pssRatio} x; drift ${m.driftPercent} % over ${m.vitrine.captures} captures${m.vitrine.captures < 1000 ? ' (fewer than 1,000: drift not conclusive)' : ''}`
      : '-',
    verdict: m
      ? pssRatio !== undefined &&
        (exact(m.vitrine.peakPssMb, m.bare.peakPssMb) ?? 1) <= 0.8 &&
        Math.abs(m.driftPercent) <= 10
        ? m.vitrine.captures >= 1000
          ? 'meets'
          : 'partly'
        : 'falls short'
      : 'not measured',
  });

  const starts = (r.start ?? []).map((s) => s.firstCaptureMs).sort((a, b) => a - b);
  const startP50 = starts[Math.floor((starts.length - 1) / 2)];
  rows.push({
    id: 'P6',
    metric: '`make start` to first successful capture, median',
    target: '≤ 3 s',
    reached: startP50 !== undefined ? `${startP50} ms (runs: ${starts.join(', ')} ms)` : '-',
    verdict: verdict(startP50 !== undefined ? startP50 <= 3000 : undefined),
  });

  const f = r.fullPage ?? {};
  const full = f['vitrine-raw full_page']?.p50;
  const bareFull = f['bare-playwright fullPage']?.p50;
  const x = ratio(full, bareFull);
  const viewportX = ratio(full, f['vitrine-raw viewport']?.p50);
  rows.push({
    id: 'P7',
    metric: "full page of a 10,000 px page vs bare-playwright's full page, p50",
    target: "≤ 0.5 x bare-playwright's full page",
    reached:
      x !== undefined
        ? `${x} x (${Math.round(full ?? 0)} vs ${Math.round(bareFull ?? 0)} ms${fullPageSplit(r.fullPagePhases?.['vitrine-raw full_page'])}); ${viewportX} x Vitrine's own viewport capture`
        : '-',
    verdict: verdict(x !== undefined ? (exact(full, bareFull) ?? 1) <= 0.5 : undefined),
  });

  const cpuParts: string[] = [];
  let cpuOk: boolean | undefined;
  for (const [page, cpu] of Object.entries(r.cpu ?? {})) {
    const bareCpu = cpu['bare-playwright']?.cpuMs.total;
    const styledCpu = ratio(cpu['vitrine-capture']?.cpuMs.total, bareCpu);
    const rawCpu = ratio(cpu['vitrine-raw']?.cpuMs.total, bareCpu);
    if (styledCpu === undefined || rawCpu === undefined) continue;
    cpuParts.push(
      `${page}: styled ${cpu['vitrine-capture']?.cpuMs.total} ms (${styledCpu} x), raw ${cpu['vitrine-raw']?.cpuMs.total} ms (${rawCpu} x), bare-playwright ${bareCpu} ms`,
    );
    cpuOk =
      (cpuOk ?? true) &&
      (exact(cpu['vitrine-capture']?.cpuMs.total, bareCpu) ?? 1) <= 0.5 &&
      (exact(cpu['vitrine-raw']?.cpuMs.total, bareCpu) ?? 1) <= 0.5;
  }
  rows.push({
    id: 'P8',
    metric:
      'CPU per capture of the whole tree (Node, egress proxy, Chromium), back-to-back, every bench page',
    target: 'styled ≤ 0.5 x bare-playwright; raw ≤ 0.5 x',
    reached: cpuParts.length ? cpuParts.join('; ') : '-',
    verdict: verdict(cpuOk),
  });
  const pv = r.preview;
  rows.push({
    id: 'P9',
    metric: 'a style change of an already captured page (capture-level cache), client p50',
    target: '≤ 300 ms p50; no navigation',
    reached: pv
      ? `${pv.client.p50} ms (server ${pv.server.p50} ms); ${pv.navigations} of ${pv.rounds} navigated`
      : '-',
    verdict: verdict(pv ? pv.client.p50 <= 300 && pv.navigations === 0 : undefined),
  });
  const ec = r.elementCost;
  // The resolver's own time on the largest page measured (the heavy page's body 40 times): what it
  // adds to a capture of a page that large, whatever the waits.
  const large = r.element?.find((e) => e.page === 'heavy x40' && e.outcome !== '422');
  rows.push({
    id: 'P12',
    metric:
      'element resolution: added to the same capture of the heavy page with a CSS selector (waits and search phases), and the resolver alone on the heavy page x40, p50',
    target: '≤ 150 ms p50 (both)',
    reached: ec
      ? `${ec.addedP50 >= 0 ? '+' : ''}${ec.addedP50} ms (waits + search ${Math.round(ec.elementWaitsAndSearch.p50)} vs the selector capture's waits ${Math.round(ec.selectorWaits.p50)} ms; whole captures ${Math.round(ec.withElement.p50)} vs ${Math.round(ec.withSelector.p50)} ms)${large ? `; resolver alone on heavy x40 (${large.candidates} candidates) ${Math.round(large.resolve.p50)} ms` : ''}`
      : '-',
    verdict: verdict(
      ec ? ec.addedP50 <= 150 && (large === undefined || large.resolve.p50 <= 150) : undefined,
    ),
  });
  const mo = r.motion;
  rows.push({
    id: 'P11',
    metric:
      'motion: 6 s, 30 fps, 1920x1080 scroll video of the long page in macbook-pro-16, end to end (POST, async false), p50',
    target: '≤ 9 s (1.5x its duration)',
    reached: mo
      ? `${(mo.mp4.wallMs.p50 / 1000).toFixed(1)} s (compose stage ${Math.round(mo.mp4.composeFps.p50)} fps; CPU of the service and ffmpeg ${mo.mp4.cpuSeconds.p50.toFixed(1)} s; peak ${mo.mp4.peakMb} MB, ${mo.mp4.baselineMb} MB before); 800 px GIF ${(mo.gif.wallMs.p50 / 1000).toFixed(1)} s, ${Math.round(mo.gif.bytes / 1024)} KB`
      : '-',
    verdict: verdict(mo ? mo.mp4.wallMs.p50 <= 9000 : undefined),
  });
  rows.sort((a, b) => Number(a.id.slice(1).replace('r', '.5')) - Number(b.id.slice(1).replace('r', '.5')));
  return rows;
}
