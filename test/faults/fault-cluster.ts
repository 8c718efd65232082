import { type ChildProcess, execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { expect } from 'vitest';
import { startS3rver, type TestS3Server } from '../storage/s3rver.ts';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { type HttpFaultProxy, startHttpFaultProxy } from '../support/http-fault-proxy.ts';
import { freePort } from '../support/test-app.ts';
import {
  type RestartableService,
  startThrowawayPostgres,
  startThrowawayRedis,
} from '../support/throwaway-services.ts';

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../../bin/vitrine');

export type Role = 'api' | 'worker' | 'all';

export interface ClusterProcess {
  name: string;
  role: Role;
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Set by the suite before it stops a process on purpose: any other exit fails the scenario. */
  stopping: boolean;
  stderr: string[];
}

export interface ClusterOptions {
  /** The processes to start, by role. */
  roles: Role[];
  /** `s3` (s3rver behind a fault proxy) or `local` (each process its own data dir). */
  storage: 's3' | 'local';
  /** Redis keeps an append-only file (true) or nothing (false) across restarts; absent: no Redis. */
  redisPersistence?: boolean;
  /** Extra environment for every process. */
  env?: Record<string, string>;
  /** Runs before the first process starts (e.g. to mount a small disk under its data dir). */
  beforeStart?: (dataRoot: string) => Promise<void>;
}

/**
 * What the fault suite runs on: its own PostgreSQL and redis-server (so that it can stop them
 * without touching the rest of the test run), s3rver behind an HTTP fault proxy, a fixture
 * server with a programmable webhook receiver, and `bin/vitrine serve` processes.
 */
export interface FaultCluster {
  postgres: RestartableService;
  redis: RestartableService | undefined;
  s3: TestS3Server | undefined;
  s3Proxy: HttpFaultProxy | undefined;
  fixtures: RunningServer;
  processes: ClusterProcess[];
  env: NodeJS.ProcessEnv;
  dataRoot: string;
  start(role: Role): Promise<ClusterProcess>;
  /** SIGTERM and wait (on purpose: not counted as a crash). */
  stop(process: ClusterProcess, signal?: NodeJS.Signals): Promise<number | null>;
  /** Called by close() before the data dir is removed (e.g. to unmount a disk). */
  onClose?: () => Promise<void>;
  live(role?: Role): ClusterProcess[];
  /** A new user with a live key and `credits` credits. */
  createKey(credits: number): Promise<{ key: string; email: string }>;
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

export async function startFaultCluster(options: ClusterOptions): Promise<FaultCluster> {
  const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-faults-'));
  const postgres = await startThrowawayPostgres();
  let redis: RestartableService | undefined;
  if (options.redisPersistence !== undefined) {
    const dir = path.join(dataRoot, 'redis');
    fs.mkdirSync(dir);
    redis = await startThrowawayRedis(options.redisPersistence ? { persistence: dir } : {});
  }
  let s3: TestS3Server | undefined;
  let s3Proxy: HttpFaultProxy | undefined;
  if (options.storage === 's3') {
    s3 = await startS3rver();
    s3Proxy = await startHttpFaultProxy(s3.endpoint);
  }
  const fixtures = await startFixtureServer();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: postgres.url,
    ...(redis ? { REDIS_URL: redis.url, VITRINE_REDIS_PREFIX: 'faults' } : {}),
    ...(s3 && s3Proxy
      ? {
          VITRINE_STORAGE: 's3',
          VITRINE_S3_ENDPOINT: s3Proxy.url,
          VITRINE_S3_BUCKET: s3.bucket,
          VITRINE_S3_ACCESS_KEY_ID: s3.credentials.accessKeyId,
          VITRINE_S3_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
          VITRINE_S3_FORCE_PATH_STYLE: 'true',
        }
      : { VITRINE_STORAGE: 'local' }),
    VITRINE_SECRET_KEY: crypto.randomBytes(32).toString('hex'),
    VITRINE_ALLOW_TARGETS: '127.0.0.2',
    VITRINE_LOG_LEVEL: 'warn',
    VITRINE_JOB_LEASE_MS: '6000',
    VITRINE_QUEUE_POLL_MS: '100',
    VITRINE_JOB_SWEEP_MS: '2000',
    // Stale reservations are refunded 60 s after the capture deadline: keep the wait short.
    VITRINE_CAPTURE_TIMEOUT_MS: '20000',
    VITRINE_WORKER_CONCURRENCY: '2',
    VITRINE_BROWSER_CONCURRENCY: '2',
    VITRINE_WEBHOOK_TIMEOUT_MS: '2000',
    VITRINE_RATE_LIMIT_DEFAULT_PER_MINUTE: '100000',
    VITRINE_RATE_LIMIT_CAPTURE_PER_MINUTE: '100000',
    ...options.env,
  };
  const processes: ClusterProcess[] = [];
  let counter = 0;

  async function start(role: Role): Promise<ClusterProcess> {
    const port = await freePort();
    const name = `${role}-${++counter}`;
    const stderr: string[] = [];
    const child = spawn(BIN, ['serve', '--role', role], {
      env: {
        ...env,
        VITRINE_PORT: String(port),
        VITRINE_PUBLIC_URL: `http://127.0.0.1:${port}`,
        VITRINE_DATA_DIR: path.join(dataRoot, name),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      let text = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        stderr.push(chunk.toString());
        if (stderr.length > 200) stderr.shift();
        if (text.includes('Stop: Ctrl+C')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`${name} exited ${code}: ${text}`)));
    });
    const proc: ClusterProcess = {
      name,
      role,
      url: `http://127.0.0.1:${port}`,
      child,
      exited,
      stopping: false,
      stderr,
    };
    processes.push(proc);
    return proc;
  }

  async function stop(proc: ClusterProcess, signal: NodeJS.Signals = 'SIGTERM') {
    proc.stopping = true;
    if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill(signal);
    return proc.exited;
  }

  async function query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]> {
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end();
    }
  }

  const cluster: FaultCluster = {
    postgres,
    redis,
    s3,
    s3Proxy,
    fixtures,
    processes,
    env,
    dataRoot,
    start,
    stop,
    live: (role) => processes.filter((p) => !p.stopping && (role === undefined || p.role === role)),
    async createKey(credits) {
      const email = `${crypto.randomBytes(5).toString('hex')}@faults.example.com`;
      const { stdout } = await run(
        BIN,
        ['admin', 'create-key', '--email', email, '--credits', String(credits)],
        { env: { ...env, VITRINE_DATA_DIR: path.join(dataRoot, 'admin') } },
      );
      return { key: stdout.trim().split('\n').pop()!, email };
    },
    query,
    async close() {
      for (const p of processes) p.stopping = true;
      await Promise.all(processes.map((p) => stop(p)));
      await fixtures.close();
      await s3Proxy?.close();
      await s3?.close();
      await redis?.stop().catch(() => undefined);
      await postgres.stop().catch(() => undefined);
      await cluster.onClose?.();
      fs.rmSync(dataRoot, { recursive: true, force: true });
    },
  };
  try {
    await options.beforeStart?.(dataRoot);
    // Migrations run on the first start: one process first, then the rest together.
    const [first, ...rest] = options.roles;
    if (first) await start(first);
    await Promise.all(rest.map((role) => start(role)));
  } catch (error) {
    await cluster.close();
    throw error;
  }
  return cluster;
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 120_000,
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
    }
    await sleep(everyMs);
  }
}

