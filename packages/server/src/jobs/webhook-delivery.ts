import type { Clock } from '../clock.ts';
import type { WebhookDeliveriesRepository } from '../db/jobs-repository.ts';
import { AppError } from '../errors/app-error.ts';
import type { GuardedFetch } from '../netpolicy/guarded-fetch.ts';
import type { JobHandler } from '../queue/job-consumer.ts';
import type { JobQueue } from '../queue/job-queue.ts';
import type { WebhookSecretLookup } from './webhook-secret.ts';
import { signWebhook } from './webhook-signature.ts';

/** What the webhook queue carries: the outbox row to deliver. */
export interface WebhookJobPayload {
  deliveryId: string;
}

export interface WebhookDelivererDeps {
  deliveries: WebhookDeliveriesRepository;
  guardedFetch: GuardedFetch;
  signingSecret: WebhookSecretLookup;
  clock: Clock;
  /** A 2xx within this time is success (contract: 15 s). */
  timeoutMs: number;
  /** Largest response body read from the receiver (default 64 KiB). */
  maxResponseBytes?: number;
  userAgent?: string;
}

/** A failed attempt; thrown to the queue so that it retries after its backoff. */
export class WebhookAttemptFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookAttemptFailed';
  }
}

const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

function failureOf(error: unknown): { reason: string; final: boolean } {
  if (error instanceof AppError && error.code === 'target_not_allowed') {
    return { reason: `Refused by the network policy: ${error.message}`, final: true };
  }
  if (error instanceof AppError && error.details?.reason === 'too_large') {
    return { reason: 'The receiver answered with a body over the size limit', final: false };
  }
  if (error instanceof AppError) return { reason: 'The receiver could not be reached', final: false };
  throw error;
}

/**
 * Delivers one outbox event per attempt: signed per Standard Webhooks (`webhook-id` stable,
 * `webhook-timestamp` fresh), POSTed through the guarded fetch (so the URL is checked again now:
 * a host that started resolving to a private address is refused, for good), no redirects
 * (3xx fails), bounded response, 2xx = delivered. Other failures are recorded and retried by
 * the queue; the last attempt, or a refusal, sets `webhook_status: failed`.
 */
export function createWebhookDeliverer(deps: WebhookDelivererDeps): JobHandler<WebhookJobPayload> {
  const { deliveries, clock } = deps;
  const now = () => clock().toISOString();

  return async (lease, signal) => {
    const row = await deliveries.find(lease.payload.deliveryId);
    if (row?.status !== 'pending') return;
    const secret = await deps.signingSecret(row.user_id, row.project_id);
    const timestamp = Math.floor(clock().getTime() / 1000);
    let statusCode: number | null = null;
    let failure: { reason: string; final: boolean };
    try {
      const response = await deps.guardedFetch(row.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': deps.userAgent ?? 'Vitrine-Webhooks',
          'webhook-id': row.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(secret, row.id, timestamp, row.body),
        },
        body: row.body,
        maxBytes: deps.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
        timeoutMs: deps.timeoutMs,
        signal,
        field: 'webhook_url',
      });
      statusCode = response.status;
      if (statusCode >= 200 && statusCode < 300) {
        await deliveries.settle(row.id, 'delivered', { statusCode, error: null, now: now() });
        return;
      }
      failure = {
        reason:
          statusCode >= 300 && statusCode < 400
            ? `Redirect (${statusCode}) not followed`
            : `HTTP ${statusCode}`,
        final: false,
      };
    } catch (error) {
      if (signal.aborted) throw error;
      failure = failureOf(error);
    }
    if (failure.final || lease.attempt >= lease.maxAttempts) {
      await deliveries.settle(row.id, 'failed', { statusCode, error: failure.reason, now: now() });
      return;
    }
    await deliveries.recordAttempt(row.id, { statusCode, error: failure.reason, now: now() });
    throw new WebhookAttemptFailed(failure.reason);
  };
}

/** Re-enqueues every pending outbox event (idempotent): run at start, after a crash. */
export async function recoverWebhookDeliveries(
  deliveries: WebhookDeliveriesRepository,
  queue: JobQueue<WebhookJobPayload>,
  batch = 1000,
): Promise<number> {
  const ids = await deliveries.pendingIds(batch);
  for (const deliveryId of ids) await queue.enqueue(deliveryId, { deliveryId });
  return ids.length;
}

/**
 * The sweep's half for webhooks (job-sweeper.ts): pending deliveries the queue no longer holds
 * (Redis restarted without persistence) are queued again; ones it holds, waiting for their next
 * retry, are left to their schedule. Returns how many were queued again.
 */
export async function sweepWebhookDeliveries(
  deliveries: WebhookDeliveriesRepository,
  queue: JobQueue<WebhookJobPayload>,
  batch = 1000,
): Promise<number> {
  let requeued = 0;
  for (const deliveryId of await deliveries.pendingIds(batch)) {
    if ((await queue.state(deliveryId)) !== 'missing') continue;
    await queue.enqueue(deliveryId, { deliveryId });
    requeued++;
  }
  return requeued;
}
