import crypto from 'node:crypto';
import {
  BATCH_LIMITS,
  type Batch,
  type BatchRequest,
  type BatchWebhookPayload,
  type CaptureRequest,
  type CaptureResult,
  captureRequestSchema,
  stableJson,
} from '@vitrine/contract';
import type { Insertable } from 'kysely';
import { utcMonth } from '../auth/accounts.ts';
import type { Principal } from '../auth/authenticate.ts';
import type { CaptureService, TargetChecker } from '../captures/capture-service.ts';
import { type Clock, isoNow } from '../clock.ts';
import type { BatchesRepository, BatchJobState, BatchRow } from '../db/batches-repository.ts';
import type { JobRow, WebhookDeliveryRow } from '../db/jobs-repository.ts';
import type { JobsTable } from '../db/tables.ts';
import { AppError, invalidParam, notFound } from '../errors/app-error.ts';
import { invalidParamsFromZod } from '../http/error-response.ts';
import { newId, newInternalId } from '../ids.ts';
import type { JobQueue } from '../queue/job-queue.ts';
import { type CaptureJobPayload, pendingJobRow } from './job-service.ts';
import type { WebhookJobPayload } from './webhook-delivery.ts';

export interface BatchServiceDeps {
  batches: BatchesRepository;
  captures: Pick<CaptureService, 'resolve'>;
  targets: Pick<TargetChecker, 'checkUrl'>;
  queue: JobQueue<CaptureJobPayload>;
  webhooks: JobQueue<WebhookJobPayload>;
  clock: Clock;
  /**
   * How many of a batch's renders may be in the capture queue at once (the service's job
   * concurrency): the rest wait, held, so other accounts' jobs queued meanwhile get in between.
   */
  window: number;
  onError?: (error: unknown, context: string) => void;
}

/** The outbox id of a batch's own event (its job events are `msg_<job ulid>`). */
export function batchWebhookIdOf(batchId: string): string {
  return `msg_${batchId}`;
}

/** Prefixes the paths of a 400 (and the message of any other refusal) with the item's index. */
function forItem(error: unknown, index: number, look: string | null): unknown {
  if (!(error instanceof AppError)) return error;
  const where = `items[${index}]`;
  const lookNote = look === null ? '' : ` (look ${look})`;
  if (error.code === 'invalid_params') {
    const issues = ((error.details?.issues as { path: string; message: string }[] | undefined) ?? []).map(
      (issue) => ({
        path: issue.path ? `${where}.${issue.path}` : where,
        message: `${where}${lookNote}: ${issue.message}`,
        index,
        ...(look === null ? {} : { look }),
      }),
    );
    const first = issues[0]?.message ?? `${where}${lookNote}: ${error.message}`;
    return new AppError('invalid_params', first, { details: { ...error.details, issues } });
  }
  return new AppError(error.code, `${where}${lookNote}: ${error.message}`, {
    details: { ...error.details, index, ...(look === null ? {} : { look }) },
    cause: error,
    retryAfter: error.retryAfter,
  });
}

/** The body of one render: defaults, then the item, then the look; always a queued job. */
function mergedBody(
  body: BatchRequest,
  item: BatchRequest['items'][number],
  look: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const own = typeof item === 'string' ? { url: item } : item;
  if ('async' in own || 'async' in (body.defaults ?? {}) || (look && 'async' in look)) {
    throw invalidParam('async', 'A batch always queues its renders: leave async out');
  }
  return { ...body.defaults, ...own, ...look, async: true };
}

/**
 * Batches (issue 39): many captures in one call. Every render (item x look) is resolved by the
 * capture service's resolver before anything is charged or queued; the batch, the credits of
 * all its renders and its jobs are then written in one transaction. The renders are ordinary
 * jobs (the worker, the runner's credits, crash recovery and per-item webhooks are the async
 * capture's), let into the capture queue a window at a time by `pump`.
 */