export interface Readiness {
  status: number;
  checks: Record<string, string>;
}

/** `/readyz` of a process (a process that does not answer in 5 s is reported as status 0). */
export async function readiness(proc: ClusterProcess): Promise<Readiness> {
  try {
    const res = await fetch(`${proc.url}/readyz`, { signal: AbortSignal.timeout(5000) });
    const body = (await res.json()) as { checks: Record<string, string> };
    return { status: res.status, checks: body.checks };
  } catch {
    return { status: 0, checks: {} };
  }
}

/** Waits until every live process's `/readyz` reports `dependency` as `state`. */
export async function expectReadiness(
  cluster: FaultCluster,
  dependency: string,
  state: 'ok' | 'failing',
  timeoutMs = 30_000,
): Promise<void> {
  expectNoCrash(cluster);
  for (const proc of cluster.live()) {
    await eventually(
      `${proc.name} /readyz ${dependency}=${state}`,
      async () => {
        const ready = await readiness(proc);
        const healthz = await fetch(`${proc.url}/healthz`, { signal: AbortSignal.timeout(5000) });
        if (healthz.status !== 200) return undefined;
        if (ready.checks[dependency] !== state) return undefined;
        if (state === 'failing' && ready.status !== 503) return undefined;
        return true;
      },
      timeoutMs,
    );
  }
}

