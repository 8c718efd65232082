import fs from 'node:fs';
import path from 'node:path';
import type { AuthProfileBody } from '@vitrine/contract';
import type { CliContext } from '../cli-context.ts';
import { CliError, EXIT } from '../exit-codes.ts';

type StorageState = NonNullable<AuthProfileBody['storage_state']>;

/** The part of playwright-core this command uses (loaded only here, so the CLI installs without it). */
interface BrowserContextLike {
  newPage(): Promise<PageLike>;
  storageState(): Promise<StorageState>;
}
interface PageLike {
  goto(url: string): Promise<unknown>;
  waitForURL(url: string, options: { timeout: number }): Promise<void>;
  on(event: 'close', listener: () => void): void;
}
interface BrowserLike {
  newContext(options: { viewport: null }): Promise<BrowserContextLike>;
  on(event: 'disconnected', listener: () => void): void;
  close(): Promise<void>;
}
interface PlaywrightLike {
  chromium: { launch(options: Record<string, unknown>): Promise<BrowserLike> };
}

export const NO_DISPLAY_MESSAGE = [
  'vitrine auth login opens a browser window, and this machine has no display (DISPLAY and WAYLAND_DISPLAY are not set).',
  'Sign in on a machine with a display instead, or save a Playwright storage state there',
  '(await context.storageState({ path: "state.json" })) and import it here:',
  '  vitrine auth-profiles import state.json --domain <host>',
].join('\n');

function hasDisplay(env: CliContext['env']): boolean {
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

async function loadPlaywright(): Promise<PlaywrightLike> {
  // A variable name keeps bundlers and the type checker from requiring it at build time.
  const name = 'playwright-core';
  try {
    return (await import(name)) as PlaywrightLike;
  } catch {
    throw new CliError(
      'vitrine auth login needs playwright-core (npm install -g playwright-core) and a Chromium; or use vitrine auth-profiles import',
      EXIT.usage,
    );
  }
}

/**
 * A Chromium that can open a window: the server's `VITRINE_CHROMIUM_PATH` unless it is `auto` or
 * the headless shell (which has no window), else the system's Chromium.
 */
export function loginChromiumPath(env: CliContext['env']): string | undefined {
  const configured = env.VITRINE_CHROMIUM_PATH?.trim();
  if (configured && configured !== 'auto' && !/headless[-_]shell/.test(path.basename(configured)))
    return configured;
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((file) => fs.existsSync(file));
}

/**
 * Opens a real (headed) browser window at `url` for the user to sign in, and returns the
 * window's cookies and localStorage once they are done: the window closed, Enter pressed in
 * the terminal, or the page reached `untilUrl`. The state is also read every second, so
 * closing the browser outright loses nothing.
 */
export async function captureStorageStateInBrowser(
  context: CliContext,
  options: { url: string; untilUrl?: string },
): Promise<StorageState> {
  if (!hasDisplay(context.env)) throw new CliError(NO_DISPLAY_MESSAGE, EXIT.usage);
  const playwright = await loadPlaywright();
  const executablePath = loginChromiumPath(context.env);
  const browser = await playwright.chromium.launch({
    headless: false,
    ...(executablePath ? { executablePath } : {}),
    args: ['--no-first-run', '--no-default-browser-check'],
    env: { ...context.env },
  });
  let latest: StorageState | undefined;
  let timer: NodeJS.Timeout | undefined;
  const interactive = context.stderr.isTTY === true && process.stdin.isTTY === true;
  try {
    const browserContext = await browser.newContext({ viewport: null });
    const page = await browserContext.newPage();
    try {
      await page.goto(options.url);
    } catch {
      throw new CliError(`The browser could not open ${options.url}`, EXIT.unreachable);
    }
    context.stderr.write(
      `A browser window is open at ${options.url}. Sign in there, then ${interactive ? 'press Enter here or ' : ''}close the window${options.untilUrl ? ` (or reach ${options.untilUrl})` : ''}.\n`,
    );
    await new Promise<void>((resolve) => {
      const snapshot = () =>
        browserContext.storageState().then(
          (state) => {
            latest = state;
          },
          () => undefined,
        );
      timer = setInterval(snapshot, 1000);
      page.on('close', resolve);
      browser.on('disconnected', resolve);
      if (options.untilUrl) page.waitForURL(options.untilUrl, { timeout: 0 }).then(resolve, () => undefined);
      if (interactive) process.stdin.once('data', () => resolve());
    });
    latest = await browserContext.storageState().catch(() => latest);
  } finally {
    if (timer) clearInterval(timer);
    if (interactive) process.stdin.pause();
    await browser.close().catch(() => undefined);
  }
  if (!latest)
    throw new CliError(
      'The browser closed before anything could be saved; nothing was stored',
      EXIT.unexpected,
    );
  return latest;
}
