/**
 * How long every catalogue asset takes to render at 2560x1600 in its served format, grouped by
 * generator and subtype, with the share resvg takes. Run on its own:
 * `node bench/background-render-times.ts [pack-prefix]`. The machine may be shared, so an asset
 * much slower than its group's median is measured again and its fastest run kept.
 */
import { renderAsync } from '@resvg/resvg-js';
import { planBackground } from '../packages/server/src/backgrounds/background-config.ts';
import { BACKGROUND_CATALOGUE, type BackgroundAsset } from '../packages/server/src/backgrounds/catalogue.ts';
import { renderBackground } from '../packages/server/src/backgrounds/render-background.ts';

interface Timing {
  asset: BackgroundAsset;
  group: string;
  resvgMs: number;
  totalMs: number;
  bytes: number;
}

const WIDTH = 2560;
const HEIGHT = 1600;

async function measure(asset: BackgroundAsset): Promise<Omit<Timing, 'asset' | 'group'>> {
  const plan = planBackground(asset.config, { width: WIDTH, height: HEIGHT, scale: 1 });
  let started = performance.now();
  await renderAsync(plan.svg, {
    fitTo: { mode: 'original' },
    font: { loadSystemFonts: false },
    background: '#000000',
  });
  const resvgMs = performance.now() - started;
  started = performance.now();
  const rendered = await renderBackground(asset, { width: WIDTH, height: HEIGHT, format: asset.format });
  return { resvgMs, totalMs: performance.now() - started, bytes: rendered.data.length };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const prefix = process.argv[2] ?? '';
const wallStarted = performance.now();
const timings: Timing[] = [];
for (const asset of BACKGROUND_CATALOGUE.assets) {
  if (!asset.background.startsWith(prefix)) continue;
  const plan = planBackground(asset.config, { width: 16, height: 10, scale: 1 });
  const group = `${asset.type}/${asset.subtype} ${asset.format}${plan.grain ? '+grain' : ''}`;
  timings.push({ asset, group, ...(await measure(asset)) });
}

const groups = Map.groupBy(timings, (t) => t.group);
let remeasured = 0;
for (const members of groups.values()) {
  const typical = median(members.map((t) => t.totalMs));
  for (const t of members) {
    if (t.totalMs <= typical * 2) continue;
    const again = await measure(t.asset);
    remeasured++;
    if (again.totalMs < t.totalMs) Object.assign(t, again);
  }
}

const round = (v: number) => String(Math.round(v));
console.log(['group'.padEnd(42), 'n', 'sum ms', 'mean ms', 'resvg ms', 'max ms', 'mean KB'].join('\t'));
const rows = [...groups].sort(
  ([, a], [, b]) => b.reduce((s, t) => s + t.totalMs, 0) - a.reduce((s, t) => s + t.totalMs, 0),
);
for (const [group, members] of rows) {
  const sum = (pick: (t: Timing) => number) => members.reduce((s, t) => s + pick(t), 0);
  console.log(
    [
      group.padEnd(42),
      members.length,
      round(sum((t) => t.totalMs)),
      round(sum((t) => t.totalMs) / members.length),
      round(sum((t) => t.resvgMs) / members.length),
      round(Math.max(...members.map((t) => t.totalMs))),
      round(sum((t) => t.bytes) / members.length / 1024),
    ].join('\t'),
  );
}
const total = timings.reduce((s, t) => s + t.totalMs, 0);
console.log(
  `${timings.length} assets: ${round(total)} ms rendering (${remeasured} re-measured), ${round(performance.now() - wallStarted)} ms wall with the separate resvg timings`,
);
