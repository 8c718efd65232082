import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/test-app.ts';

describe('graceful shutdown', () => {
  it('does not wait for a client that stalls mid-request', async () => {
    const t = await startTestApp('sqlite');
    const key = await t.createKey();
    // A raw client that promises a body and stops sending: its request stays in flight.
    const socket = net.connect(t.config.server.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `POST /v1/projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key.key}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":',
    );
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    const steps: [string, number][] = [];
    await t.close((name, ms) => steps.push([name, ms]));
    // Bounded by the shutdown grace (10 s), far below the 120 s request timeout it would wait.
    expect(Date.now() - started).toBeLessThan(20_000);
    // Every step is told, in order, and the one that held the shutdown is the HTTP server's.
    expect(steps.map(([name]) => name)).toEqual([
      'HTTP server',
      'job runtime',
      'brand jobs',
      'browser pool',
      'egress proxy',
      'Redis',
      'blob store',
      'database',
    ]);
    expect(steps[0]?.[1]).toBeGreaterThanOrEqual(9000);
    socket.destroy();
  }, 40_000);
});

describe('closing the app when a step fails', () => {
  it('still closes Chromium, the proxy and the database when the HTTP server fails to close', async () => {
    const t = await startTestApp('sqlite');
    await t.app.warmUp();
    const pid = t.app.browserPool.stats().browserPid;
    expect(pid).toBeTypeOf('number');
    const httpClose = t.app.http.close.bind(t.app.http);
    // The first step of the shutdown throws; every later step must still run.
    t.app.http.close = (async () => {
      await httpClose();
      throw new Error('the HTTP server refused to close');
    }) as unknown as typeof t.app.http.close;
    await expect(t.close()).rejects.toThrow('Closing HTTP server failed');
    const alive = () => {
      try {
        process.kill(pid as number, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 100 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive()).toBe(false);
  }, 60_000);
});
