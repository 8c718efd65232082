import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../packages/server/src/errors/app-error.ts';
import {
  buildSocketConnector,
  createGuardedFetch,
  type GuardedFetchSettings,
  isTooLarge,
} from '../../packages/server/src/netpolicy/guarded-fetch.ts';
import { createTargetPolicy, type Resolver } from '../../packages/server/src/netpolicy/target-policy.ts';
import {
  isTargetUnreachable,
  TARGET_UNREACHABLE_MESSAGE,
} from '../../packages/server/src/netpolicy/target-unreachable.ts';
import {
  FIXTURE_HOST,
  type RunningServer,
  startCanary,
  startFixtureServer,
} from '../support/fixture-server.ts';

/** Each lookup of a name takes the next scripted answer (the last repeats); no real DNS. */
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

type Connector = NonNullable<GuardedFetchSettings['socketConnector']>;

/**
 * undici's own connector behind a loopback-only gate: even with a broken policy, a test can never
 * open a socket beyond 127.0.0.0/8.
 */
function loopbackOnlyConnector(options: Parameters<typeof buildSocketConnector>[0] = {}): Connector {
  const real = buildSocketConnector(options);
  return (connectOptions, callback) => {
    if (!connectOptions.hostname.startsWith('127.')) {
      callback(new Error(`test connector refuses ${connectOptions.hostname}`), null);
      return;
    }
    real(connectOptions, callback);
  };
}

let fixture: RunningServer;
let canary: RunningServer;
let closedPort: number;
const hanging: import('node:http').ServerResponse[] = [];

