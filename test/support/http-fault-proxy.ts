import http from 'node:http';
import type net from 'node:net';

/**
 * What the proxy does with each request: `pass` forwards it, `unavailable` answers 503 the way
 * S3 does when it sheds load (`SlowDown`), `hang` accepts it and never answers (a store that
 * stopped responding: the client's own timeout must end the wait).
 */
export type FaultMode = 'pass' | 'unavailable' | 'hang';

export interface HttpFaultProxy {
  /** `http://127.0.0.1:port`, to use instead of the upstream's address. */
  url: string;
  mode: FaultMode;
  /** Requests seen per mode since the start, to show a fault was actually hit. */
  counts: Record<FaultMode, number>;
  close(): Promise<void>;
}

const SLOW_DOWN = `<?xml version="1.0" encoding="UTF-8"?>
<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>`;

/**
 * A fault injector in front of an HTTP service (the fault suite puts it in front of s3rver): a
 * plain forwarding proxy whose `mode` can be switched at any time; switching back to `pass`
 * cuts the requests left hanging.
 */
export async function startHttpFaultProxy(upstream: string): Promise<HttpFaultProxy> {
  const target = new URL(upstream);
  const hanging = new Set<net.Socket>();
  const counts: Record<FaultMode, number> = { pass: 0, unavailable: 0, hang: 0 };
  let mode: FaultMode = 'pass';
  const server = http.createServer((req, res) => {
    const current = mode;
    counts[current]++;
    if (current === 'unavailable') {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/xml', 'retry-after': '1' }).end(SLOW_DOWN);
      return;
    }
    if (current === 'hang') {
      req.resume();
      hanging.add(req.socket);
      req.socket.once('close', () => hanging.delete(req.socket));
      return;
    }
    const forward = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (upstreamRes) => {
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
        upstreamRes.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    get mode() {
      return mode;
    },
    set mode(next: FaultMode) {
      mode = next;
      if (next !== 'hang') for (const socket of hanging) socket.destroy();
    },
    async close() {
      for (const socket of hanging) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
