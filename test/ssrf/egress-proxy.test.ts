import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Dialer, type DialTarget, dialTcp } from '../../packages/server/src/netpolicy/egress-dialer.ts';
import {
  EGRESS_VERDICT_HEADER,
  type EgressLogger,
  type EgressProxy,
  startEgressProxy,
} from '../../packages/server/src/netpolicy/egress-proxy.ts';
import { createTargetPolicy, type Resolver } from '../../packages/server/src/netpolicy/target-policy.ts';
import {
  FIXTURE_HOST,
  type RunningServer,
  startCanary,
  startFixtureServer,
} from '../support/fixture-server.ts';
import { proxyConnect, proxyGet, rawExchange } from './proxy-client.ts';

/** Answers from a script: each lookup of a name takes the next answer (the last one repeats). */
function scriptedResolver(script: Record<string, string[][]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    resolve: async (hostname) => {
      calls.push(hostname);
      const answers = script[hostname];
      if (!answers) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      const index = Math.min(calls.filter((c) => c === hostname).length, answers.length) - 1;
      return answers[index] ?? [];
    },
  };
}

/**
 * A dialer that records every target and never leaves loopback: loopback addresses are dialled
 * for real; any other (public) address is redirected to `stand-in` (a loopback fixture), the way a
 * test network would answer for it.
 */
function recordingDialer(standIn: () => number): Dialer & { targets: DialTarget[] } {
  const targets: DialTarget[] = [];
  const dial: Dialer = (target, signal) => {
    targets.push(target);
    if (target.address.startsWith('127.')) return dialTcp(target, signal);
    return dialTcp({ ...target, address: FIXTURE_HOST, port: standIn() }, signal);
  };
  return Object.assign(dial, { targets });
}

function recordingLogger(): EgressLogger & { denied: Record<string, unknown>[] } {
  const denied: Record<string, unknown>[] = [];
  return {
    denied,
    debug: () => {},
    warn: (fields) => {
      if (fields.verdict === 'denied') denied.push(fields);
    },
  };
}

let fixture: RunningServer;
let canary: RunningServer;
let wsEcho: http.Server;
let wsEchoPort: number;

beforeAll(async () => {
  fixture = await startFixtureServer();
  fixture.route('/hello', (req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'x-seen-host': req.headers.host ?? '' });
    res.end('hello through the proxy');
  });
  canary = await startCanary();
  wsEcho = http.createServer((_req, res) => res.end());
  wsEcho.on('upgrade', (_req, socket) => {
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => wsEcho.listen(0, FIXTURE_HOST, resolve));
  wsEchoPort = (wsEcho.address() as AddressInfo).port;
});

afterAll(async () => {
  await fixture.close();
  await canary.close();
  wsEcho.closeAllConnections();
  await new Promise<void>((resolve) => wsEcho.close(() => resolve()));
});

afterEach(() => {
  expect(canary.hits).toEqual([]);
});

const PRIVATE_ANSWERS: Record<string, string[][]> = {
  'ten.test': [['10.0.0.1']],
  'metadata-ip.test': [['169.254.169.254']],
  'ec2-v6.test': [['fd00:ec2::254']],
  'cgnat.test': [['100.64.0.7']],
  'mapped.test': [['::ffff:10.0.0.1']],
  'loop.test': [['127.0.0.1']],
  'nat64.test': [['64:ff9b::a9fe:a9fe']],
  'mixed.test': [['93.184.216.34', '192.168.1.10']],
};

