/**
 * Summary of a V8 CPU profile (`node --cpu-prof`, e.g. the service's under bench/service-cpu.ts):
 * self time by source file (node_modules packages as one entry each) and by V8's own entries
 * (garbage collector, program), idle left out, with each entry's share of the busy time.
 *
 *   node bench/profile-summary.ts <file.cpuprofile> [top]
 */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (!file) {
  console.error('usage: node bench/profile-summary.ts <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number(process.argv[3] ?? 25);
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));

/** The entry a sample's self time is counted under. */
function entryOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) return `(${functionName || 'anonymous'})`.replace(/^\(\((.*)\)\)$/, '($1)');
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return `npm:${modules[1]}`;
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\//, '').replace(/^.*\/packages\//, 'packages/');
}

const self = new Map<string, number>();
let busy = 0;
profile.samples.forEach((id, i) => {
  const node = byId.get(id);
  const dt = (profile.timeDeltas[i] ?? 0) / 1000;
  if (!node || node.callFrame.functionName === '(idle)') return;
  busy += dt;
  const key = entryOf(node);
  self.set(key, (self.get(key) ?? 0) + dt);
});
console.log(`busy ${Math.round(busy)} ms in ${file}`);
for (const [key, ms] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(
    `${String(Math.round(ms)).padStart(7)} ms ${((ms / busy) * 100).toFixed(1).padStart(5)} %  ${key}`,
  );
