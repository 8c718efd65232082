import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../test/support/test-app.ts';
import type { BareProcess } from './bare-process.ts';
import {
  batch,
  commandLine,
  percentile,
  processTree,
  sleep,
  type TreeMemory,
  treeMemory,
} from './measure.ts';
import { UNLIMITED_CAPTURES } from './service.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

export interface SpawnedService {
  baseUrl: string;
  key: string;
  /** The `node .../main.ts serve` process (its tree is the service plus its Chromium). */
  servicePid: number;
  startToHealthyMs: number;
  startToFirstCaptureMs: number;
  stop(): Promise<void>;
}

/**
 * P6: `make start` on an installed tree with a fresh data dir (SQLite, local storage), a key made
 * beforehand with `bin/vitrine admin create-key` (not timed), then timed from spawning
 * `make start` to /healthz answering and to the first successful POST /v1/raw of `url`.
 */
export async function startWithMake(
  url: string,
  extraEnv: Record<string, string> = {},
): Promise<SpawnedService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-bench-'));
  const port = await freePort();
  const env = {
    ...process.env,
    VITRINE_DATA_DIR: dataDir,
    VITRINE_PORT: String(port),
    VITRINE_ALLOW_TARGETS: '127.0.0.2',
    VITRINE_LOG_LEVEL: 'warn',
    ...UNLIMITED_CAPTURES,
    ...extraEnv,
  };
  const created = execFileSync(
    path.join(ROOT, 'bin/vitrine'),
    ['admin', 'create-key', '--email', 'bench@example.com', '--credits', '100000'],
    { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const key = created.trim().split('\n').pop() as string;
  const baseUrl = `http://127.0.0.1:${port}`;

  const started = performance.now();
  const child: ChildProcess = spawn('make', ['--no-print-directory', 'start'], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: 'ignore',
  });
  const stop = async () => {
    const running = () => child.exitCode === null && child.signalCode === null;
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-(child.pid as number), name);
      } catch {
        // the group is gone already
      }
    };
    if (running() && child.pid) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      signal('SIGTERM');
      await Promise.race([exited, sleep(15_000)]);
      if (running()) signal('SIGKILL');
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const deadline = started + 60_000;
    let healthyAt = 0;
    while (!healthyAt) {
      if (performance.now() > deadline || child.exitCode !== null || child.signalCode !== null)
        throw new Error('service did not start');
      const ok = await fetch(`${baseUrl}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) healthyAt = performance.now();
      else await sleep(20);
    }
    let capturedAt = 0;
    while (!capturedAt) {
      if (performance.now() > deadline) throw new Error('no successful capture within 60 s');
      const response = await rawCapture(baseUrl, key, url).catch(() => undefined);
      if (response?.ok) capturedAt = performance.now();
      else await sleep(50);
    }
    const servicePid =
      processTree(child.pid as number).find(
        (p) => / serve\b/.test(commandLine(p)) && /node/.test(commandLine(p)),
      ) ?? (child.pid as number);
    return {
      baseUrl,
      key,
      servicePid,
      startToHealthyMs: Math.round(healthyAt - started),
      startToFirstCaptureMs: Math.round(capturedAt - started),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export function rawCapture(baseUrl: string, key: string, url: string, body: object = {}): Promise<Response> {
  return postCapture(baseUrl, key, '/v1/raw', url, body);
}

/** POST /v1/raw or /v1/capture of `url` at 1440x900 with no cache; resolves once the answer is read. */
export function postCapture(
  baseUrl: string,
  key: string,
  route: '/v1/raw' | '/v1/capture',
  url: string,
  body: object = {},
): Promise<Response> {
  return fetch(`${baseUrl}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url, viewport: { width: 1440, height: 900 }, cache_ttl: 0, ...body }),
  }).then(async (response) => {
    const body = await response.arrayBuffer();
    if (!response.ok) throw new Error(`${route} answered ${response.status}`);
    // The body is read (as a client would), and kept for a caller that wants the answer.
    return new Response(body, { status: response.status, headers: response.headers });
  });
}