describe('egress proxy', () => {
  let proxy: EgressProxy;
  let dialer: ReturnType<typeof recordingDialer>;
  let logger: ReturnType<typeof recordingLogger>;
  let resolver: ReturnType<typeof scriptedResolver>;

  beforeAll(async () => {
    resolver = scriptedResolver({
      ...PRIVATE_ANSWERS,
      'public.test': [['93.184.216.34']],
      'rebind.test': [['93.184.216.34'], ['10.0.0.1']],
      'kept.test': [['93.184.216.40']],
      'kept-rebind.test': [['93.184.216.41'], ['93.184.216.41'], ['10.0.0.1']],
    });
    dialer = recordingDialer(() => fixture.port);
    logger = recordingLogger();
    const policy = createTargetPolicy({ allowTargets: [FIXTURE_HOST], allowedPorts: [80, 443], resolver });
    proxy = await startEgressProxy({ policy, dial: dialer, logger, connectTimeoutMs: 2000 });
  });

  afterAll(async () => {
    await proxy.close();
  });

  it('proxies a plain GET to an allowed fixture', async () => {
    const response = await proxyGet(proxy.port, `${fixture.origin}/hello`);
    expect(response.status).toBe(200);
    expect(response.body).toBe('hello through the proxy');
    expect(response.headers['x-seen-host']).toBe(`${FIXTURE_HOST}:${fixture.port}`);
    expect(dialer.targets.at(-1)).toMatchObject({ address: FIXTURE_HOST, port: fixture.port });
  });

  it('tunnels CONNECT to an allowed fixture', async () => {
    const tunnel = await proxyConnect(proxy.port, `${FIXTURE_HOST}:${fixture.port}`);
    expect(tunnel.status).toBe(200);
    const answer = await rawExchange(
      tunnel.socket,
      'GET /hello HTTP/1.1\r\nHost: tunnel\r\nConnection: close\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain('hello through the proxy');
  });

  it('refuses the canary for GET, CONNECT and every spelling of loopback', async () => {
    const before = dialer.targets.length;
    const port = canary.port;
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://127.1:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://localhost:${port}/`,
      `http://2130706433:${port}/`,
    ]) {
      const response = await proxyGet(proxy.port, url);
      expect(response.status, url).toBe(403);
      expect(response.headers[EGRESS_VERDICT_HEADER]).toBe('denied');
    }
    for (const authority of [`127.0.0.1:${port}`, `[::ffff:7f00:1]:${port}`, `localhost:${port}`]) {
      const tunnel = await proxyConnect(proxy.port, authority);
      expect(tunnel.status, authority).toBe(403);
      tunnel.socket.destroy();
    }
    expect(dialer.targets.length).toBe(before);
    expect(logger.denied.some((entry) => entry.port === port)).toBe(true);
  });

  it('refuses names resolving to private addresses without dialling them', async () => {
    const before = dialer.targets.length;
    const deniedBefore = proxy.stats().denied;
    for (const host of Object.keys(PRIVATE_ANSWERS)) {
      expect((await proxyGet(proxy.port, `http://${host}/`)).status, host).toBe(403);
      const tunnel = await proxyConnect(proxy.port, `${host}:443`);
      expect(tunnel.status, host).toBe(403);
      tunnel.socket.destroy();
    }
    for (const literal of ['10.1.2.3', '169.254.169.254', '[fd00:ec2::254]', '100.64.0.1', '0.0.0.0']) {
      expect((await proxyGet(proxy.port, `http://${literal}/`)).status, literal).toBe(403);
    }
    expect(dialer.targets.slice(before)).toEqual([]);
    expect(proxy.stats().denied - deniedBefore).toBe(Object.keys(PRIVATE_ANSWERS).length * 2 + 5);
  });

  it('connects to the checked IP and keeps the Host header', async () => {
    const response = await proxyGet(proxy.port, 'http://public.test/hello');
    expect(response.status).toBe(200);
    expect(response.headers['x-seen-host']).toBe('public.test');
    expect(dialer.targets.at(-1)).toEqual({ address: '93.184.216.34', port: 80, hostname: 'public.test' });
  });

  it('resolves once per connection and checks that answer (DNS rebinding)', async () => {
    const policyCheck = createTargetPolicy({ allowTargets: [], allowedPorts: [80, 443], resolver });
    await expect(policyCheck.checkUrl('http://rebind.test/')).resolves.toBeDefined();
    const before = dialer.targets.length;
    const callsBefore = resolver.calls.length;
    const response = await proxyGet(proxy.port, 'http://rebind.test/hello');
    expect(response.status).toBe(403);
    const tunnel = await proxyConnect(proxy.port, 'rebind.test:443');
    expect(tunnel.status).toBe(403);
    tunnel.socket.destroy();
    expect(resolver.calls.length - callsBefore).toBe(2);
    expect(dialer.targets.length).toBe(before);
  });

  it('keeps an upstream connection for the next request, still checking each request', async () => {
    const dialsBefore = dialer.targets.length;
    const callsBefore = resolver.calls.filter((c) => c === 'kept.test').length;
    for (let i = 0; i < 3; i += 1) {
      const response = await proxyGet(proxy.port, 'http://kept.test/hello');
      expect(response.status).toBe(200);
      expect(response.headers['x-seen-host']).toBe('kept.test');
    }
    expect(dialer.targets.slice(dialsBefore)).toEqual([
      { address: '93.184.216.40', port: 80, hostname: 'kept.test' },
    ]);
    expect(resolver.calls.filter((c) => c === 'kept.test').length - callsBefore).toBe(3);
  });

  it('never sends a request over a kept connection once its name checks to a private address', async () => {
    const dialsBefore = dialer.targets.length;
    expect((await proxyGet(proxy.port, 'http://kept-rebind.test/hello')).status).toBe(200);
    expect((await proxyGet(proxy.port, 'http://kept-rebind.test/hello')).status).toBe(200);
    const hitsBefore = fixture.hits.length;
    const refused = await proxyGet(proxy.port, 'http://kept-rebind.test/hello');
    expect(refused.status).toBe(403);
    expect(refused.headers[EGRESS_VERDICT_HEADER]).toBe('denied');
    expect(fixture.hits.length).toBe(hitsBefore);
    expect(dialer.targets.slice(dialsBefore)).toHaveLength(1);
  });

  it('refuses closed ports on public hosts', async () => {
    const before = dialer.targets.length;
    expect((await proxyGet(proxy.port, 'http://public.test:8080/')).status).toBe(403);
    const tunnel = await proxyConnect(proxy.port, 'public.test:22');
    expect(tunnel.status).toBe(403);
    tunnel.socket.destroy();
    expect(dialer.targets.length).toBe(before);
  });

  it('proxies a WebSocket upgrade over plain http to an allowed host, and refuses the canary', async () => {
    const socket = net.connect({ host: '127.0.0.1', port: proxy.port });
    const head = await new Promise<string>((resolve) => {
      socket.once('data', (chunk: Buffer) => resolve(chunk.toString()));
      socket.write(
        `GET http://${FIXTURE_HOST}:${wsEchoPort}/ws HTTP/1.1\r\nHost: ${FIXTURE_HOST}:${wsEchoPort}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nProxy-Connection: keep-alive\r\n\r\n`,
      );
    });
    expect(head).toMatch(/^HTTP\/1\.1 101/);
    const echoed = await new Promise<string>((resolve) => {
      socket.once('data', (chunk: Buffer) => resolve(chunk.toString()));
      socket.write('ping');
    });
    expect(echoed).toBe('ping');
    socket.destroy();

    const refused = net.connect({ host: '127.0.0.1', port: proxy.port });
    const answer = await rawExchange(
      refused,
      `GET http://127.0.0.1:${canary.port}/ws HTTP/1.1\r\nHost: 127.0.0.1:${canary.port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 403/);
  });
});

describe('egress proxy failures', () => {
  it('answers 502 for every network failure, the same for refused and timed out', async () => {
    const policy = createTargetPolicy({
      allowTargets: [],
      allowedPorts: [80, 443],
      resolver: scriptedResolver({ 'refused.test': [['93.184.216.34']], 'hangs.test': [['93.184.216.35']] }),
    });
    const dial: Dialer = (target, signal) =>
      target.address === '93.184.216.34'
        ? Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))
        : new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    const proxy = await startEgressProxy({ policy, dial, connectTimeoutMs: 200 });
    try {
      const refused = await proxyGet(proxy.port, 'http://refused.test/');
      const hangs = await proxyGet(proxy.port, 'http://hangs.test/');
      expect(refused.status).toBe(502);
      expect(hangs.status).toBe(502);
      expect(refused.body).toBe(hangs.body);
      expect(refused.headers[EGRESS_VERDICT_HEADER]).toBe('unreachable');
      const tunnel = await proxyConnect(proxy.port, 'refused.test:443');
      expect(tunnel.status).toBe(502);
      tunnel.socket.destroy();
      expect(proxy.stats()).toMatchObject({ allowed: 0, denied: 0, failed: 3 });
    } finally {
      await proxy.close();
    }
  });

  it('sends a request again on a new connection when its kept one had been closed upstream', async () => {
    // Answers the first request of each connection and keeps it open, then drops the connection
    // on its second request without a word: the race every keep-alive client meets when a server
    // closes an idle connection just as the client reuses it.
    const connections: net.Socket[] = [];
    const flaky = net.createServer((socket) => {
      connections.push(socket);
      let requests = 0;
      socket.on('data', (chunk: Buffer) => {
        if (!chunk.toString().includes('\r\n\r\n')) return;
        requests += 1;
        if (requests > 1) return void socket.destroy();
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 5\r\n\r\nfresh');
      });
    });
    await new Promise<void>((resolve) => flaky.listen(0, FIXTURE_HOST, resolve));
    const port = (flaky.address() as AddressInfo).port;
    const policy = createTargetPolicy({ allowTargets: [FIXTURE_HOST], allowedPorts: [80, 443] });
    const proxy = await startEgressProxy({ policy });
    try {
      for (let i = 0; i < 3; i += 1) {
        const response = await proxyGet(proxy.port, `http://${FIXTURE_HOST}:${port}/page-${i}`);
        expect(response.status, `request ${i}`).toBe(200);
        expect(response.body).toBe('fresh');
      }
      expect(connections.length).toBe(3);
      expect(proxy.stats()).toMatchObject({ allowed: 3, failed: 0 });
    } finally {
      await proxy.close();
      for (const socket of connections) socket.destroy();
      await new Promise<void>((resolve) => flaky.close(() => resolve()));
    }
  });

  it('close() ends open tunnels', async () => {
    const policy = createTargetPolicy({ allowTargets: [FIXTURE_HOST], allowedPorts: [80, 443] });
    const proxy = await startEgressProxy({ policy });
    const tunnel = await proxyConnect(proxy.port, `${FIXTURE_HOST}:${fixture.port}`);
    expect(tunnel.status).toBe(200);
    expect(proxy.stats().openSockets).toBeGreaterThanOrEqual(2);
    const closed = new Promise<void>((resolve) => tunnel.socket.once('close', () => resolve()));
    await proxy.close();
    await closed;
    expect(proxy.stats().openSockets).toBe(0);
  });
});
