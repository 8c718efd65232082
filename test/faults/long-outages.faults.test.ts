import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  clientOf,
  counterValue,
  eventually,
  expectNothingLost,
  expectReadiness,
  type FaultCluster,
  metricsOf,
  startFaultCluster,
  submitJobs,
  syncBurst,
} from './fault-cluster.ts';

/**
 * Issue 41, `make faults` (not in `make test`): the outages at their full length, Redis with
 * persistence, and webhook receivers that fail. One API and one worker process.
 */
describe('faults (long): PostgreSQL down 20 s, the object store hanging 30 s, Redis with persistence, webhook receivers', () => {
  let cluster: FaultCluster;
  /** Per job: how its webhook receiver fails its first attempt, and when each attempt came. */
  const attempts = new Map<string, number[]>();

  beforeAll(async () => {
    cluster = await startFaultCluster({ roles: ['api', 'worker'], storage: 's3', redisPersistence: true });
    cluster.fixtures.route('/hook', (req, res) => {
      const mode = new URL(req.url ?? '/', 'http://x').searchParams.get('mode') ?? 'ok';
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        const jobId = String(JSON.parse(body).job_id);
        const seen = [...(attempts.get(jobId) ?? []), Date.now()];
        attempts.set(jobId, seen);
        // The first attempt fails the way `mode` says; later ones succeed.
        if (seen.length > 1 || mode === 'ok') return void res.writeHead(200).end('ok');
        if (mode === '500') return void res.writeHead(500).end('no');
        if (mode === 'close') return void req.socket.destroy();
        // hang: never answer (the delivery's timeout ends it)
      });
    });
  }, 300_000);

  afterEach(async () => {
    if (cluster.s3Proxy) cluster.s3Proxy.mode = 'pass';
    await cluster.redis?.up().catch(() => undefined);
    await cluster.postgres.up().catch(() => undefined);
  }, 120_000);

  afterAll(async () => {
    await cluster?.close();
  }, 120_000);

  it('PostgreSQL unreachable for 20 s under load', async () => {
    const account = { ...(await cluster.createKey(100)), credits: 100 };
    const client = clientOf(cluster, account.key);
    const jobs = await submitJobs(cluster, client, 'pg-20s', 8);
    const burst = syncBurst(cluster, client, 'pg-20s', 6, 2);
    await sleep(1500);
    await cluster.postgres.down();
    const downAt = Date.now();
    await expectReadiness(cluster, 'database', 'failing');
    await sleep(Math.max(0, 20_000 - (Date.now() - downAt)));
    await cluster.postgres.up();
    await expectReadiness(cluster, 'database', 'ok');
    const sync = await burst;
    await expectNothingLost(cluster, account, jobs, sync);
  }, 600_000);

  it('the object store hanging for 30 s: clear errors or retries, never a result without its image', async () => {
    const account = { ...(await cluster.createKey(100)), credits: 100 };
    const client = clientOf(cluster, account.key);
    const proxy = cluster.s3Proxy!;
    proxy.mode = 'hang';
    const hangAt = Date.now();
    await expectReadiness(cluster, 'object_store', 'failing');
    const jobs = await submitJobs(cluster, client, 's3-hang', 3);
    const sync = await syncBurst(cluster, client, 's3-hang', 2, 2);
    expect(proxy.counts.hang).toBeGreaterThan(0);
    await sleep(Math.max(0, 30_000 - (Date.now() - hangAt)));
    proxy.mode = 'pass';
    await expectReadiness(cluster, 'object_store', 'ok');
    // A capture whose image could not be stored before its deadline gets a 503 naming the store.
    for (const outcome of sync) {
      if (outcome.status >= 300) {
        expect(outcome.body.error, JSON.stringify(outcome.body)).toMatchObject({
          code: 'overloaded',
          details: { dependency: 'object_store' },
        });
      }
    }
    await expectNothingLost(cluster, account, jobs, sync);
  }, 600_000);

  it('Redis restarted with persistence: the queue comes back and every job finishes once', async () => {
    const account = { ...(await cluster.createKey(100)), credits: 100 };
    const client = clientOf(cluster, account.key);
    const jobs = await submitJobs(cluster, client, 'redis-aof', 10);
    await cluster.redis!.down();
    await expectReadiness(cluster, 'redis', 'failing');
    const during = await submitJobs(cluster, client, 'redis-aof-during', 2);
    await sleep(3000);
    await cluster.redis!.up();
    await expectReadiness(cluster, 'redis', 'ok');
    const outcome = await expectNothingLost(cluster, account, [...jobs, ...during], []);
    expect(outcome.completed).toBe(12);
  }, 600_000);

  it('webhook receivers that answer 500, hang or close: retried on schedule, the outbox survives a worker restart', async () => {
    const account = { ...(await cluster.createKey(100)), credits: 100 };
    const client = clientOf(cluster, account.key);
    const jobs: Record<string, string> = {};
    for (const mode of ['500', 'hang', 'close']) {
      const [id] = await submitJobs(cluster, client, `hook-${mode}`, 1, {
        webhook_url: `${cluster.fixtures.origin}/hook?mode=${mode}`,
      });
      jobs[mode] = id!;
    }
    // Every first attempt has failed: restart the worker before the retries are due.
    await eventually(
      'each first webhook attempt to fail',
      async () => {
        const rows = await cluster.query<{ attempts: number }>(
          'SELECT attempts FROM webhook_deliveries WHERE job_id = ANY($1)',
          [Object.values(jobs)],
        );
        return rows.length === 3 && rows.every((row) => row.attempts >= 1) ? true : undefined;
      },
      180_000,
    );
    const [worker] = cluster.live('worker');
    const failedFirst = await metricsOf(worker!);
    expect(
      counterValue(failedFirst, 'vitrine_dependency_retries_total', { dependency: 'webhook_receiver' }),
    ).toBeGreaterThanOrEqual(3);
    expect(await cluster.stop(worker!)).toBe(0);
    await cluster.start('worker');
    await expectNothingLost(cluster, account, Object.values(jobs), []);
    const deliveries = await eventually(
      'every webhook to be delivered',
      async () => {
        const rows = await cluster.query<{ job_id: string; status: string; attempts: number }>(
          'SELECT job_id, status, attempts FROM webhook_deliveries WHERE job_id = ANY($1)',
          [Object.values(jobs)],
        );
        return rows.every((row) => row.status === 'delivered') ? rows : undefined;
      },
      180_000,
    );
    expect(deliveries).toHaveLength(3);
    for (const [mode, id] of Object.entries(jobs)) {
      const times = attempts.get(id) ?? [];
      expect(times.length, mode).toBeGreaterThanOrEqual(2);
      // The retry comes on schedule: about 5 s (±20 %) after the failed attempt ended, never
      // at once; a hung attempt ends at the 2 s delivery timeout.
      expect(times[1]! - times[0]!, mode).toBeGreaterThanOrEqual(4000);
    }
  }, 600_000);
});
