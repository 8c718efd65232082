import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

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
  return { registry, httpDuration, renderPhases };
}

export type Metrics = ReturnType<typeof createMetrics>;
