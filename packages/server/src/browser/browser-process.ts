import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { raceAbort, settlesWithin } from './abort-race.ts';

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
 * The features Playwright's launch disables (playwright-core 1.65). Chromium keeps only the last
 * `--disable-features` switch, and ours comes after Playwright's, so it repeats them; a test
 * checks them against the switch Playwright passes.
 */
export const PLAYWRIGHT_DISABLED_FEATURES: readonly string[] = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Features a capture browser goes without (docs/decisions.md, "The browser window's omnibox
 * popup"). Headless Chromium opens a window per context, and every window loaded its address
 * bar's popup, a WebUI page in a renderer of its own that kept working while the capture ran:
 * about half of the tree's CPU per capture of a simple page. Chromium's spare renderer, started
 * for a context's next navigation, is never used by a capture context (its page was opened,
 * with its renderer, before the navigation).
 */
export const CAPTURE_DISABLED_FEATURES: readonly string[] = [
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  'SpareRendererForSitePerProcess',
];

/**
 * Switches of every launch: headless without sandbox or GPU (containers), no background traffic
 * of Chromium's own (it would reach the egress proxy), WebRTC only through the proxy, and the
 * features above off.
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
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...CAPTURE_DISABLED_FEATURES].join(',')}`,
];

/**
 * Whether `executablePath` is Chromium's headless shell (Debian's `chromium-headless-shell`, the
 * browser Playwright's own headless launches use): a lighter build of the same Chromium.
 */
export function isHeadlessShell(executablePath: string): boolean {
  return /headless[-_]shell/.test(path.basename(executablePath));
}

/**
 * The switches of a launch of `executablePath` (DEFAULT_CHROMIUM_ARGS). The headless shell maps
 * the hinting levels differently: its `slight` draws glyphs exactly as Chromium's `none` does
 * (0 differing pixels on SB Admin 2's Font Awesome icons, where its `none` left 369 pixels off
 * by up to 43 levels; docs/decisions.md, "Cheaper per capture, part 2").
 */
export function chromiumArgsFor(executablePath: string): string[] {
  if (!isHeadlessShell(executablePath)) return [...DEFAULT_CHROMIUM_ARGS];
  return DEFAULT_CHROMIUM_ARGS.map((arg) =>
    arg === '--font-render-hinting=none' ? '--font-render-hinting=slight' : arg,
  );
}

/**
 * One running Chromium: Playwright's connection to it plus its process id, so that a wedged
 * browser can be killed.
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

/** Whether a process with this id exists (signal 0 checks without sending anything). */
function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The browser process's id, from Chromium itself (CDP `SystemInfo.getProcessInfo` lists the
 * browser process with its pid): `chromium.launch()` exposes no process.
 */
async function browserProcessId(browser: Browser): Promise<number> {
  const session = await browser.newBrowserCDPSession();
  try {
    const info = (await session.send('SystemInfo.getProcessInfo')) as {
      processInfo: { type: string; id: number }[];
    };
    const pid = info.processInfo.find((entry) => entry.type === 'browser')?.id;
    if (!pid) throw new Error('Chromium did not report its browser process');
    return pid;
  } finally {
    await session.detach().catch(() => undefined);
  }
}

/** The least time the pid query, or closing a browser whose pid is unknown, is given. */
const LAUNCH_STEP_MIN_MS = 5000;

/**
 * Launches Chromium over Playwright's pipe. Not `launchServer()` + `connect()`: that relays
 * every protocol message through a WebSocket inside this same process, serialised twice more,
 * which costs about 130 ms per full-page screenshot of 10,000 px (a 4.7 MB message) and CPU on
 * every capture (docs/decisions.md, "Chromium over a pipe").
 */
export async function launchBrowserProcess(options: BrowserLaunchOptions): Promise<BrowserProcess> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = performance.now() + timeoutMs;
  const args = [...chromiumArgsFor(options.executablePath), ...(options.args ?? [])];
  const browser = await chromium.launch({
    executablePath: options.executablePath,
    headless: true,
    args,
    proxy: options.proxy,
    timeout: timeoutMs,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  let pid: number;
  try {
    // Within the launch's own deadline (a few seconds at least): a shutdown waits for a launch
    // under way.
    const late = AbortSignal.timeout(Math.max(LAUNCH_STEP_MIN_MS, Math.round(deadline - performance.now())));
    pid = await raceAbort(browserProcessId(browser), late);
  } catch (error) {
    await settlesWithin(browser.close(), LAUNCH_STEP_MIN_MS);
    throw error;
  }
  // The pipe closes when the process ends, however it ends.
  let exited = !browser.isConnected();
  const exitListeners: (() => void)[] = [];
  const disconnected = new Promise<void>((resolve) => {
    const done = () => {
      exited = true;
      resolve();
      for (const listener of exitListeners.splice(0)) listener();
    };
    if (exited) done();
    else browser.once('disconnected', done);
  });
  const kill = async (): Promise<void> => {
    if (!exited && processExists(pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
    await settlesWithin(disconnected, 5000);
  };
  return {
    browser,
    pid,
    alive: () => !exited && processExists(pid),
    onExit: (listener) => {
      if (exited) listener();
      else exitListeners.push(listener);
    },
    kill,
    async close(closeTimeoutMs) {
      const closed = await settlesWithin(browser.close(), closeTimeoutMs);
      if (!closed) await kill();
    },
  };
}
