import type { Results } from './report.ts';

/** One row of the targets table of performance.md: the figure reached and the verdict. */
export interface TargetRow {
  id: string;
  metric: string;
  target: string;
  reached: string;
  verdict: 'meets' | 'falls short' | 'partly' | 'not measured';
}

const ratio = (a: number | undefined, b: number | undefined) =>
  a !== undefined && b !== undefined && b > 0 ? Math.round((a / b) * 100) / 100 : undefined;
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
    if (x === undefined) continue;
    parts.push(
      `${page} ${x} x (${Math.round(s[contender]?.p50 ?? 0)} vs ${Math.round(s['bare-playwright']?.p50 ?? 0)} ms)`,
    );
    ok = (ok ?? true) && x <= limit;
  }
  const reached = parts.length ? parts.join('; ') : r.latency && !r.styledRoute ? 'not available yet' : '-';
  return { id, metric, target, reached, verdict: verdict(ok) };
}

const composeLimit = (dpr: number) => (dpr >= 2 ? 400 : 120);

/**
 * P2 holds for each compose mode: `meets` when every mode meets it in isolation and every mode
 * the service has wired meets it inside the service too; `partly` when only some do.
 */
function composeVerdict(r: Results): TargetRow['verdict'] {
  const checks = [
    ...(r.composeIsolated ?? []).map((c) => c.warm.p50 <= composeLimit(c.dpr)),
    ...Object.entries(r.composeService ?? {}).flatMap(([name, v]) =>
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
      1.0,
      'P1',
      'POST /v1/capture default look, p50',
      '≤ 1.0 x bare-playwright',
    ),
  );
  rows.push(latencyRatio(r, 'vitrine-raw', 0.6, 'P1r', 'POST /v1/raw, p50', '≤ 0.6 x bare-playwright'));

  const isolated = (r.composeIsolated ?? []).map(
    (c) => `${c.look ?? 'default'} ${c.mode} dpr${c.dpr} ${c.warm.p50} ms (${c.megapixels} MP)`,
  );
  const service = Object.entries(r.composeService ?? {}).map(([k, v]) =>
    'total' in v ? `${k} ${v.total.p50} ms` : `${k} not wired yet`,
  );
  rows.push({
    id: 'P2',
    metric: 'compose + encode, default look and strong tilt + lens blur, p50',
    target: '≤ 120 ms (dpr 1), ≤ 400 ms (dpr 2), each mode',
    reached: [
      isolated.length ? `in isolation: ${isolated.join(', ')}` : '',
      service.length ? `inside the service: ${service.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('; '),
    verdict: composeVerdict(r),
  });

  const t = r.throughput ?? {};
  const styled = t['vitrine-capture'];
  const subject = styled ?? t['vitrine-raw'];
  const vsBare = ratio(subject?.perMinute, t['bare-playwright']?.perMinute);
  const vsCw = ratio(subject?.perMinute, t['capture-website']?.perMinute);
  rows.push({
    id: 'P3',
    metric: `${styled ? 'styled' : 'raw (styled not available yet)'} captures per minute, concurrency 4`,
    target: '≥ 1.0 x bare-playwright and ≥ 3 x capture-website',
    reached: subject
      ? `${subject.perMinute}/min: ${vsBare} x bare-playwright (${t['bare-playwright']?.perMinute}/min), ${vsCw} x capture-website (${t['capture-website']?.perMinute}/min)`
      : '-',
    verdict: verdict(
      subject && vsBare !== undefined && vsCw !== undefined ? vsBare >= 1 && vsCw >= 3 : undefined,
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
  rows.push({
    id: 'P5',
    metric: `peak RSS service + Chromium, concurrency 4; drift over ${m?.captures ?? '-'} captures`,
    target: '≤ 1.5 GB; drift ≤ 10 % over 1,000',
    reached: m ? `${m.peakRssMb} MB RSS (PSS ${m.peakPssMb} MB); drift ${m.driftPercent} %` : '-',
    verdict: verdict(m ? m.peakRssMb <= 1536 && Math.abs(m.driftPercent) <= 10 : undefined),
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
  const x = ratio(f['vitrine-raw full_page']?.p50, f['vitrine-raw viewport']?.p50);
  const bx = ratio(f['bare-playwright fullPage']?.p50, f['bare-playwright viewport']?.p50);
  rows.push({
    id: 'P7',
    metric: 'full page of a 10,000 px page vs viewport, p50',
    target: '≤ 3 x viewport',
    reached:
      x !== undefined
        ? `${x} x (${Math.round(f['vitrine-raw full_page']?.p50 ?? 0)} vs ${Math.round(f['vitrine-raw viewport']?.p50 ?? 0)} ms); bare-playwright ${bx} x`
        : '-',
    verdict: verdict(x !== undefined ? x <= 3 : undefined),
  });
  return rows;
}
