import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CHROMIUM_EGRESS_CONTEXT_OPTIONS,
  chromiumEgressLaunchOptions,
} from '../../packages/server/src/netpolicy/chromium-egress.ts';
import { type Dialer, dialTcp } from '../../packages/server/src/netpolicy/egress-dialer.ts';
import {
  EGRESS_VERDICT_HEADER,
  type EgressLogger,
  type EgressProxy,
  startEgressProxy,
} from '../../packages/server/src/netpolicy/egress-proxy.ts';
import { createTargetPolicy } from '../../packages/server/src/netpolicy/target-policy.ts';
import { TEST_CHROMIUM_PATH } from '../support/capture-test-kit.ts';
import {
  FIXTURE_HOST,
  type RunningServer,
  startCanary,
  startFixtureServer,
} from '../support/fixture-server.ts';

let fixture: RunningServer;
let canary: RunningServer;
let proxy: EgressProxy;
let browser: Browser;
const decisions: { verdict: string; host: unknown; port: unknown; kind: unknown }[] = [];

const logger: EgressLogger = {
  debug: (fields) =>
    decisions.push({ verdict: 'allowed', host: fields.host, port: fields.port, kind: fields.kind }),
  warn: (fields) =>
    decisions.push({
      verdict: String(fields.verdict),
      host: fields.host,
      port: fields.port,
      kind: fields.kind,
    }),
};

/** Refusals of connections to the canary's port: proof an attempt reached the proxy and stopped. */
function canaryDenials(): number {
  return decisions.filter((d) => d.verdict === 'denied' && d.port === canary.port).length;
}

async function expectCanaryDenials(atLeast = 1): Promise<void> {
  await expect.poll(canaryDenials, { timeout: 15_000 }).toBeGreaterThanOrEqual(atLeast);
}

/** The attack page's `__result`, polled with room for a loaded CI machine (the default is 1 s). */
function pollPageResult(target: Page) {
  return expect.poll(() => target.evaluate(() => (window as unknown as { __result: string }).__result), {
    timeout: 15_000,
  });
}

function attackUrl(attack: string): string {
  const target = encodeURIComponent(canary.origin);
  return `${fixture.origin}/ssrf/attack.html?attack=${attack}&target=${target}`;
}

beforeAll(async () => {
  fixture = await startFixtureServer();
  canary = await startCanary();
  fixture.route('/ssrf/redirect-canary', (_req, res) => {
    res.writeHead(302, { location: `${canary.origin}/redirected` }).end();
  });
  fixture.route('/ssrf/redirect-mapped', (_req, res) => {
    res.writeHead(302, { location: `http://[::ffff:127.0.0.1]:${canary.port}/mapped` }).end();
  });
  fixture.route('/ssrf/redirect-chain', (_req, res) => {
    res.writeHead(302, { location: `${fixture.origin}/ssrf/redirect-canary` }).end();
  });
  // Tests never leave loopback: no real DNS (Chromium's own background hosts would be looked up),
  // and a dialer that refuses anything outside 127.0.0.0/8 even if the policy were broken.
  const policy = createTargetPolicy({
    allowTargets: [FIXTURE_HOST],
    allowedPorts: [80, 443],
    resolver: {
      resolve: async () => Promise.reject(Object.assign(new Error('no DNS in tests'), { code: 'ENOTFOUND' })),
    },
  });
  const dial: Dialer = (target, signal) =>
    target.address.startsWith('127.')
      ? dialTcp(target, signal)
      : Promise.reject(new Error(`test dialer refuses ${target.address}`));
  proxy = await startEgressProxy({ policy, logger, dial });
  const egress = chromiumEgressLaunchOptions(proxy.url);
  browser = await chromium.launch({
    executablePath: TEST_CHROMIUM_PATH,
    headless: true,
    ...egress,
    args: [...egress.args, '--no-sandbox', '--disable-gpu'],
  });
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await fixture?.close();
  await canary?.close();
});