export function createBatchService(deps: BatchServiceDeps) {
  const { batches, clock } = deps;

  async function create(
    body: BatchRequest,
    principal: Principal,
    idempotencyKey: string | undefined,
  ): Promise<{ batch: Batch; replayed: boolean }> {
    const requestHash = crypto.createHash('sha256').update(stableJson(body)).digest('hex');
    if (idempotencyKey !== undefined) {
      const existing = await batches.findByKey(principal.userId, idempotencyKey);
      if (existing) return { batch: await replay(existing, requestHash), replayed: true };
    }
    const lookNames = Object.keys(body.looks ?? {});
    if (lookNames.length > BATCH_LIMITS.looks) {
      throw invalidParam('looks', `At most ${BATCH_LIMITS.looks} looks in a batch`);
    }
    const renders = body.items.length * Math.max(1, lookNames.length);
    if (renders > BATCH_LIMITS.renders) {
      throw invalidParam(
        'items',
        `items x looks is ${renders}; a batch renders at most ${BATCH_LIMITS.renders} (split it)`,
      );
    }
    if (body.webhook_url !== undefined) {
      await deps.targets.checkUrl(body.webhook_url, { field: 'webhook_url', allowBareHost: false });
    }
    const batchId = newId('batch');
    const now = isoNow(clock);
    const looks: (string | null)[] = lookNames.length > 0 ? lookNames : [null];
    const jobs: Insertable<JobsTable>[] = [];
    const entries: { id: string; kind: string; amount: number }[] = [];
    let projectId: string | null = null;
    for (const [index, item] of body.items.entries()) {
      for (const [rank, look] of looks.entries()) {
        let request: CaptureRequest;
        try {
          const merged = mergedBody(body, item, look === null ? undefined : body.looks?.[look]);
          const parsed = captureRequestSchema.safeParse(merged);
          if (!parsed.success) throw invalidParamsFromZod(parsed.error);
          request = parsed.data;
        } catch (error) {
          throw forItem(error, index, look);
        }
        const resolved = await deps.captures
          .resolve(request, principal, 'capture')
          .catch((error: unknown) => {
            throw forItem(error, index, look);
          });
        const { capture, delivery } = resolved;
        if (index === 0 && rank === 0) projectId = capture.projectId;
        const amount = principal.mode === 'test' ? 0 : capture.cost;
        const reservationId = newInternalId('crd');
        entries.push({ id: reservationId, kind: capture.kind, amount });
        jobs.push({
          ...pendingJobRow(principal, capture, { id: reservationId, amount }, delivery.webhookUrl, now),
          batch_id: batchId,
          batch_index: index,
          batch_look: look,
          batch_look_rank: rank,
          held: 1,
        });
      }
    }
    const total = entries.reduce((sum, entry) => sum + entry.amount, 0);
    const row: BatchRow = {
      id: batchId,
      user_id: principal.userId,
      api_key_id: principal.keyId,
      project_id: projectId,
      idempotency_key: idempotencyKey ?? null,
      request_hash: requestHash,
      status: 'running',
      looks: JSON.stringify(lookNames),
      total: jobs.length,
      credits_reserved: total,
      webhook_url: body.webhook_url ?? null,
      created_at: now,
      completed_at: null,
    };
    const outcome = await batches.create(row, jobs, {
      userId: principal.userId,
      apiKeyId: principal.keyId,
      period: utcMonth(clock()),
      now,
      entries,
    });
    if (outcome.status === 'insufficient') {
      throw new AppError(
        'insufficient_credits',
        `This batch costs ${total} credits and ${outcome.remaining} remain`,
        { details: { required: total, remaining: outcome.remaining } },
      );
    }
    if (outcome.status === 'existing') {
      return { batch: await replay(outcome.batch, requestHash), replayed: true };
    }
    await pump(batchId);
    return { batch: await view(row), replayed: false };
  }

  /** A retried POST: the batch its key made, unless the body differs (409). */
  async function replay(existing: BatchRow, requestHash: string): Promise<Batch> {
    if (existing.request_hash !== requestHash) {
      throw new AppError(
        'conflict',
        'This Idempotency-Key was used for a different batch; use a new key for a new batch',
      );
    }
    return view(existing);
  }

  async function view(row: BatchRow): Promise<Batch> {
    const jobs = await batches.jobs(row.id);
    const counts = countsOf(jobs);
    return {
      id: row.id as Batch['id'],
      status: row.status,
      counts,
      credits_reserved: row.credits_reserved,
      looks: JSON.parse(row.looks) as string[],
      renders: jobs.map((job) => ({
        index: job.batch_index ?? 0,
        look: job.batch_look,
        url: urlOf(job),
        job_id: job.id as Batch['renders'][number]['job_id'],
        status: job.status,
        result: job.result === null ? null : (JSON.parse(job.result) as CaptureResult),
        error: job.error,
      })),
      webhook_url: row.webhook_url,
      webhook_status: row.webhook_url === null ? null : ((await batches.webhookStatus(row.id)) ?? 'pending'),
      created_at: row.created_at,
      completed_at: row.completed_at,
    };
  }

  /** A batch of this account; 404 for unknown ids and other accounts' batches alike. */
  async function get(userId: string, id: string): Promise<Batch> {
    const row = await batches.find(userId, id);
    if (!row) throw notFound(`Batch ${id}`);
    return view(row);
  }

  /**
   * Moves a batch along; idempotent, run after each of its jobs ends, at create, and by the
   * sweep (a process that died between a job's end and this call). Lets held jobs into the
   * capture queue until `window` of them are there: first the other looks of items whose first
   * look has ended (their page is in the capture-level cache now), then the next items' first
   * looks. A job released earlier whose enqueue never landed is queued again by the job sweep.
   * When no job is left pending, the batch ends and its webhook event goes to the outbox.
   */
  async function pump(batchId: string): Promise<void> {
    const states = await batches.jobStates(batchId);
    const pending = states.filter((job) => job.status === 'pending');
    if (pending.length === 0) {
      await finish(batchId, states);
      return;
    }
    const inQueue = pending.filter((job) => job.held === 0).length;
    const room = deps.window - inQueue;
    if (room <= 0) return;
    const firstLookEnded = new Set(
      states
        .filter((job) => job.batch_look_rank === 0 && job.status !== 'pending')
        .map((job) => job.batch_index),
    );
    const held = pending.filter((job) => job.held === 1);
    const nextLooks = held.filter(
      (job) => (job.batch_look_rank ?? 0) > 0 && firstLookEnded.has(job.batch_index),
    );
    const firstLooks = held.filter((job) => (job.batch_look_rank ?? 0) === 0);
    const order = (a: BatchJobState, b: BatchJobState) =>
      (a.batch_index ?? 0) - (b.batch_index ?? 0) || (a.batch_look_rank ?? 0) - (b.batch_look_rank ?? 0);
    const candidates = [...nextLooks.sort(order), ...firstLooks.sort(order)].slice(0, room);
    if (candidates.length === 0) return;
    const released = await batches.release(candidates.map((job) => job.id));
    for (const id of released) {
      await deps.queue
        .enqueue(id, { jobId: id })
        .catch((error: unknown) => deps.onError?.(error, 'batch enqueue'));
    }
  }

  async function finish(batchId: string, states: BatchJobState[]): Promise<void> {
    const row = await batches.findById(batchId);
    if (row?.status !== 'running') {
      if (row?.webhook_url && (await batches.webhookStatus(batchId)) === 'pending') {
        await deps.webhooks.enqueue(batchWebhookIdOf(batchId), { deliveryId: batchWebhookIdOf(batchId) });
      }
      return;
    }
    const now = isoNow(clock);
    let delivery: WebhookDeliveryRow | undefined;
    if (row.webhook_url !== null) {
      const payload: BatchWebhookPayload = {
        batch_id: row.id as BatchWebhookPayload['batch_id'],
        status: 'completed',
        counts: countsOf(states),
      };
      delivery = {
        id: batchWebhookIdOf(row.id),
        job_id: row.id,
        user_id: row.user_id,
        project_id: row.project_id,
        url: row.webhook_url,
        body: JSON.stringify(payload),
        status: 'pending',
        attempts: 0,
        last_status_code: null,
        last_error: null,
        created_at: now,
        updated_at: now,
        finished_at: null,
      };
    }
    const completed = await batches.complete(batchId, now, delivery);
    if (completed && delivery) await deps.webhooks.enqueue(delivery.id, { deliveryId: delivery.id });
  }

  /** The sweep's half for batches: every running batch moved along (see `pump`). */
  async function sweep(limit = 200): Promise<number> {
    const ids = await batches.runningIds(limit);
    for (const id of ids) await pump(id);
    return ids.length;
  }

  /** After a job ended (the job worker): its batch moved along. */
  async function jobEnded(job: Pick<JobRow, 'batch_id'>): Promise<void> {
    if (job.batch_id !== null) await pump(job.batch_id);
  }

  return { create, get, pump, sweep, jobEnded };
}

function countsOf(jobs: Pick<JobRow, 'status'>[]): Batch['counts'] {
  const counts = { total: jobs.length, pending: 0, completed: 0, failed: 0 };
  for (const job of jobs) counts[job.status]++;
  return counts;
}

function urlOf(job: JobRow): string {
  try {
    return String((JSON.parse(job.request) as { page: { url: string } }).page.url);
  } catch {
    return '';
  }
}

export type BatchService = ReturnType<typeof createBatchService>;