/** A client of one account on the cluster's API processes (round-robin over the live ones). */
export function clientOf(cluster: FaultCluster, key: string) {
  let turn = 0;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const api = () => {
    const apis = cluster.live().filter((p) => p.role !== 'worker');
    const pick = apis.length > 0 ? apis : cluster.live();
    return pick[turn++ % pick.length]!;
  };
  return {
    headers,
    api,
    async post(pathname: string, body: unknown, timeoutMs = 120_000) {
      const res = await fetch(`${api().url}${pathname}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    async get(pathname: string) {
      const res = await fetch(`${api().url}${pathname}`, { headers, signal: AbortSignal.timeout(30_000) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
  };
}

export type Client = ReturnType<typeof clientOf>;

/** The outcome of a synchronous capture as the client saw it. */
export interface SyncOutcome {
  status: number;
  body: Record<string, unknown>;
}

/** Error codes a client may get for a capture while a dependency is down: clear, retryable. */
export const OUTAGE_CODES = ['overloaded'];

/**
 * The assertions every scenario ends with:
 * - every accepted async job ends `completed` (with a result) or `failed` (with a reason);
 * - each completed job has exactly one capture row, each failed job none;
 * - every credit reservation of the account is settled exactly once: committed for each
 *   completed job and each successful sync capture, refunded for the rest, none left reserved,
 *   and the balance is the starting one minus the committed credits;
 * - every successful result's URL (async and sync) serves a PNG from a live process;
 * - a failed sync capture got a clear error: an outage code from the envelope, never a 200
 *   without an image;
 * - no process exited except those the scenario stopped.
 */
export async function expectNothingLost(
  cluster: FaultCluster,
  account: { key: string; email: string; credits: number },
  jobIds: string[],
  syncOutcomes: SyncOutcome[],
  options: { allowedSyncErrors?: string[]; settleTimeoutMs?: number } = {},
): Promise<{ completed: number; failed: number; syncOk: number; syncFailed: number }> {
  const client = clientOf(cluster, account.key);
  const jobs = new Map<string, Record<string, unknown>>();
  await eventually(
    'every job to finish',
    async () => {
      for (const id of jobIds) {
        if (jobs.has(id)) continue;
        const res = await client.get(`/v1/jobs/${id}`);
        if (res.status !== 200) continue;
        if (res.body.status !== 'pending') jobs.set(id, res.body);
      }
      return jobs.size === jobIds.length ? true : undefined;
    },
    options.settleTimeoutMs ?? 240_000,
    500,
  );
  const urls: string[] = [];
  let completed = 0;
  for (const [id, job] of jobs) {
    if (job.status === 'completed') {
      completed++;
      const result = job.result as { url: string };
      expect(result?.url, id).toMatch(/\/cdn\/r\//);
      urls.push(result.url);
    } else {
      expect(job.status, id).toBe('failed');
      expect(String(job.error ?? ''), id).not.toBe('');
    }
  }
  let syncOk = 0;
  for (const outcome of syncOutcomes) {
    if (outcome.status === 200 || outcome.status === 201) {
      syncOk++;
      urls.push(String(outcome.body.url));
    } else {
      const error = outcome.body.error as { code: string } | undefined;
      expect(options.allowedSyncErrors ?? OUTAGE_CODES, JSON.stringify(outcome)).toContain(error?.code);
    }
  }
  // Each job's capture row: one for a completed job, none for a failed one.
  const rows = await cluster.query<{ id: string; status: string; captures: number; state: string | null }>(
    `SELECT j.id, j.status,
            (SELECT count(*)::int FROM captures c WHERE c.id = j.capture_id) AS captures,
            (SELECT string_agg(l.state, ',') FROM credit_ledger l WHERE l.id = j.reservation_id) AS state
       FROM jobs j WHERE j.id = ANY($1)`,
    [jobIds],
  );
  expect(rows).toHaveLength(jobIds.length);
  for (const row of rows) {
    expect(row.captures, `${row.id} ${row.status}`).toBe(row.status === 'completed' ? 1 : 0);
    expect(row.state, `${row.id} ${row.status}`).toBe(row.status === 'completed' ? 'committed' : 'refunded');
  }
  // The account's ledger: nothing left reserved (a reservation whose owner could not settle it,
  // e.g. a sync capture's refund while the database was down, is refunded by the sweep once it
  // is older than the capture deadline plus a minute); committed = completed jobs + successful
  // syncs.
  const ledgerOf = () =>
    cluster.query<{ state: string; n: number; credits: number }>(
      `SELECT l.state, count(*)::int AS n, sum(l.amount)::int AS credits
         FROM credit_ledger l JOIN users u ON u.id = l.user_id
        WHERE u.email = $1 AND l.kind = 'capture' GROUP BY l.state ORDER BY l.state`,
      [account.email],
    );
  const ledger = await eventually(
    'no credits left reserved',
    async () => {
      const rows = await ledgerOf();
      return rows.some((row) => row.state === 'reserved') ? undefined : rows;
    },
    180_000,
    1000,
  ).catch(async () => ledgerOf());
  const byState = Object.fromEntries(ledger.map((row) => [row.state, row]));
  expect(byState.reserved, JSON.stringify(ledger)).toBeUndefined();
  expect(byState.committed?.n ?? 0, JSON.stringify(ledger)).toBe(completed + syncOk);
  const [user] = await cluster.query<{ credits_remaining: number }>(
    'SELECT credits_remaining FROM users WHERE email = $1',
    [account.email],
  );
  expect(user!.credits_remaining).toBe(account.credits - (byState.committed?.credits ?? 0));
  // Every result's image is served by any live process.
  const servers = cluster.live();
  for (const [i, url] of urls.entries()) {
    const server = servers[i % servers.length]!;
    const res = await fetch(`${server.url}${new URL(url).pathname}`, { signal: AbortSignal.timeout(30_000) });
    expect(res.status, url).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(1, 4).toString('latin1'), url).toBe('PNG');
  }
  expectNoCrash(cluster);
  const counts = {
    completed,
    failed: jobIds.length - completed,
    syncOk,
    syncFailed: syncOutcomes.length - syncOk,
  };
  recordResult(counts, syncOutcomes);
  return counts;
}

/**
 * Appends the scenario's outcome to test-output/faults/results.jsonl (the table in
 * docs/operations.md is written from it): jobs completed and failed, sync captures that
 * succeeded and the error codes of those that did not.
 */
function recordResult(counts: Record<string, number>, syncOutcomes: SyncOutcome[]): void {
  const dir = path.resolve(import.meta.dirname, '../../test-output/faults');
  fs.mkdirSync(dir, { recursive: true });
  const errors = syncOutcomes
    .filter((o) => o.status >= 300 || o.status === 0)
    .map((o) => `${o.status} ${(o.body.error as { code?: string } | undefined)?.code ?? ''}`);
  const line = {
    scenario: expect.getState().currentTestName,
    at: new Date().toISOString(),
    ...counts,
    syncErrors: errors,
  };
  fs.appendFileSync(path.join(dir, 'results.jsonl'), `${JSON.stringify(line)}\n`);
}

/** No process exited that the suite did not stop. */
export function expectNoCrash(cluster: FaultCluster): void {
  for (const p of cluster.processes) {
    if (p.stopping) continue;
    expect(
      p.child.exitCode === null && p.child.signalCode === null,
      `${p.name} exited: ${p.stderr.join('').slice(-3000)}`,
    ).toBe(true);
  }
}

/** A styled capture of a fixture page, unique per `n` (no capture-level cache hit). */
export function captureBody(cluster: FaultCluster, n: string, extra: Record<string, unknown> = {}) {
  return {
    url: `${cluster.fixtures.origin}/capture/simple.html?n=${n}`,
    viewport: { width: 400, height: 300 },
    ...extra,
  };
}

/** Accepts `count` async captures; returns their job ids. */
export async function submitJobs(
  cluster: FaultCluster,
  client: Client,
  tag: string,
  count: number,
  extra: Record<string, unknown> = {},
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await client.post(
      '/v1/capture',
      captureBody(cluster, `${tag}-${i}`, { async: true, ...extra }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    ids.push(String(res.body.job_id));
  }
  return ids;
}

/** Runs `count` sync captures, `parallel` at a time; returns what each client saw. */
export async function syncBurst(
  cluster: FaultCluster,
  client: Client,
  tag: string,
  count: number,
  parallel = 2,
): Promise<SyncOutcome[]> {
  const outcomes: SyncOutcome[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const i = next++;
        try {
          outcomes.push(await client.post('/v1/capture', captureBody(cluster, `${tag}-sync-${i}`)));
        } catch (error) {
          outcomes.push({ status: 0, body: { error: { code: `client: ${String(error)}` } } });
        }
      }
    }),
  );
  return outcomes;
}

/** `/metrics` of a process, as text. */
export async function metricsOf(proc: ClusterProcess): Promise<string> {
  return (await fetch(`${proc.url}/metrics`)).text();
}

/** The sum of a counter's samples whose labels include all of `labels`. */
export function counterValue(metrics: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of metrics.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    total += Number(line.split(' ').pop());
  }
  return total;
}

/** The pids of every process descending from `pid` (Chromium's browser, renderers, helpers). */
export async function descendants(pid: number): Promise<{ pid: number; command: string }[]> {
  const { stdout } = await run('ps', ['-eo', 'pid=,ppid=,args=']);
  const rows = stdout
    .split('\n')
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), command: m[3]! }));
  const found: { pid: number; command: string }[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const row of rows) {
      if (row.ppid !== parent) continue;
      found.push({ pid: row.pid, command: row.command });
      queue.push(row.pid);
    }
  }
  return found;
}

/** SIGKILLs the Chromium browser processes under a Vitrine process; returns how many. */
export async function killChromium(proc: ClusterProcess): Promise<number> {
  const browsers = (await descendants(proc.child.pid!)).filter(
    (p) => /chrom/i.test(p.command) && !/--type=/.test(p.command),
  );
  for (const browser of browsers) {
    try {
      process.kill(browser.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return browsers.length;
}
