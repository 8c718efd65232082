/**
 * What the egress proxy hop costs a page load (issue 42): one Chromium straight to the fixture
 * server, one through the service's egress proxy (netpolicy/egress-proxy.ts, run in a Node process
 * of its own here so its CPU can be read from /proc), each loading the bench pages in a fresh
 * context per load (goto `load`, then close), rounds alternated. Prints the CPU per load of each
 * Chromium tree and of the proxy's process.
 *
 *   node bench/egress-cost.ts [pages] [loads] [rounds]
 */
import { fork } from 'node:child_process';
import { launchBrowserProcess } from '../packages/server/src/browser/browser-process.ts';
import { chromiumEgressLaunchOptions } from '../packages/server/src/netpolicy/chromium-egress.ts';
import { startEgressProxy } from '../packages/server/src/netpolicy/egress-proxy.ts';
import { createTargetPolicy } from '../packages/server/src/netpolicy/target-policy.ts';
import { FIXTURE_HOST, startFixtureServer, TEMPLATES_PATH } from '../test/support/fixture-server.ts';
import { VITRINE_CHROMIUM_PATH } from './baselines.ts';
import { stats } from './measure.ts';
import { CPU_CLASSES, cpuSampler } from './process-cpu.ts';

if (process.argv[2] === '--proxy-child') {
  const proxy = await startEgressProxy({
    policy: createTargetPolicy({ allowTargets: [FIXTURE_HOST], allowedPorts: [] }),
  });
  process.send?.({ url: proxy.url });
  process.on('message', () => void proxy.close().then(() => process.exit(0)));
} else {
  const pageNames = (process.argv[2] ?? 'dashboard,marketing,simple').split(',');
  const loads = Number(process.argv[3] ?? 15);
  const rounds = Number(process.argv[4] ?? 2);
  const fixtures = await startFixtureServer();
  const urls: Record<string, string> = {
    simple: `${fixtures.origin}/bench/simple.html`,
    heavy: `${fixtures.origin}/bench/heavy.html`,
    dashboard: `${fixtures.origin}${TEMPLATES_PATH}startbootstrap-sb-admin-2/index.html`,
    marketing: `${fixtures.origin}${TEMPLATES_PATH}startbootstrap-agency/index.html`,
  };
  const child = fork(import.meta.filename, ['--proxy-child'], {
    execArgv: process.env.PROXY_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROXY_PROF}`] : [],
  });
  const proxyUrl = await new Promise<string>((resolve) =>
    child.once('message', (m: { url: string }) => resolve(m.url)),
  );
  const egress = chromiumEgressLaunchOptions(proxyUrl);
  const direct = await launchBrowserProcess({ executablePath: VITRINE_CHROMIUM_PATH });
  const proxied = await launchBrowserProcess({
    executablePath: VITRINE_CHROMIUM_PATH,
    args: egress.args,
    proxy: egress.proxy,
  });
  const variants = { direct, proxied };
  const total = (byClass: Record<string, number>) => CPU_CLASSES.reduce((s, k) => s + (byClass[k] ?? 0), 0);
  try {
    for (const name of pageNames) {
      const url = urls[name] as string;
      const acc: Record<string, { chromium: number; proxy: number; n: number; loadMs: number[] }> = {};
      for (let round = 0; round < rounds; round += 1) {
        const order = round % 2 === 0 ? (['direct', 'proxied'] as const) : (['proxied', 'direct'] as const);
        for (const v of order) {
          const browser = variants[v].browser;
          acc[v] ??= { chromium: 0, proxy: 0, n: 0, loadMs: [] };
          const a = acc[v];
          const load = async (timed: boolean) => {
            const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
            const page = await context.newPage();
            const started = performance.now();
            await page.goto(url, { waitUntil: 'load' });
            if (timed) a.loadMs.push(performance.now() - started);
            await context.close();
          };
          await load(false);
          const chromium = cpuSampler([variants[v].pid as number]);
          const proxy = cpuSampler([child.pid as number]);
          for (let i = 0; i < loads; i += 1) await load(true);
          await new Promise((r) => setTimeout(r, 300));
          a.chromium += total(chromium.stop().byClass);
          a.proxy += total(proxy.stop().byClass);
          a.n += loads;
        }
      }
      for (const [v, a] of Object.entries(acc))
        console.log(
          `${name} ${v}: load p50 ${Math.round(stats(a.loadMs).p50)} ms; Chromium tree ${Math.round(a.chromium / a.n)} ms, egress proxy ${Math.round(a.proxy / a.n)} ms CPU per load (${a.n} loads)`,
        );
    }
  } finally {
    await Promise.allSettled([direct.close(5000), proxied.close(5000)]);
    child.send('close');
    await new Promise((r) => child.once('exit', r));
    await fixtures.close();
  }
}
