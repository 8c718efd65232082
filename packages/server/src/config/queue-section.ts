import { z } from 'zod';
import { section, variable } from './variable.ts';

const positiveInt = z.coerce.number().int().min(1);

/** Async jobs and webhook delivery (docs/api-decisions.md section 5, security.md section 5). */
export const queueSection = section('Queue and webhooks', {
  workerConcurrency: variable({
    env: 'VITRINE_WORKER_CONCURRENCY',
    schema: positiveInt.max(256),
    form: 'an integer from 1 to 256',
    description:
      'Async capture jobs one process works on at once (they share the browser pool with sync captures).',
    defaultText: '2',
  }),
  jobLeaseMs: variable({
    env: 'VITRINE_JOB_LEASE_MS',
    schema: positiveInt.min(1000).max(3_600_000),
    form: 'milliseconds, from 1000 to 3600000',
    description:
      'How long a worker holds a job without renewing it; a job whose worker died is delivered again after this.',
    defaultText: '60000',
  }),
  pollIntervalMs: variable({
    env: 'VITRINE_QUEUE_POLL_MS',
    schema: positiveInt.max(60_000),
    form: 'milliseconds, up to 60000',
    description: 'Longest wait before a worker looks for jobs queued by another process.',
    defaultText: '500',
  }),
  jobSweepMs: variable({
    env: 'VITRINE_JOB_SWEEP_MS',
    schema: positiveInt.min(500).max(3_600_000),
    form: 'milliseconds, from 500 to 3600000',
    description:
      'How often a worker re-queues accepted jobs and webhook deliveries its queue no longer holds (Redis restarted without persistence, an enqueue that failed).',
    defaultText: '30000',
  }),
  webhookTimeoutMs: variable({
    env: 'VITRINE_WEBHOOK_TIMEOUT_MS',
    schema: positiveInt.max(120_000),
    form: 'milliseconds, up to 120000',
    description: 'A webhook delivery counts as successful only with a 2xx answer within this time.',
    defaultText: '15000',
  }),
});