/** Memory of one contender's tree during a run at concurrency 4. */
export interface TreeRun {
  captures: number;
  failed: number;
  idle: TreeMemory;
  peakRssMb: number;
  peakPssMb: number;
  /** Median PSS and RSS over the second fifth of the run (after warm-up) and over the last fifth. */
  earlyPssMb: number;
  latePssMb: number;
  earlyRssMb: number;
  lateRssMb: number;
  processes: number;
  elapsedMs: number;
}

export interface MemoryResult {
  concurrency: number;
  vitrine: TreeRun;
  bare: TreeRun;
  /** Drift of the service tree's PSS (median, last fifth against second fifth), percent. */
  driftPercent: number;
  /** The same for summed RSS. */
  rssDriftPercent: number;
}

/** `count` captures of `urls` in turn at concurrency 4 while the tree of `pid` is sampled every 250 ms. */
async function treeRun(
  pid: number,
  capture: (url: string) => Promise<unknown>,
  urls: string[],
  count: number,
  maxMs: number,
): Promise<TreeRun> {
  const idle = treeMemory(pid);
  const samples: { at: number; rssMb: number; pssMb: number }[] = [];
  let processes = 0;
  let completed = 0;
  let peakRssMb = 0;
  let peakPssMb = 0;
  const sample = () => {
    const now = treeMemory(pid);
    processes = Math.max(processes, now.processes);
    peakRssMb = Math.max(peakRssMb, now.rssMb);
    peakPssMb = Math.max(peakPssMb, now.pssMb);
    samples.push({ at: completed, rssMb: now.rssMb, pssMb: now.pssMb });
  };
  const timer = setInterval(sample, 250);
  const started = performance.now();
  const { completed: captures, failed } = await batch(
    (i) => capture(urls[i % urls.length] as string),
    4,
    count,
    (n) => {
      completed = n;
    },
    maxMs,
  );
  const elapsedMs = performance.now() - started;
  clearInterval(timer);
  sample();
  const window = (from: number, to: number, field: 'rssMb' | 'pssMb') =>
    percentile(
      samples.filter((s) => s.at >= from * captures && s.at < to * captures).map((s) => s[field]),
      50,
    );
  return {
    captures,
    failed,
    idle,
    peakRssMb,
    peakPssMb,
    earlyPssMb: window(0.2, 0.4, 'pssMb'),
    latePssMb: window(0.8, 1.01, 'pssMb'),
    earlyRssMb: window(0.2, 0.4, 'rssMb'),
    lateRssMb: window(0.8, 1.01, 'rssMb'),
    processes,
    elapsedMs: Math.round(elapsedMs),
  };
}

const drift = (early: number, late: number) => (early ? Math.round(((late - early) / early) * 1000) / 10 : 0);

/**
 * P5: memory of the service process and its Chromium children (PSS from /proc/<pid>/smaps_rollup,
 * which shares pages out between the processes that map them, and summed RSS beside it, which
 * counts them once per process) during `count` fresh raw captures at concurrency 4; and, in the
 * same run, of bare-playwright's tree (its Node process and its Chromium) during `bareCount`
 * captures of the same pages at the same concurrency. Drift: median tree PSS over the last fifth
 * of the service's run against the second fifth. Each run stops at its count or after `maxMs`.
 */
export async function measureMemory(
  service: SpawnedService,
  bare: BareProcess,
  urls: string[],
  count: number,
  bareCount: number,
  maxMs: number,
): Promise<MemoryResult> {
  const bareRun = await treeRun(bare.pid, (url) => bare.capture(url), urls, bareCount, maxMs);
  const vitrine = await treeRun(
    service.servicePid,
    (url) => rawCapture(service.baseUrl, service.key, url),
    urls,
    count,
    maxMs,
  );
  return {
    concurrency: 4,
    vitrine,
    bare: bareRun,
    driftPercent: drift(vitrine.earlyPssMb, vitrine.latePssMb),
    rssDriftPercent: drift(vitrine.earlyRssMb, vitrine.lateRssMb),
  };
}
