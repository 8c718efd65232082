/**
 * Side-by-side p50 of a warm pooled capture and of bare Playwright (newContext + newPage + goto +
 * page.screenshot) on the same fixture page at 1280x800, same Chromium, same run. Not a test:
 * `node test/capture/measure-warm-capture.ts [rounds]`.
 */
import { capture } from '../../packages/server/src/browser/capture-page.ts';
import { launchTestChromium, pageOptions, testPool } from '../support/capture-test-kit.ts';
import { startFixtureServer } from '../support/fixture-server.ts';

const rounds = Number(process.argv[2] ?? 25);
const server = await startFixtureServer();
const url = `${server.origin}/capture/simple.html`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const browser = await launchTestChromium(['--disable-gpu']);
const pool = testPool({ concurrency: 1 });
try {
  const bare = async () => {
    const started = performance.now();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await page.screenshot({ type: 'png' });
    const ms = performance.now() - started;
    await context.close();
    return ms;
  };
  const options = pageOptions(url, { viewport: { width: 1280, height: 800 } });
  const pooled = async () => {
    const started = performance.now();
    const shot = await capture(pool, options, { navigationTimeoutMs: 30_000 });
    return { ms: performance.now() - started, timings: shot.timings };
  };
  for (let i = 0; i < 3; i += 1) {
    await bare();
    await pooled();
  }
  const bareMs: number[] = [];
  const poolMs: number[] = [];
  const phases: Record<string, number[]> = {};
  for (let i = 0; i < rounds; i += 1) {
    bareMs.push(await bare());
    // Let the pool prepare its next page, as it would between requests.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { ms, timings } = await pooled();
    poolMs.push(ms);
    for (const [k, v] of Object.entries(timings)) phases[k] = [...(phases[k] ?? []), v];
  }
  const phaseText = Object.entries(phases)
    .map(([k, v]) => `${k} ${median(v)}`)
    .join(', ');
  console.log(
    `bare-playwright p50 ${median(bareMs).toFixed(0)} ms; pooled capture p50 ${median(poolMs).toFixed(0)} ms`,
  );
  console.log(`ratio ${(median(poolMs) / median(bareMs)).toFixed(2)}; pooled phases p50: ${phaseText}`);
} finally {
  await pool.close();
  await browser.close();
  await server.close();
}
