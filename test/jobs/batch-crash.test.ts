import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { freePort, uniqueName } from '../support/test-app.ts';
import { REDIS_URL } from '../support/test-services.ts';

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../../bin/vitrine');
const ITEMS = 8;
/** How long each fixture page takes to answer: the batch is still running when the kill comes. */
const PAGE_DELAY_MS = 1200;

interface Service {
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

/**
 * Issue 39: kill -9 of the service in the middle of a batch. After a restart on the same data the
 * batch finishes, no render is recorded or charged twice, no page that had been rendered is
 * loaded again, and the credits are exact; on the embedded queue (SQLite) and on BullMQ (Redis).
 */
describe.each([
  { backend: 'embedded queue on SQLite', redis: false },
  { backend: 'BullMQ on Redis', redis: true },
])('a batch survives kill -9 of its service ($backend)', ({ redis }) => {
  let fixtures: RunningServer;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  const running: ChildProcess[] = [];

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    fixtures.route('/slow', (_req, res) => {
      setTimeout(() => {
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!doctype html><html><body style="background:#eef"><h1>Slow page</h1></body></html>');
      }, PAGE_DELAY_MS);
    });
    fixtures.route('/hook', (req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-batch-crash-'));
    env = {
      ...process.env,
      VITRINE_DATA_DIR: dataDir,
      VITRINE_LOG_LEVEL: 'warn',
      VITRINE_ALLOW_TARGETS: '127.0.0.2',
      VITRINE_WORKER_CONCURRENCY: '2',
      VITRINE_JOB_LEASE_MS: '3000',
      VITRINE_QUEUE_POLL_MS: '100',
      VITRINE_JOB_SWEEP_MS: '1000',
      ...(redis ? { REDIS_URL, VITRINE_REDIS_PREFIX: uniqueName('vt_batch') } : {}),
    };
  });
  afterAll(async () => {
    for (const child of running) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    }
    await fixtures?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<Service> {
    const port = await freePort();
    const child = spawn(BIN, ['serve'], {
      env: { ...env, VITRINE_PORT: String(port), VITRINE_PUBLIC_URL: `http://127.0.0.1:${port}` },
      stdio: ['ignore', 'ignore', 'pipe'],
      // Its own process group, so the clean-up also ends the Chromium a killed service left behind.
      detached: true,
    });
    running.push(child);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      let text = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('Stop: Ctrl+C')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${text}`)));
    });
    return { url: `http://127.0.0.1:${port}`, child, exited };
  }

  async function api(service: Service, key: string, method: string, route: string, body?: unknown) {
    const res = await fetch(`${service.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, json: await res.json() };
  }

  it('finishes after a restart: every render once, credits exact', async () => {
    let service = await start();
    const created = await run(
      BIN,
      ['admin', 'create-key', '--email', 'crash@example.com', '--credits', '50'],
      { env },
    );
    const key = created.stdout.trim().split('\n').pop()!;
    const items = Array.from({ length: ITEMS }, (_, i) => `${fixtures.origin}/slow?item=${i}`);
    const posted = await api(service, key, 'POST', '/v1/batch', {
      items,
      defaults: { viewport: { width: 480, height: 320 } },
      webhook_url: `${fixtures.origin}/hook`,
    });
    expect(posted.status, JSON.stringify(posted.json)).toBe(202);
    const batchId = posted.json.id as string;

    // Kill once a render has completed and others are still to come.
    let before: { counts: { completed: number; pending: number } } | undefined;
    for (let i = 0; i < 1200; i++) {
      const res = await api(service, key, 'GET', `/v1/batches/${batchId}`);
      if (res.json.counts.completed >= 2) {
        before = res.json;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(before, 'two renders completed before the kill').toBeDefined();
    service.child.kill('SIGKILL');
    expect(await service.exited).toBeNull();
    const doneBeforeKill = (before as unknown as { renders: { status: string; url: string }[] }).renders
      .filter((r) => r.status === 'completed')
      .map((r) => new URL(r.url).pathname + new URL(r.url).search);
    expect(doneBeforeKill.length).toBeLessThan(ITEMS);
    const hitsAtKill = fixtures.hits.length;

    service = await start();
    let batch: {
      status: string;
      counts: Record<string, number>;
      renders: { status: string; result: { id: string } | null }[];
      webhook_status: string;
    } | null = null;
    for (let i = 0; i < 1200; i++) {
      const res = await api(service, key, 'GET', `/v1/batches/${batchId}`);
      if (res.json.status === 'completed' && res.json.webhook_status !== 'pending') {
        batch = res.json;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(batch, 'the batch finished after the restart').not.toBeNull();
    expect(batch!.counts).toEqual({ total: ITEMS, pending: 0, completed: ITEMS, failed: 0 });
    expect(batch!.webhook_status).toBe('delivered');
    // The pages rendered before the kill were not loaded again after it.
    const afterKill = fixtures.hits.slice(hitsAtKill);
    for (const page of doneBeforeKill) expect(afterKill, page).not.toContain(page);

    const usage = await api(service, key, 'GET', '/v1/usage');
    expect(usage.json.credits_remaining).toBe(50 - ITEMS);
    service.child.kill('SIGTERM');
    await service.exited;

    // One capture per render, one committed reservation each, nothing left reserved or refunded.
    const db = new SQLite(path.join(dataDir, 'vitrine.sqlite'), { readonly: true });
    try {
      const jobs = db
        .prepare('SELECT capture_id, reservation_id FROM jobs WHERE batch_id = ?')
        .all(batchId) as { capture_id: string; reservation_id: string }[];
      expect(jobs).toHaveLength(ITEMS);
      const ids = batch!.renders.map((r) => r.result!.id).sort();
      expect(ids).toEqual(jobs.map((j) => j.capture_id).sort());
      const captures = db
        .prepare(`SELECT count(*) AS n FROM captures WHERE id IN (${jobs.map(() => '?').join(',')})`)
        .get(...jobs.map((j) => j.capture_id)) as { n: number };
      expect(captures.n).toBe(ITEMS);
      const ledger = db
        .prepare(
          `SELECT state, count(*) AS n, sum(amount) AS credits FROM credit_ledger WHERE id IN (${jobs
            .map(() => '?')
            .join(',')}) GROUP BY state`,
        )
        .all(...jobs.map((j) => j.reservation_id));
      expect(ledger).toEqual([{ state: 'committed', n: ITEMS, credits: ITEMS }]);
    } finally {
      db.close();
    }
  }, 180_000);
});
