import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  clientOf,
  eventually,
  expectNothingLost,
  expectReadiness,
  type FaultCluster,
  killChromium,
  startFaultCluster,
  submitJobs,
  syncBurst,
} from './fault-cluster.ts';

/** A page whose script never yields: the renderer is stuck for good. */
const BUSY_LOOP = '<!doctype html><html><body><h1>busy</h1><script>for (;;) {}</script></body></html>';

/**
 * Issue 41, `make faults`: processes that stop or lose their browser. Two API and two worker
 * processes on PostgreSQL, Redis (no persistence) and s3rver.
 */
describe('faults (processes): SIGTERM to every process under load, Chromium killed and hung in each role', () => {
  let cluster: FaultCluster;

  beforeAll(async () => {
    cluster = await startFaultCluster({
      roles: ['api', 'worker', 'api', 'worker'],
      storage: 's3',
      redisPersistence: false,
      env: { VITRINE_NAVIGATION_TIMEOUT_MS: '8000', VITRINE_CAPTURE_TIMEOUT_MS: '15000' },
    });
    cluster.fixtures.route('/busy-loop', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end(BUSY_LOOP);
    });
  }, 400_000);

  afterAll(async () => {
    await cluster?.close();
  }, 180_000);

  it('SIGTERM to every process during load: in-flight work finishes or goes back, the rest resumes on the others', async () => {
    const account = { ...(await cluster.createKey(200)), credits: 200 };
    const client = clientOf(cluster, account.key);
    const jobs = await submitJobs(cluster, client, 'sigterm', 12);
    const burst = syncBurst(cluster, client, 'sigterm', 8, 2);
    await eventually('a first job to complete', async () => {
      const res = await client.get(`/v1/jobs/${jobs[0]}`);
      return res.body.status === 'pending' ? undefined : true;
    });
    // Two rounds: half the processes stop (one of each role), replacements start, then the rest.
    const first = [cluster.live('api')[0]!, cluster.live('worker')[0]!];
    const second = [cluster.live('api')[1]!, cluster.live('worker')[1]!];
    for (const round of [first, second]) {
      const started = Date.now();
      const codes = await Promise.all(round.map((p) => cluster.stop(p)));
      // Each exits cleanly within its 30 s limit.
      expect(codes).toEqual([0, 0]);
      expect(Date.now() - started).toBeLessThan(31_000);
      await Promise.all([cluster.start('api'), cluster.start('worker')]);
    }
    const sync = await burst;
    const outcome = await expectNothingLost(cluster, account, jobs, sync);
    expect(outcome.completed).toBe(12);
  }, 600_000);

  it('Chromium killed in every process role during load: captures fail cleanly or retry, the next ones work', async () => {
    const account = { ...(await cluster.createKey(200)), credits: 200 };
    const client = clientOf(cluster, account.key);
    const jobs = await submitJobs(cluster, client, 'chromium-kill', 8);
    const burst = syncBurst(cluster, client, 'chromium-kill', 6, 2);
    await sleep(1500);
    let killed = 0;
    for (const proc of cluster.live()) killed += await killChromium(proc);
    expect(killed).toBeGreaterThan(0);
    const sync = await burst;
    // A sync capture on the killed browser fails as `capture_failed` (render_failed); a job
    // retries on a new browser.
    await expectNothingLost(cluster, account, jobs, sync, {
      allowedSyncErrors: ['capture_failed', 'overloaded'],
    });
    // Every role renders again afterwards.
    const after = await syncBurst(cluster, client, 'chromium-after', 2, 2);
    for (const outcome of after) expect(outcome.status, JSON.stringify(outcome.body)).toBe(201);
    const later = await submitJobs(cluster, client, 'chromium-after', 2);
    const done = await expectNothingLost(cluster, account, [...jobs, ...later], [...sync, ...after], {
      allowedSyncErrors: ['capture_failed', 'overloaded'],
    });
    expect(done.syncOk).toBeGreaterThanOrEqual(2);
  }, 600_000);

  it('a page in an infinite loop, sync and async: a clear failure within the deadline, the browser stays usable', async () => {
    const account = { ...(await cluster.createKey(200)), credits: 200 };
    const client = clientOf(cluster, account.key);
    const hung = { url: `${cluster.fixtures.origin}/busy-loop`, viewport: { width: 400, height: 300 } };
    const [job] = await submitJobs(cluster, client, 'busy', 1, { url: hung.url });
    const sync: { status: number; body: Record<string, unknown> }[] = [];
    for (let i = 0; i < 2; i++) {
      const started = Date.now();
      const res = await client.post('/v1/capture', { ...hung, url: `${hung.url}?n=${i}` });
      sync.push(res);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'capture_failed' });
      // Within the 15 s capture deadline (and its teardown).
      expect(Date.now() - started).toBeLessThan(40_000);
    }
    const outcome = await expectNothingLost(cluster, account, [job!], sync, {
      allowedSyncErrors: ['capture_failed'],
      settleTimeoutMs: 300_000,
    });
    expect(outcome.failed).toBe(1);
    const after = await syncBurst(cluster, client, 'busy-after', 2, 2);
    for (const o of after) expect(o.status, JSON.stringify(o.body)).toBe(201);
    const later = await submitJobs(cluster, client, 'busy-after', 2);
    const done = await expectNothingLost(cluster, account, [job!, ...later], [...sync, ...after], {
      allowedSyncErrors: ['capture_failed'],
    });
    expect(done.completed).toBe(2);
  }, 600_000);
});