beforeAll(async () => {
  fixture = await startFixtureServer();
  canary = await startCanary();
  fixture.route('/echo', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-test': 'yes' });
      res.end(
        JSON.stringify({
          method: req.method,
          host: req.headers.host,
          header: req.headers['x-custom'],
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
  });
  fixture.route('/redirect', (_req, res) => {
    res.writeHead(302, { location: `${canary.origin}/redirected` }).end();
  });
  fixture.route('/big-declared', (_req, res) => {
    res.writeHead(200, { 'content-length': String(64 * 1024) }).end(Buffer.alloc(64 * 1024));
  });
  fixture.route('/big-chunked', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    for (let i = 0; i < 16; i += 1) res.write(Buffer.alloc(4096));
    res.end();
  });
  fixture.route('/hang', (_req, res) => {
    hanging.push(res);
  });
  const spare = await startFixtureServer();
  closedPort = spare.port;
  await spare.close();
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  await fixture.close();
  await canary.close();
});

afterEach(() => {
  expect(canary.hits).toEqual([]);
});

describe('guarded fetch', () => {
  const resolver = scriptedResolver({
    'named.test': [['127.0.0.2']],
    'hook.test': [['93.184.216.34'], ['127.0.0.1']],
    'private.test': [['10.0.0.8']],
  });
  const policy = createTargetPolicy({ allowTargets: [FIXTURE_HOST], allowedPorts: [80, 443], resolver });
  const guardedFetch = createGuardedFetch(policy, { socketConnector: loopbackOnlyConnector() });
  const limits = { maxBytes: 16 * 1024, timeoutMs: 5000 };

  it('fetches an allowed target with method, headers and body', async () => {
    const response = await guardedFetch(`${fixture.origin}/echo`, {
      ...limits,
      method: 'POST',
      headers: { 'x-custom': 'value', host: 'spoofed.example' },
      body: 'payload',
    });
    expect(response.status).toBe(200);
    expect(response.headers['x-test']).toBe('yes');
    expect(response.url).toBe(`${fixture.origin}/echo`);
    expect(JSON.parse(response.body.toString())).toEqual({
      method: 'POST',
      host: `${FIXTURE_HOST}:${fixture.port}`,
      header: 'value',
      body: 'payload',
    });
  });

  it('connects to the checked address and keeps the name in Host', async () => {
    const response = await guardedFetch(`http://named.test:${fixture.port}/echo`, limits);
    expect(JSON.parse(response.body.toString()).host).toBe(`named.test:${fixture.port}`);
  });

  it('returns a redirect instead of following it', async () => {
    const response = await guardedFetch(`${fixture.origin}/redirect`, limits);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(`${canary.origin}/redirected`);
  });

  it.each(['/big-declared', '/big-chunked'])('enforces the byte cap (%s)', async (route) => {
    const error = await guardedFetch(`${fixture.origin}${route}`, limits).catch((e: unknown) => e);
    expect(isTooLarge(error)).toBe(true);
    expect((error as AppError).details).toEqual({ reason: 'too_large', limit_bytes: 16 * 1024 });
    const fits = await guardedFetch(`${fixture.origin}${route}`, { ...limits, maxBytes: 64 * 1024 });
    expect(fits.body.length).toBe(64 * 1024);
  });

  it('reports a timeout and a refused connection as the same unreachable error', async () => {
    const timedOut = await guardedFetch(`${fixture.origin}/hang`, { ...limits, timeoutMs: 300 }).catch(
      (e: unknown) => e,
    );
    const refused = await guardedFetch(`http://${FIXTURE_HOST}:${closedPort}/`, limits).catch(
      (e: unknown) => e,
    );
    for (const error of [timedOut, refused]) {
      expect(isTargetUnreachable(error)).toBe(true);
      expect((error as AppError).message).toBe(TARGET_UNREACHABLE_MESSAGE);
      expect((error as AppError).details).toEqual({ reason: 'target_unreachable' });
    }
  });

  it('passes the caller abort through', async () => {
    const controller = new AbortController();
    const pending = guardedFetch(`${fixture.origin}/hang`, { ...limits, signal: controller.signal });
    controller.abort(new Error('job cancelled'));
    await expect(pending).rejects.toThrow('job cancelled');
  });

  it.each([
    () => canary.origin,
    () => `http://127.1:${canary.port}/`,
    () => `http://[::ffff:127.0.0.1]:${canary.port}/`,
    () => `http://localhost:${canary.port}/`,
    () => 'http://private.test/',
    () => 'http://169.254.169.254/latest/meta-data/',
    () => 'file:///etc/passwd',
  ])('refuses targets the policy does not allow (%#)', async (target) => {
    const error = await guardedFetch(target(), { ...limits, field: 'webhook_url' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('target_not_allowed');
    expect((error as AppError).message).toMatch(/^webhook_url is not allowed/);
  });

  it('refuses a webhook host that started resolving to loopback after it was accepted', async () => {
    await expect(policy.checkUrl('http://hook.test/', { field: 'webhook_url' })).resolves.toBeDefined();
    const error = await guardedFetch(`http://hook.test:${canary.port}/`, limits).catch((e: unknown) => e);
    expect((error as AppError).code).toBe('target_not_allowed');
  });
});

describe('guarded fetch over TLS', () => {
  let server: https.Server;
  let port: number;
  let ca: Buffer;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=secure.test',
        '-addext',
        'subjectAltName=DNS:secure.test',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    ca = fs.readFileSync(path.join(dir, 'cert.pem'));
    server = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert: ca }, (req, res) => {
      res.end(`sni=${(req.socket as import('node:tls').TLSSocket).servername} host=${req.headers.host}`);
    });
    await new Promise<void>((resolve) => server.listen(0, FIXTURE_HOST, resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps SNI and certificate checks on the name while connecting to the checked IP', async () => {
    const policy = createTargetPolicy({
      allowTargets: [FIXTURE_HOST],
      allowedPorts: [443],
      resolver: scriptedResolver({ 'secure.test': [['127.0.0.2']], 'other.test': [['127.0.0.2']] }),
    });
    const guardedFetch = createGuardedFetch(policy, { socketConnector: loopbackOnlyConnector({ ca }) });
    const response = await guardedFetch(`https://secure.test:${port}/`, { maxBytes: 1024, timeoutMs: 5000 });
    expect(response.body.toString()).toBe(`sni=secure.test host=secure.test:${port}`);
    const mismatch = await guardedFetch(`https://other.test:${port}/`, {
      maxBytes: 1024,
      timeoutMs: 5000,
    }).catch((e: unknown) => e);
    expect(isTargetUnreachable(mismatch)).toBe(true);
  });
});
