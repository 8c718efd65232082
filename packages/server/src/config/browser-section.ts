import fs from 'node:fs';
import os from 'node:os';
import { z } from 'zod';
import { section, variable } from './variable.ts';

const positiveInt = z.coerce.number().int().min(1);

/** `auto` (one capture per CPU core, the measured saturation point) or an explicit count. */
const concurrency = z
  .string()
  .trim()
  .transform((v, ctx) => {
    if (v === 'auto') return os.availableParallelism();
    const n = Number(v);
    if (Number.isInteger(n) && n >= 1 && n <= 256) return n;
    ctx.addIssue({ code: 'custom', message: 'must be auto or an integer from 1 to 256' });
    return z.NEVER;
  });

/** Debian's `chromium-headless-shell` package (the same Chromium without a browser window). */
export const HEADLESS_SHELL_PATH = '/usr/lib/chromium/chromium-headless-shell';
/** Debian's `chromium` package. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * `auto`: the headless shell when it is installed, else Chromium. The shell draws the same
 * pixels (with its own hinting switch, `chromiumArgsFor`) for a third to a half less CPU per
 * capture: it has no browser window, tab strip or profile services (docs/decisions.md, "The
 * capture pool runs on Chromium's headless shell").
 */
export function resolveChromiumPath(value: string, exists: (file: string) => boolean = isExecutable): string {
  if (value !== 'auto') return value;
  return exists(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : CHROMIUM_PATH;
}

/**
 * The browser pool's variables: which Chromium, how many captures at once, how many may wait,
 * and the time limits of one capture (security.md section 5).
 */
export const browserSection = section('Browser', {
  chromiumPath: variable({
    env: 'VITRINE_CHROMIUM_PATH',
    schema: z
      .string()
      .trim()
      .min(1)
      .transform((value) => resolveChromiumPath(value)),
    form: 'auto, or the path of a Chromium executable',
    description:
      "Chromium driven by the capture stage. `auto`: Debian's `chromium-headless-shell` (`/usr/lib/chromium/chromium-headless-shell`, installed by `make install`) when it is installed, else Debian's `chromium` (`/usr/bin/chromium`).",
    defaultText: 'auto',
  }),
  ffmpegPath: variable({
    env: 'VITRINE_FFMPEG_PATH',
    schema: z.string().min(1),
    form: 'the path of an ffmpeg executable, or off',
    description:
      "ffmpeg that encodes videos (`motion`; Debian's `ffmpeg` package by default), checked at start. `off` runs without videos: requests with `motion` get 400.",
    defaultText: '/usr/bin/ffmpeg',
  }),
  concurrency: variable({
    env: 'VITRINE_BROWSER_CONCURRENCY',
    schema: concurrency,
    form: 'auto, or an integer from 1 to 256',
    description: 'Captures running at once; `auto` is one per CPU core (more only adds queueing).',
    defaultText: 'auto',
  }),
  queueLimit: variable({
    env: 'VITRINE_BROWSER_QUEUE_LIMIT',
    schema: z.coerce.number().int().min(0).max(10_000),
    form: 'an integer from 0 to 10000',
    description: 'Captures that may wait for a free slot; beyond it requests get 503 `overloaded`.',
    defaultText: '32',
  }),
  recycleAfter: variable({
    env: 'VITRINE_BROWSER_RECYCLE_AFTER',
    schema: positiveInt,
    form: 'a positive integer',
    description: 'Captures after which the browser is replaced by a fresh one (bounds memory drift).',
    defaultText: '200',
  }),
  captureTimeoutMs: variable({
    env: 'VITRINE_CAPTURE_TIMEOUT_MS',
    schema: positiveInt.max(600_000),
    form: 'milliseconds, up to 600000',
    description:
      'Hard deadline of one capture (navigation, waits, screenshot); past it the page is torn down and the capture fails.',
    defaultText: '45000',
  }),
  videoFrameMs: variable({
    env: 'VITRINE_VIDEO_FRAME_MS',
    schema: positiveInt.max(10_000),
    form: 'milliseconds, 1 to 10000',
    description:
      'Render deadline a video (`motion`) gets per frame on top of `VITRINE_CAPTURE_TIMEOUT_MS`: drawing and encoding one frame (a 1920x1080 frame takes 20-50 ms on two loaded cores). A 6 s, 30 fps clip: 45 s + 180 x 200 ms.',
    defaultText: '200',
  }),
  navigationTimeoutMs: variable({
    env: 'VITRINE_NAVIGATION_TIMEOUT_MS',
    schema: positiveInt.max(600_000),
    form: 'milliseconds, up to 600000',
    description:
      'Longest wait for the page `load` event; past it the capture fails with `navigation_timeout`.',
    defaultText: '30000',
  }),
  pageCacheMegabytes: variable({
    env: 'VITRINE_PAGE_CACHE_MB',
    schema: z.coerce.number().int().min(0).max(65_536),
    form: 'megabytes, 0 to 65536 (0 turns the page cache off)',
    description:
      'Memory for screenshots of pages already loaded, reused when the same page (target and browser fields, same account) is captured again with another look: a style change costs a compose, not a page load.',
    defaultText: '256',
  }),
  pageCacheMaxAgeSeconds: variable({
    env: 'VITRINE_PAGE_CACHE_MAX_AGE',
    schema: z.coerce.number().int().min(0).max(86_400),
    form: 'seconds, 0 to 86400',
    description:
      "Longest a loaded page's screenshot is reused; a request's own `cache_ttl` can only shorten it (`cache_ttl: 0` never reuses).",
    defaultText: '900',
  }),
});
