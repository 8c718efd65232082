/**
 * Where a capture's CPU goes, variant against variant (issue 42): services started by
 * `make start`, each with its own environment, measured side by side on the same pages with
 * bench/cpu.ts's back-to-back run (rounds rotated, so the machine's load hits all alike), the
 * CPU of each tree per process class from /proc. On a loaded machine CPU time per capture is
 * steadier than wall time; compare variants of one run only.
 *
 *   node bench/service-cpu.ts '<variants>' [pages] [captures] [rounds] [route]
 *
 * variants: JSON object of name -> extra environment, e.g.
 *   '{"chromium":{},"shell":{"VITRINE_CHROMIUM_PATH":"/usr/lib/chromium/chromium-headless-shell"}}'
 * pages: comma-separated bench page names (default dashboard,marketing); captures per round
 * (default 20); rounds (default 2); route raw or capture (default raw).
 * A variant whose environment sets VITRINE_NODE_FLAGS with `--cpu-prof --cpu-prof-dir=DIR` leaves
 * the service Node's profile in DIR when it stops (read it with bench/profile-summary.ts).
 * Each variant's raw capture of each page is compared with the first variant's (pixels).
 */
import sharp from 'sharp';
import { startFixtureServer, TEMPLATES_PATH } from '../test/support/fixture-server.ts';
import { cpuSection } from './cpu.ts';
import { postCapture, type SpawnedService, startWithMake } from './spawned-service.ts';

const variants = JSON.parse(process.argv[2] ?? '{"default":{}}') as Record<string, Record<string, string>>;
const pageNames = (process.argv[3] ?? 'dashboard,marketing').split(',');
const captures = Number(process.argv[4] ?? 20);
const rounds = Number(process.argv[5] ?? 2);
const route = process.argv[6] === 'capture' ? '/v1/capture' : '/v1/raw';

const fixtures = await startFixtureServer();
const urls: Record<string, string> = {
  simple: `${fixtures.origin}/bench/simple.html`,
  heavy: `${fixtures.origin}/bench/heavy.html`,
  long: `${fixtures.origin}/bench/long.html`,
  dashboard: `${fixtures.origin}${TEMPLATES_PATH}startbootstrap-sb-admin-2/index.html`,
  marketing: `${fixtures.origin}${TEMPLATES_PATH}startbootstrap-agency/index.html`,
};
const services: Record<string, SpawnedService> = {};
try {
  for (const [name, env] of Object.entries(variants)) {
    services[name] = await startWithMake(urls.simple as string, env);
    console.log(`${name}: service ${services[name].servicePid} started`);
  }
  const image = async (s: SpawnedService, url: string) => {
    const answer = (await (await postCapture(s.baseUrl, s.key, '/v1/raw', url)).json()) as { url: string };
    const png = new Uint8Array(await (await fetch(new URL(answer.url, s.baseUrl))).arrayBuffer());
    return sharp(png).ensureAlpha().raw().toBuffer();
  };
  for (const page of pageNames) {
    const url = urls[page];
    if (!url) throw new Error(`unknown page ${page}`);
    const result = await cpuSection(
      Object.fromEntries(
        Object.entries(services).map(([name, s]) => [
          name,
          { roots: [s.servicePid], capture: () => postCapture(s.baseUrl, s.key, route, url) },
        ]),
      ),
      captures,
      rounds,
    );
    console.log(`${page} ${route}, ${captures} x ${rounds} back-to-back captures per variant:`);
    console.table(
      Object.fromEntries(
        Object.entries(result).map(([k, v]) => [
          k,
          { 'wall p50': v.wall.p50, ...v.cpuMs, 'per round': v.perRound.join(', ') },
        ]),
      ),
    );
    const [first, ...others] = Object.entries(services);
    if (!first) continue;
    const reference = await image(first[1], url);
    for (const [name, s] of others) {
      const other = await image(s, url);
      let differing = 0;
      for (let i = 0; i < reference.length; i += 4) {
        let d = 0;
        for (let c = 0; c < 4; c += 1)
          d = Math.max(d, Math.abs((reference[i + c] as number) - (other[i + c] as number)));
        if (d > 0) differing += 1;
      }
      console.log(
        `  pixels ${page}: ${name} against ${first[0]}: ${reference.length === other.length ? `${differing} pixels differ` : 'size differs'}`,
      );
    }
  }
} finally {
  await Promise.allSettled(Object.values(services).map((s) => s.stop()));
  await fixtures.close();
}