describe('Chromium through the egress proxy', () => {
  let context: BrowserContext;
  let page: Page;

  beforeEach(async () => {
    context = await browser.newContext({ ...CHROMIUM_EGRESS_CONTEXT_OPTIONS });
    page = await context.newPage();
  });

  afterEach(async () => {
    await context.close();
    expect(canary.hits).toEqual([]);
  });

  it('refuses direct navigation to the canary, in every spelling', async () => {
    for (const url of [
      canary.origin,
      `http://127.1:${canary.port}/`,
      `http://localhost:${canary.port}/`,
      `http://[::ffff:127.0.0.1]:${canary.port}/`,
      `http://2130706433:${canary.port}/`,
    ]) {
      const response = await page.goto(url);
      expect(response?.status(), url).toBe(403);
      expect(response?.headers()[EGRESS_VERDICT_HEADER]).toBe('denied');
    }
    expect(canaryDenials()).toBeGreaterThanOrEqual(5);
  });

  it.each([
    ['a 302 to the canary', '/ssrf/redirect-canary'],
    ['a redirect chain ending at the canary', '/ssrf/redirect-chain'],
    ['a 302 to [::ffff:127.0.0.1]', '/ssrf/redirect-mapped'],
  ])('refuses %s', async (_name, path) => {
    const before = canaryDenials();
    const response = await page.goto(`${fixture.origin}${path}`);
    expect(response?.status()).toBe(403);
    expect(response?.headers()[EGRESS_VERDICT_HEADER]).toBe('denied');
    expect(canaryDenials()).toBeGreaterThan(before);
  });

  it.each([
    'img',
    'iframe',
    'script',
    'css',
    'fetch',
    'xhr',
    'beacon',
    'websocket',
    'worker-websocket',
    'worker-fetch',
    'meta-refresh',
    'location',
    'form',
  ])('refuses the canary from a page: %s', async (attack) => {
    const before = canaryDenials();
    await page.goto(attackUrl(attack));
    await expectCanaryDenials(before + 1);
  });

  it('blocks service worker registration', async () => {
    await page.goto(attackUrl('service-worker'));
    await pollPageResult(page).not.toBe('pending');
    const registrations = await page.evaluate(
      async () => (await navigator.serviceWorker.getRegistrations()).length,
    );
    expect(registrations).toBe(0);
    expect(context.serviceWorkers()).toEqual([]);
    expect(fixture.hits.filter((hit) => hit.startsWith('/ssrf/attack-sw.js'))).toEqual([]);
  });

  it('refuses the canary from a service worker when one is allowed to run', async () => {
    const unguarded = await browser.newContext({ serviceWorkers: 'allow' });
    try {
      const before = canaryDenials();
      const swPage = await unguarded.newPage();
      await swPage.goto(attackUrl('service-worker'));
      await pollPageResult(swPage).toBe('registered');
      await expectCanaryDenials(before + 1);
    } finally {
      await unguarded.close();
    }
  });

  it('refuses popups opened by a link and by window.open', async () => {
    const before = canaryDenials();
    await page.goto(attackUrl('popup'));
    await pollPageResult(page).toBe('armed');
    await page.click('#popup-link');
    await page.click('#popup-button');
    await expectCanaryDenials(before + 2);
  });

  it('still renders a normal page with all its subresources', async () => {
    const allowedBefore = decisions.filter((d) => d.verdict === 'allowed').length;
    const response = await page.goto(`${fixture.origin}/ssrf/rich.html`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    const state = await page.evaluate(async () => {
      await document.fonts.ready;
      const images = [...document.images].map((img) => img.complete && img.naturalWidth > 0);
      const styled = document.getElementById('styled');
      return {
        images,
        font: document.fonts.check('16px FixtureFont'),
        color: styled ? getComputedStyle(styled).color : '',
        script: (window as unknown as { __scriptRan?: boolean }).__scriptRan === true,
      };
    });
    expect(state).toEqual({ images: [true, true, true], font: true, color: 'rgb(1, 2, 3)', script: true });
    const frame = page.frames().find((f) => f.url().endsWith('/ssrf/rich-frame.html'));
    expect(await frame?.evaluate(() => document.images[0]?.naturalWidth)).toBe(48);
    for (const asset of [
      'rich.css',
      'rich.js',
      'fixture-font.woff2',
      'tile-1.png',
      'tile-4.png',
      'rich-frame.html',
    ]) {
      expect(fixture.hits).toContain(`/ssrf/${asset}`);
    }
    expect(decisions.filter((d) => d.verdict === 'allowed').length).toBeGreaterThan(allowedBefore);
    expect(decisions.filter((d) => d.verdict !== 'allowed' && d.port === fixture.port)).toEqual([]);
  });
});
