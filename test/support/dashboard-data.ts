import type { ServerResponse } from 'node:http';
import type { RunningServer } from './fixture-server.ts';

/**
 * Serves the data of `animations/charts.html?fetched` after `delayMs`, as a dashboard's API
 * answering after the page's load: the same data as the page's inline copy, which `?static`
 * draws without animations (the settled page a capture must match).
 */
export function serveDashboardData(server: RunningServer, delayMs: number): void {
  const slowJson = (body: unknown) => (_req: unknown, res: ServerResponse) => {
    setTimeout(
      () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
      delayMs,
    );
  };
  server.route(
    '/dashboard-data',
    slowJson({
      line: [12, 19, 14, 25, 22, 30, 28, 36],
      doughnut: [55, 30, 15],
      bar: [8, 15, 11, 19, 24, 17, 29, 33],
    }),
  );
  server.route('/dashboard-figures', slowJson({ visitors: 48213, revenue: 93750, orders: 1284 }));
}
