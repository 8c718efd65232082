import { describe, expect, it } from 'vitest';
import {
  createJobsRepository,
  createWebhookDeliveriesRepository,
  type WebhookDeliveryRow,
} from '../../packages/server/src/db/jobs-repository.ts';
import { ENGINES } from '../support/test-app.ts';
import { at, id, insertUser, jobRow, useRepositoryDatabase } from './repository-kit.ts';

describe.each(ENGINES)('jobs and webhook deliveries repositories on %s', (engine) => {
  const { db } = useRepositoryDatabase(engine);
  const delivery = (jobId: string, userId: string): WebhookDeliveryRow => ({
    id: id('whd'),
    job_id: jobId,
    user_id: userId,
    project_id: null,
    url: 'https://hooks.example.com/',
    body: '{}',
    status: 'pending',
    attempts: 0,
    last_status_code: null,
    last_error: null,
    created_at: at(0),
    updated_at: at(0),
    finished_at: null,
  });

  it("finds a job for its account only; another account's id looks unknown", async () => {
    const jobs = createJobsRepository(db());
    const owner = await insertUser(db());
    const other = await insertUser(db());
    const row = jobRow(owner.id);
    await jobs.insert(row);
    expect(await jobs.find(owner.id, row.id)).toEqual(row);
    expect(await jobs.find(other.id, row.id)).toBeUndefined();
    expect(await jobs.findById(row.id)).toEqual(row);
  });

  it('lists pending jobs oldest first, up to the limit', async () => {
    const jobs = createJobsRepository(db());
    const owner = await insertUser(db());
    // Far in the past, so they come before the other tests' pending jobs.
    const second = jobRow(owner.id, { created_at: at(-2000) });
    const first = jobRow(owner.id, { created_at: at(-3000) });
    const done = jobRow(owner.id, { created_at: at(-4000), status: 'completed', completed_at: at(1) });
    for (const row of [second, first, done]) await jobs.insert(row);
    expect(await jobs.pendingIds(2)).toEqual([first.id, second.id]);
  });

  it('finishes a pending job once, with its outbox event in the same transaction', async () => {
    const jobs = createJobsRepository(db());
    const deliveries = createWebhookDeliveriesRepository(db());
    const owner = await insertUser(db());
    const row = jobRow(owner.id, { webhook_url: 'https://hooks.example.com/' });
    await jobs.insert(row);
    const event = delivery(row.id, owner.id);
    const outcome = { status: 'completed' as const, result: '{"id":"cap"}', completedAt: at(10) };
    expect(await jobs.finish(row.id, outcome, event)).toBe(true);
    expect(await jobs.find(owner.id, row.id)).toMatchObject({
      status: 'completed',
      result: '{"id":"cap"}',
      error: null,
      completed_at: at(10),
      webhook_status: 'pending',
    });
    expect(await deliveries.find(event.id)).toEqual(event);
    // A re-delivery changes nothing and adds no second event.
    const again = delivery(row.id, owner.id);
    expect(await jobs.finish(row.id, { status: 'failed', error: 'late', completedAt: at(20) }, again)).toBe(
      false,
    );
    expect((await jobs.find(owner.id, row.id))?.status).toBe('completed');
    expect(await deliveries.find(again.id)).toBeUndefined();
  });

  it('records a failed job without a webhook', async () => {
    const jobs = createJobsRepository(db());
    const owner = await insertUser(db());
    const row = jobRow(owner.id);
    await jobs.insert(row);
    expect(
      await jobs.finish(row.id, { status: 'failed', error: 'Page failed', completedAt: at(3) }, undefined),
    ).toBe(true);
    expect(await jobs.find(owner.id, row.id)).toMatchObject({
      status: 'failed',
      error: 'Page failed',
      result: null,
      webhook_status: null,
    });
  });

  it('counts attempts of a pending delivery and settles it once, updating its job', async () => {
    const jobs = createJobsRepository(db());
    const deliveries = createWebhookDeliveriesRepository(db());
    const owner = await insertUser(db());
    const row = jobRow(owner.id, { webhook_url: 'https://hooks.example.com/' });
    await jobs.insert(row);
    const event = delivery(row.id, owner.id);
    await jobs.finish(row.id, { status: 'completed', result: '{}', completedAt: at(1) }, event);
    expect(await deliveries.pendingIds(1000)).toContain(event.id);
    await deliveries.recordAttempt(event.id, { statusCode: 500, error: 'HTTP 500', now: at(2) });
    expect(await deliveries.find(event.id)).toMatchObject({
      attempts: 1,
      last_status_code: 500,
      status: 'pending',
    });
    expect(await deliveries.settle(event.id, 'delivered', { statusCode: 200, error: null, now: at(3) })).toBe(
      true,
    );
    expect(await deliveries.settle(event.id, 'failed', { statusCode: null, error: 'x', now: at(4) })).toBe(
      false,
    );
    await deliveries.recordAttempt(event.id, { statusCode: 500, error: 'late', now: at(5) });
    expect(await deliveries.find(event.id)).toMatchObject({
      status: 'delivered',
      attempts: 2,
      last_status_code: 200,
      finished_at: at(3),
    });
    expect((await jobs.find(owner.id, row.id))?.webhook_status).toBe('delivered');
    expect(await deliveries.pendingIds(1000)).not.toContain(event.id);
  });
});
