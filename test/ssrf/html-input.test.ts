import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startCanary, startFixtureServer } from '../support/fixture-server.ts';
import { loopbackDialer, noDnsResolver } from '../support/loopback-dialer.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

/**
 * Issue 40's held-out security cases for the new surfaces: an `html` document (served inside
 * the browser) reaching for local files, loopback, the metadata address and private addresses,
 * directly, through a redirect, a meta refresh or a WebSocket; and headers that try to smuggle a
 * Host or hop-by-hop values. Every connection stays on loopback (security.md 1.8): the egress
 * proxy's dialer refuses anything outside 127.0.0.0/8 and records what it was asked for, no name
 * is looked up, and the canary on 127.0.0.1 must never be hit. Private and link-local addresses
 * are refused by the proxy's classification, before any dial.
 */
describe('html input and headers against the network policy', () => {
  let t: TestApp;
  let fixtures: RunningServer;
  let canary: RunningServer;
  let owner: TestKey;
  const egress = loopbackDialer();
  /** The egress proxy's refusals, as it logs them: host and port of each connection it refused. */
  const denials: { host: string; port: number }[] = [];
  const logger = pino(
    { level: 'warn' },
    {
      write(line: string) {
        const entry = JSON.parse(line) as {
          component?: string;
          verdict?: string;
          host: string;
          port: number;
        };
        if (entry.component === 'egress' && entry.verdict === 'denied') denials.push(entry);
      },
    },
  );
  const deniedHosts = (since: number) => new Set(denials.slice(since).map((d) => `${d.host}:${d.port}`));

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    canary = await startCanary();
    fixtures.route('/to-canary', (_req, res) => {
      res.writeHead(302, { location: `${canary.origin}/redirected` }).end();
    });
    fixtures.route('/to-private', (_req, res) => {
      res.writeHead(302, { location: 'http://10.0.0.7/admin' }).end();
    });
    fixtures.route('/to-metadata', (_req, res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    });
    t = await startTestApp('sqlite', {
      env: { VITRINE_ALLOW_TARGETS: fixtures.host, VITRINE_NAVIGATION_TIMEOUT_MS: '30000' },
      appOptions: { egressDialer: egress.dial, resolver: noDnsResolver, logger },
    });
    owner = await t.createKey({ credits: 200 });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await fixtures?.close();
    await canary?.close();
  });

  /** Every dial went to the fixture host; nothing else was even attempted past the policy. */
  function expectOnlyFixtureDialled() {
    expect(egress.dialled.filter((target) => target.address !== fixtures.host)).toEqual([]);
    expect(canary.hits).toEqual([]);
  }

  const capture = (json: Record<string, unknown>) =>
    t.request('POST', '/v1/raw', {
      key: owner.key,
      json: { viewport: { width: 640, height: 400 }, cache_ttl: 0, metadata: true, ...json },
    });

  /**
   * A document whose script tries `attempts` (name -> a promise that resolves with what it read)
   * and writes the outcome of each into the title: `name=blocked` or `name=READ:<text>`.
   */
  function probeDocument(attempts: Record<string, string>, extra = ''): string {
    const entries = Object.entries(attempts)
      .map(([name, code]) => `[${JSON.stringify(name)}, () => (${code})]`)
      .join(',\n');
    return `<!doctype html><html><head><meta charset="utf-8"><title>pending</title></head><body>
<h1>probe</h1>${extra}<p id="done-marker"></p>
<script>
const attempts = [${entries}];
const within = (promise) => Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 4000))]);
Promise.all(attempts.map(([name, run]) => within(Promise.resolve().then(run)).then(
  (text) => name + '=READ:' + String(text).slice(0, 40),
  () => name + '=blocked',
))).then((outcomes) => {
  document.title = outcomes.join(';');
  const done = document.createElement('p');
  done.id = 'done';
  done.textContent = 'done';
  document.body.append(done);
});
</script></body></html>`;
  }

  const socketOpen = (url: string) =>
    `new Promise((resolve, reject) => { const ws = new WebSocket(${JSON.stringify(url)}); ws.onopen = () => resolve('open'); ws.onerror = () => reject(new Error('error')); })`;

  it('cannot read file:///etc/passwd (fetch, XHR, frame, image) and cannot navigate to it', async () => {
    const html = probeDocument(
      {
        fetch: `fetch('file:///etc/passwd').then((r) => r.text())`,
        xhr: `new Promise((resolve, reject) => { const x = new XMLHttpRequest(); x.open('GET', 'file:///etc/passwd'); x.onload = () => resolve(x.responseText); x.onerror = reject; x.send(); })`,
        frame: `new Promise((resolve, reject) => setTimeout(() => { try { const text = document.getElementById('f').contentDocument.body.innerText; text ? resolve(text) : reject(new Error('empty')); } catch (e) { reject(e); } }, 500))`,
        image: `new Promise((resolve, reject) => { const i = new Image(); i.onload = () => resolve(i.naturalWidth); i.onerror = reject; i.src = 'file:///etc/passwd'; })`,
      },
      '<iframe id="f" src="file:///etc/passwd"></iframe>',
    );
    const res = await capture({ html, wait_for: '#done' });
    expect(res.status, res.text).toBe(201);
    expect(res.json.metadata.title).toBe('fetch=blocked;xhr=blocked;frame=blocked;image=blocked');
    expect(res.text).not.toMatch(/root:x:0/);

    const navigating = await capture({
      html: `<!doctype html><title>still the document</title><h1>x</h1><script>location.href = 'file:///etc/passwd';</script>`,
    });
    // Chromium refuses a web page's navigation to a local file: the document stays.
    expect(navigating.status, navigating.text).toBe(201);
    expect(navigating.json.metadata.title).toBe('still the document');
    expectOnlyFixtureDialled();
  }, 90_000);

  it('cannot reach 127.0.0.1, 169.254.169.254 or a private address, directly or through a redirect', async () => {
    const deniedBefore = denials.length;
    const html = probeDocument(
      {
        loopback: `fetch(${JSON.stringify(`${canary.origin}/fetch`)}).then((r) => r.text())`,
        loopbackMapped: `fetch(${JSON.stringify(`http://[::ffff:127.0.0.1]:${canary.port}/mapped`)}).then((r) => r.text())`,
        metadata: `fetch('http://169.254.169.254/latest/meta-data/').then((r) => r.text())`,
        private: `fetch('http://10.0.0.7/admin').then((r) => r.text())`,
        redirectCanary: `fetch(${JSON.stringify(`${fixtures.origin}/to-canary`)}).then((r) => r.ok ? r.text() : Promise.reject(new Error(String(r.status))))`,
        redirectPrivate: `fetch(${JSON.stringify(`${fixtures.origin}/to-private`)}).then((r) => r.ok ? r.text() : Promise.reject(new Error(String(r.status))))`,
        redirectMetadata: `fetch(${JSON.stringify(`${fixtures.origin}/to-metadata`)}).then((r) => r.ok ? r.text() : Promise.reject(new Error(String(r.status))))`,
      },
      `<img src="${canary.origin}/img"><img src="http://169.254.169.254/img.png"><iframe src="${fixtures.origin}/to-private"></iframe>`,
    );
    const res = await capture({ html, wait_for: '#done' });
    expect(res.status, res.text).toBe(201);
    // A response the proxy refused is an error status (fetch reads a 403 body, never the target's).
    const outcomes = Object.fromEntries(
      (res.json.metadata.title as string).split(';').map((part) => part.split('=') as [string, string]),
    );
    for (const [name, outcome] of Object.entries(outcomes)) {
      expect(
        outcome === 'blocked' || outcome.startsWith('READ:Blocked by the network policy'),
        `${name}: ${outcome}`,
      ).toBe(true);
    }
    // Each address was asked for at the proxy and refused there: the page's own requests, and
    // the second hop of each redirect.
    expect(deniedHosts(deniedBefore)).toEqual(
      new Set([
        `127.0.0.1:${canary.port}`,
        `[::ffff:7f00:1]:${canary.port}`,
        '169.254.169.254:80',
        '10.0.0.7:80',
      ]),
    );
    expectOnlyFixtureDialled();
  }, 90_000);

  it('fails with target_unreachable when a meta refresh sends the document to the canary or the metadata address', async () => {
    const deniedBefore = denials.length;
    for (const target of [`${canary.origin}/refreshed`, 'http://169.254.169.254/latest/meta-data/']) {
      const res = await capture({
        html: `<!doctype html><meta http-equiv="refresh" content="0;url=${target}"><title>moving</title><h1>Moving</h1>`,
        wait_for: 2000,
      });
      expect(res.status, res.text).toBe(422);
      expect(res.json.error).toMatchObject({
        code: 'capture_failed',
        details: { reason: 'target_unreachable' },
      });
    }
    expect(deniedHosts(deniedBefore)).toEqual(new Set([`127.0.0.1:${canary.port}`, '169.254.169.254:80']));
    expectOnlyFixtureDialled();
  }, 90_000);

  it('cannot open a WebSocket to the canary, the metadata address or a private address (page or worker)', async () => {
    const deniedBefore = denials.length;
    const workerSource = `const ws = new WebSocket(${JSON.stringify(`ws://127.0.0.1:${canary.port}/worker`)});
ws.onopen = () => postMessage('open'); ws.onerror = () => postMessage('error');`;
    const worker = `new Promise((resolve, reject) => {
      const w = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(workerSource)}], { type: 'text/javascript' })));
      w.onmessage = (e) => e.data === 'open' ? resolve('open') : reject(new Error(e.data));
      w.onerror = () => resolve('worker failed to start');
    })`;
    const html = probeDocument({
      canary: socketOpen(`ws://127.0.0.1:${canary.port}/ws`),
      metadata: socketOpen('ws://169.254.169.254/ws'),
      private: socketOpen('ws://192.168.1.1/ws'),
      secure: socketOpen(`wss://127.0.0.1:${canary.port}/wss`),
      worker,
    });
    const res = await capture({ html, wait_for: '#done' });
    expect(res.status, res.text).toBe(201);
    expect(res.json.metadata.title).toBe(
      'canary=blocked;metadata=blocked;private=blocked;secure=blocked;worker=blocked',
    );
    // The page's sockets and the worker's (the canary's port, plain and through CONNECT) were
    // each refused at the proxy.
    expect(deniedHosts(deniedBefore)).toEqual(
      new Set([`127.0.0.1:${canary.port}`, '169.254.169.254:80', '192.168.1.1:80']),
    );
    expect(denials.length - deniedBefore).toBeGreaterThanOrEqual(5);
    expectOnlyFixtureDialled();
  }, 90_000);

  it.each([
    { Host: `127.0.0.1:${0}` },
    { host: '169.254.169.254' },
    { 'X-Ok': 'x\r\nHost: 127.0.0.1' },
    { 'X-Ok': 'x\r\n\r\nGET /smuggled HTTP/1.1' },
    { Connection: 'upgrade' },
    { 'Transfer-Encoding': 'chunked' },
    { 'Content-Length': '0' },
    { Upgrade: 'websocket' },
    { TE: 'trailers' },
    { 'Keep-Alive': 'timeout=5' },
    { 'Proxy-Connection': 'keep-alive' },
    { Trailer: 'X' },
  ])('refuses headers %j before any load', async (headers) => {
    const hitsBefore = fixtures.hits.length;
    const withCanary = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, value.replace(':0', `:${canary.port}`)]),
    );
    const res = await t.request('POST', '/v1/raw', {
      key: owner.key,
      json: { url: `${fixtures.origin}/capture/simple.html`, headers: withCanary, cache_ttl: 0 },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('invalid_params');
    expect(res.json.error.details.issues[0].path).toMatch(/^headers\./);
    expect(fixtures.hits.length).toBe(hitsBefore);
    expect(canary.hits).toEqual([]);
  });
});
