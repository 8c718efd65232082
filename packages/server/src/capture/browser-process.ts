import { type Browser, type BrowserServer, chromium } from 'playwright-core';

/** Proxy for every Chromium connection, as Playwright takes it (the egress proxy of netpolicy/). */
export interface BrowserProxy {
  server: string;
  bypass?: string;
  username?: string;
  password?: string;
}

/** What one Chromium launch needs. */
export interface BrowserLaunchOptions {
  executablePath: string;
  /** Extra command-line switches, appended after the defaults (e.g. the egress proxy's). */
  args?: readonly string[];
  proxy?: BrowserProxy;
  /** Launch deadline; a Chromium that does not come up in time is killed. */
  timeoutMs?: number;
}

/**
 * Switches of every launch: headless without sandbox or GPU (containers), no background traffic
 * of Chromium's own (it would reach the egress proxy), WebRTC only through the proxy.
 */
export const DEFAULT_CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--no-first-run',
  '--no-default-browser-check',
  '--hide-scrollbars',
  '--mute-audio',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--font-render-hinting=none',
];

/**
 * One running Chromium: Playwright's connection to it plus the process, so that a wedged
 * browser can be killed (Playwright's `launch()` exposes no process; `launchServer()` does).
 */
export interface BrowserProcess {
  browser: Browser;
  pid: number | undefined;
  /** Whether the Chromium process is still running (the connection notices its death later). */
  alive(): boolean;
  /** Called once when the process exits, however it ends. */
  onExit(listener: () => void): void;
  /** Closes the browser; SIGKILLs the process when closing takes longer than `timeoutMs`. */
  close(timeoutMs: number): Promise<void>;
  /** SIGKILL now. */
  kill(): Promise<void>;
}

function withTimeout(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([promise.then(() => true).catch(() => true), timeout]).finally(() =>
    clearTimeout(timer),
  );
}

/** Launches Chromium as a Playwright browser server and connects to it. */
export async function launchBrowserProcess(options: BrowserLaunchOptions): Promise<BrowserProcess> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const args = [...DEFAULT_CHROMIUM_ARGS, ...(options.args ?? [])];
  const server: BrowserServer = await chromium.launchServer({
    executablePath: options.executablePath,
    headless: true,
    args,
    proxy: options.proxy,
    timeout: timeoutMs,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  let browser: Browser;
  try {
    browser = await chromium.connect(server.wsEndpoint(), { timeout: timeoutMs });
  } catch (error) {
    await server.kill().catch(() => undefined);
    throw error;
  }
  const kill = async (): Promise<void> => {
    await server.kill().catch(() => undefined);
  };
  const child = server.process();
  return {
    browser,
    pid: child.pid,
    alive: () => child.exitCode === null && child.signalCode === null,
    onExit: (listener) => {
      if (child.exitCode !== null || child.signalCode !== null) listener();
      else child.once('exit', listener);
    },
    kill,
    async close(closeTimeoutMs) {
      const closed = await withTimeout(
        browser.close().then(() => server.close()),
        closeTimeoutMs,
      );
      if (!closed) await kill();
    },
  };
}