/** The image disk of the embedded mode (local blob store), full. Needs root (a tmpfs mount). */
const asRoot = process.getuid?.() === 0;

describe.skipIf(!asRoot)('faults (disk): the local image disk full (one process, local storage)', () => {
  let cluster: FaultCluster;
  let blobs = '';
  let filler = '';

  beforeAll(async () => {
    cluster = await startFaultCluster({
      roles: ['all'],
      storage: 'local',
      beforeStart: async (dataRoot) => {
        blobs = path.join(dataRoot, 'all-1', 'blobs');
        fs.mkdirSync(blobs, { recursive: true });
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', blobs]);
      },
    });
    cluster.onClose = async () => {
      execFileSync('umount', ['-l', blobs]);
    };
    filler = path.join(blobs, 'filler');
  }, 300_000);

  afterEach(() => {
    fs.rmSync(filler, { force: true });
  });

  afterAll(async () => {
    await cluster?.close();
  }, 120_000);

  it('a full disk: a clear 503 naming it, no partial file, captures work again once there is room', async () => {
    const account = { ...(await cluster.createKey(100)), credits: 100 };
    const client = clientOf(cluster, account.key);
    const before = await syncBurst(cluster, client, 'disk-before', 1, 1);
    expect(before[0]?.status).toBe(201);
    // Fill the disk to the last byte.
    const chunk = Buffer.alloc(1024 * 1024, 1);
    const fd = fs.openSync(filler, 'w');
    try {
      for (;;) fs.writeSync(fd, chunk);
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      fs.closeSync(fd);
    }
    try {
      for (;;) fs.appendFileSync(filler, Buffer.alloc(1));
    } catch {
      // the last bytes are gone too
    }
    await expectReadiness(cluster, 'blob_store', 'failing');
    const jobs = await submitJobs(cluster, client, 'disk-full', 2);
    const full = await syncBurst(cluster, client, 'disk-full', 2, 1);
    for (const outcome of full) {
      expect(outcome.status, JSON.stringify(outcome.body)).toBe(503);
      expect(outcome.body.error).toMatchObject({ code: 'overloaded', details: { dependency: 'blob_store' } });
    }
    // No temp or partial file is left behind: only whole blobs (the magic and a full header).
    const files = fs.readdirSync(blobs, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    for (const file of files) {
      if (file.name === 'filler') continue;
      expect(file.name).toMatch(/\.blob$/);
      const bytes = fs.readFileSync(path.join(file.parentPath, file.name));
      expect(bytes.subarray(0, 4).toString('latin1')).toBe('VTB1');
      expect(bytes.length).toBeGreaterThan(8 + bytes.readUInt32BE(4));
    }
    fs.rmSync(filler, { force: true });
    await expectReadiness(cluster, 'blob_store', 'ok');
    const after = await syncBurst(cluster, client, 'disk-after', 1, 1);
    expect(after[0]?.status).toBe(201);
    await expectNothingLost(cluster, account, jobs, [...before, ...full, ...after]);
  }, 600_000);
});
