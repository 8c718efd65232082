import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** The service's Prometheus registry; one per app instance (no global state). */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'vitrine_' });
  const httpDuration = new Histogram({
    name: 'vitrine_http_request_duration_seconds',
    help: 'HTTP request duration by route',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const renderPhases = new Histogram({
    name: 'vitrine_render_phase_seconds',
    help: 'Time per render phase (context, navigation, waits, capture, compose, encode, store)',
    labelNames: ['kind', 'phase'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  // Issue 41: what each dependency's outages cost, for alerts (docs/operations.md).
  const dependencyFailures = new Counter({
    name: 'vitrine_dependency_failures_total',
    help: 'Requests and job attempts that failed because of a dependency (database, redis, object_store, blob_store, browser, webhook_receiver), by operation (request, job, webhook)',
    labelNames: ['dependency', 'operation'] as const,
    registers: [registry],
  });
  const dependencyRetries = new Counter({
    name: 'vitrine_dependency_retries_total',
    help: 'Failed job attempts and webhook deliveries that will be retried, by the dependency that failed them',
    labelNames: ['dependency', 'operation'] as const,
    registers: [registry],
  });
  const dependencyUp = new Gauge({
    name: 'vitrine_dependency_up',
    help: '1 when the last /readyz check of the dependency passed, 0 when it failed',
    labelNames: ['dependency'] as const,
    registers: [registry],
  });
  const jobsRequeued = new Counter({
    name: 'vitrine_jobs_requeued_total',
    help: 'Accepted jobs and webhook deliveries the sweeper queued again because their queue had lost them (captures, webhooks), or settled because their queue had given up on them (captures_settled), and stale credit reservations refunded (stale_reservations)',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  return {
    registry,
    httpDuration,
    renderPhases,
    dependencyFailures,
    dependencyRetries,
    dependencyUp,
    jobsRequeued,
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
