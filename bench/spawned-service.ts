import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../test/support/test-app.ts';
import { batch, commandLine, memorySampler, percentile, processTree, sleep, treeMemory } from './measure.ts';

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
export async function startWithMake(url: string): Promise<SpawnedService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-bench-'));
  const port = await freePort();
  const env = {
    ...process.env,
    VITRINE_DATA_DIR: dataDir,
    VITRINE_PORT: String(port),
    VITRINE_ALLOW_TARGETS: '127.0.0.2',
    VITRINE_LOG_LEVEL: 'warn',
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
  return fetch(`${baseUrl}/v1/raw`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url, viewport: { width: 1440, height: 900 }, cache_ttl: 0, ...body }),
  }).then(async (response) => {
    await response.arrayBuffer();
    return response;
  });
}

export interface MemoryResult {
  captures: number;
  failed: number;
  concurrency: number;
  idleRssMb: number;
  peakRssMb: number;
  peakPssMb: number;
  earlyRssMb: number;
  lateRssMb: number;
  driftPercent: number;
  processes: number;
  elapsedMs: number;
}

/**
 * P5: peak memory of the service process and its Chromium children (RSS summed from /proc, plus
 * PSS, which counts shared pages once) during `count` fresh raw captures at concurrency 4, and the
 * drift: median tree RSS over the last fifth of the run against the second fifth (after warm-up).
 * Stops at `count` captures or after `maxMs`, whichever comes first.
 */
export async function measureMemory(
  service: SpawnedService,
  urls: string[],
  count: number,
  maxMs: number,
): Promise<MemoryResult> {
  const idle = treeMemory(service.servicePid);
  const sampler = memorySampler(service.servicePid, 250);
  const samples: { at: number; rssMb: number }[] = [];
  let processes = 0;
  let completed = 0;
  const timer = setInterval(() => {
    const now = treeMemory(service.servicePid);
    processes = Math.max(processes, now.processes);
    samples.push({ at: completed, rssMb: now.rssMb });
  }, 250);
  const started = performance.now();
  const { completed: captures, failed } = await batch(
    async (i) => {
      const response = await rawCapture(service.baseUrl, service.key, urls[i % urls.length] as string);
      if (!response.ok) throw new Error(`status ${response.status}`);
    },
    4,
    count,
    (n) => {
      completed = n;
    },
    maxMs,
  );
  const elapsedMs = performance.now() - started;
  clearInterval(timer);
  const peak = sampler.stop();
  const window = (from: number, to: number) =>
    percentile(
      samples.filter((s) => s.at >= from * captures && s.at < to * captures).map((s) => s.rssMb),
      50,
    );
  const early = window(0.2, 0.4);
  const late = window(0.8, 1.01);
  return {
    captures,
    failed,
    concurrency: 4,
    idleRssMb: idle.rssMb,
    peakRssMb: peak.rssMb,
    peakPssMb: peak.pssMb,
    earlyRssMb: early,
    lateRssMb: late,
    driftPercent: early ? Math.round(((late - early) / early) * 1000) / 10 : 0,
    processes,
    elapsedMs: Math.round(elapsedMs),
  };
}
