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
 * Issue 41, the part of the fault suite that runs in `make test`: one API and one worker process
 * on their own PostgreSQL, a redis-server without persistence and s3rver behind a fault proxy.
 * Redis restarted empty, PostgreSQL restarted under a burst, the object store answering 503.
 * The outages here last a few seconds: what is asserted (nothing lost, clear errors, readiness)
 * does not depend on their length; `make faults` runs the long ones (test/faults/README.md).
 */
describe('faults: Redis, PostgreSQL and the object store fail under load (api + worker)', () => {
  let cluster: FaultCluster;

  beforeAll(async () => {
    cluster = await startFaultCluster({ roles: ['api', 'worker'], storage: 's3', redisPersistence: false });
  }, 300_000);

  // A scenario that fails mid-fault must not leave the next one without its services.
  afterEach(async () => {
    if (cluster.s3Proxy) cluster.s3Proxy.mode = 'pass';
    await cluster.redis?.up().catch(() => undefined);
    await cluster.postgres.up().catch(() => undefined);
  }, 120_000);

  afterAll(async () => {
    await cluster?.close();
  }, 120_000);

  it('Redis restarted without persistence: jobs queued before and accepted during the outage all finish once', async () => {
    const account = { ...(await cluster.createKey(100)), credits: 100 };
    const client = clientOf(cluster, account.key);
    // More jobs than the worker does at once: some are still waiting in Redis when it goes.
    const before = await submitJobs(cluster, client, 'redis-before', 10);
    await cluster.redis!.down();
    await expectReadiness(cluster, 'redis', 'failing');
    // The database is the record: a job is accepted while its queue is away...
    const during = await submitJobs(cluster, client, 'redis-during', 2);
    // ...and a sync capture does not need Redis at all (rate limits fall back to each process).
    const sync = await syncBurst(cluster, client, 'redis-during', 1, 1);
    expect(sync[0]?.status, JSON.stringify(sync[0])).toBe(201);
    await cluster.redis!.up();
    await expectReadiness(cluster, 'redis', 'ok');
    const outcome = await expectNothingLost(cluster, account, [...before, ...during], sync);
    expect(outcome.completed).toBe(12);
    // The jobs Redis lost were queued again by a sweep (every process sweeps).
    let requeued = 0;
    for (const proc of cluster.live()) {
      requeued += counterValue(await metricsOf(proc), 'vitrine_jobs_requeued_total', { queue: 'captures' });
    }
    expect(requeued).toBeGreaterThan(0);
  }, 400_000);

  it('PostgreSQL restarted during a burst of sync and async captures: every one completes or fails cleanly', async () => {
    const account = { ...(await cluster.createKey(100)), credits: 100 };
    const client = clientOf(cluster, account.key);
    const jobs = await submitJobs(cluster, client, 'pg-restart', 6);
    const burst = syncBurst(cluster, client, 'pg-restart', 6, 2);
    // Restart once work is under way: the first job has finished.
    await eventually('a first job to complete', async () => {
      const res = await client.get(`/v1/jobs/${jobs[0]}`);
      return res.body.status === 'pending' ? undefined : true;
    });
    await cluster.postgres.down();
    await expectReadiness(cluster, 'database', 'failing');
    // A request that needs the database gets a clear 503 naming it.
    const refused = await client.get(`/v1/jobs/${jobs[0]}`);
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatchObject({ code: 'overloaded', details: { dependency: 'database' } });
    await sleep(3000);
    await cluster.postgres.up();
    await expectReadiness(cluster, 'database', 'ok');
    const sync = await burst;
    await expectNothingLost(cluster, account, jobs, sync);
    const api = cluster.live('api')[0]!;
    expect(
      counterValue(await metricsOf(api), 'vitrine_dependency_failures_total', { dependency: 'database' }),
    ).toBeGreaterThan(0);
  }, 400_000);

  it('the object store answering 503: sync captures get a clear 503, jobs retry, no result without its image', async () => {
    const account = { ...(await cluster.createKey(100)), credits: 100 };
    const client = clientOf(cluster, account.key);
    const proxy = cluster.s3Proxy!;
    proxy.mode = 'unavailable';
    await expectReadiness(cluster, 'object_store', 'failing');
    const jobs = await submitJobs(cluster, client, 's3-503', 3);
    const sync = await syncBurst(cluster, client, 's3-503', 2, 2);
    for (const outcome of sync) {
      expect(outcome.status, JSON.stringify(outcome.body)).toBe(503);
      expect(outcome.body.error).toMatchObject({
        code: 'overloaded',
        details: { dependency: 'object_store' },
      });
    }
    expect(proxy.counts.unavailable).toBeGreaterThan(0);
    await sleep(4000);
    proxy.mode = 'pass';
    await expectReadiness(cluster, 'object_store', 'ok');
    await expectNothingLost(cluster, account, jobs, sync);
    const api = cluster.live('api')[0]!;
    expect(
      counterValue(await metricsOf(api), 'vitrine_dependency_failures_total', {
        dependency: 'object_store',
        operation: 'request',
      }),
    ).toBeGreaterThanOrEqual(2);
  }, 400_000);
});
