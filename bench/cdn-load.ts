import http from 'node:http';
import { parentPort, Worker, workerData } from 'node:worker_threads';

export interface CdnLoadResult {
  requests: number;
  failed: number;
  seconds: number;
  perSecond: number;
  connections: number;
}

interface LoadOptions {
  url: string;
  connections: number;
  durationMs: number;
}

/** Keep-alive GET loops, one per connection, until the time is up. */
async function load({ url, connections, durationMs }: LoadOptions): Promise<CdnLoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const started = performance.now();
  let requests = 0;
  let failed = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      http
        .get(url, { agent }, (res) => {
          res.on('data', () => undefined);
          res.on('end', () => {
            if (res.statusCode === 200) requests += 1;
            else failed += 1;
            resolve();
          });
        })
        .on('error', () => {
          failed += 1;
          resolve();
        });
    });
  const loop = async () => {
    while (performance.now() - started < durationMs) await one();
  };
  await Promise.all(Array.from({ length: connections }, loop));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { requests, failed, seconds, perSecond: Math.round(requests / seconds), connections };
}

/**
 * P4's CDN figure: requests per second for one image on GET /cdn/r/{id}.{ext} over loopback.
 * The client runs in a worker thread, so it does not share the service's event loop (it does
 * share the machine's cores, which makes the figure a lower bound).
 */
export function cdnLoad(options: LoadOptions): Promise<CdnLoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: options });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

if (parentPort && workerData) {
  const port = parentPort;
  load(workerData as LoadOptions).then((result) => port.postMessage(result));
}
