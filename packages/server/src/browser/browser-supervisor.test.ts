import { EventEmitter } from 'node:events';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { BrowserProcess } from './browser-process.ts';
import { createBrowserSupervisor } from './browser-supervisor.ts';

/** A browser process that only records what the supervisor does to it. */
function fakeProcess(pid: number, closeMs = 0) {
  const browser = new EventEmitter() as EventEmitter & { isConnected(): boolean };
  let connected = true;
  browser.isConnected = () => connected;
  const exitListeners: (() => void)[] = [];
  let closes = 0;
  let closed = 0;
  const process: BrowserProcess = {
    browser: browser as unknown as Browser,
    pid,
    alive: () => connected,
    onExit: (listener) => void exitListeners.push(listener),
    close: async () => {
      closes += 1;
      await new Promise((resolve) => setTimeout(resolve, closeMs));
      closed += 1;
    },
    kill: async () => undefined,
  };
  return {
    process,
    closes: () => closes,
    closed: () => closed,
    exit() {
      connected = false;
      for (const listener of exitListeners) listener();
    },
  };
}

function supervisor({
  closeMs = 0,
  cleanupGraceMs,
  launchMs = 0,
}: {
  closeMs?: number;
  cleanupGraceMs?: number;
  launchMs?: number;
} = {}) {
  const launched: ReturnType<typeof fakeProcess>[] = [];
  const sup = createBrowserSupervisor({
    closeTimeoutMs: 100,
    cleanupGraceMs,
    launch: async () => {
      const next = fakeProcess(launched.length + 1, closeMs);
      await new Promise((resolve) => setTimeout(resolve, launchMs));
      launched.push(next);
      return next.process;
    },
  });
  return { sup, launched };
}

describe('browser supervisor', () => {
  it('launches once for concurrent callers and hands out the live browser', async () => {
    const { sup, launched } = supervisor();
    const [a, b] = await Promise.all([sup.live(), sup.live()]);
    expect(a).toBe(b);
    expect(launched).toHaveLength(1);
    expect(sup.current()).toBe(a);
  });

  it('an exit marks the browser dead: its leases are aborted, it is closed once, the next call relaunches', async () => {
    const { sup, launched } = supervisor();
    const first = await sup.live();
    const lease = new AbortController();
    const end = sup.attach(first, lease);
    launched[0]?.exit();
    expect(first.state).toBe('dead');
    expect(lease.signal.aborted).toBe(true);
    expect(String((lease.signal.reason as Error).message)).toContain('exited');
    expect(sup.current()).toBeUndefined();
    end();
    const second = await sup.live();
    expect(second).not.toBe(first);
    expect(launched[0]?.closes()).toBe(1);
    sup.markDead(first, new Error('again'));
    expect(launched[0]?.closes()).toBe(1);
  });

  it('a retired browser takes no new leases and closes after its last one', async () => {
    const { sup, launched } = supervisor();
    const first = await sup.live();
    const end = sup.attach(first, new AbortController());
    sup.retire(first);
    expect(first.state).toBe('retiring');
    expect(await sup.live()).not.toBe(first);
    expect(launched[0]?.closes()).toBe(0);
    end();
    end();
    expect(launched[0]?.closes()).toBe(1);
    // Its exit afterwards does not close it again.
    launched[0]?.exit();
    expect(launched[0]?.closes()).toBe(1);
  });

  it('abortAll aborts every lease; close closes every browser and waits for cleanups', async () => {
    const { sup, launched } = supervisor();
    const first = await sup.live();
    const lease = new AbortController();
    sup.attach(first, lease);
    let cleaned = false;
    sup.track(
      new Promise<void>((resolve) => setTimeout(resolve, 20)).then(() => {
        cleaned = true;
      }),
    );
    sup.abortAll(new Error('shutting down'));
    expect(lease.signal.aborted).toBe(true);
    await sup.close();
    expect(cleaned).toBe(true);
    expect(launched[0]?.closes()).toBe(1);
  });

  it('close waits for every browser to be gone, but gives a cleanup that never settles only a grace', async () => {
    const { sup, launched } = supervisor({ closeMs: 150, cleanupGraceMs: 50 });
    const first = await sup.live();
    // A page Playwright never finishes preparing (or a context close it leaves pending).
    first.spares.set('capture', [new Promise(() => undefined)]);
    sup.track(new Promise(() => undefined));
    const started = performance.now();
    await sup.close();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(launched[0]?.closed()).toBe(1);
  });

  it('a browser still starting when close begins is closed, never handed out; no launch after close', async () => {
    const { sup, launched } = supervisor({ launchMs: 100 });
    const starting = sup.live();
    starting.catch(() => undefined);
    await sup.close();
    await expect(starting).rejects.toThrow('shut down');
    expect(launched).toHaveLength(1);
    expect(launched[0]?.closed()).toBe(1);
    await expect(sup.live()).rejects.toThrow('shutting down');
    expect(launched).toHaveLength(1);
  });
});
