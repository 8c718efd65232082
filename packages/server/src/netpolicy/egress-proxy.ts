import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { AppError } from '../errors/app-error.ts';
import { type Dialer, dialTcp, endToEndHeaders, openCheckedConnection } from './egress-dialer.ts';
import { effectivePort, type TargetPolicy } from './target-policy.ts';
import { UpstreamPool } from './upstream-pool.ts';

/**
 * Response header the proxy sets on its own 403 and 502 answers to plain-HTTP requests, so the
 * capture stage can tell a proxy verdict from a page's own status: `denied` or `unreachable`.
 */
export const EGRESS_VERDICT_HEADER = 'x-vitrine-egress';

/** The subset of a pino logger the proxy uses. */
export interface EgressLogger {
  debug(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface EgressProxyOptions {
  policy: TargetPolicy;
  logger?: EgressLogger;
  /** Opens upstream TCP connections; defaults to {@link dialTcp}. */
  dial?: Dialer;
  /** DNS plus TCP connect, per upstream connection (default 10000 ms). */
  connectTimeoutMs?: number;
  /** A socket with no traffic for this long is destroyed (default 60000 ms). */
  idleTimeoutMs?: number;
}

/** Upstream connections decided since start: opened, refused by policy, or failed to connect. */
export interface EgressStats {
  allowed: number;
  denied: number;
  failed: number;
  /** Sockets open right now (client and upstream). */
  openSockets: number;
}

export interface EgressProxy {
  /** `http://127.0.0.1:<port>`, for Chromium's `--proxy-server`. */
  url: string;
  port: number;
  stats(): EgressStats;
  /** Stops listening and destroys every open socket. */
  close(): Promise<void>;
}

type Verdict = 'denied' | 'unreachable';

/**
 * How long a kept upstream connection waits for the page's next request: a capture's requests come
 * within a few seconds, and a server that announces a shorter keep-alive is believed (Node's agent
 * closes a second before it).
 */
const UPSTREAM_IDLE_KEEP_MS = 4000;
/** Times a request without a body is sent again after a kept connection turned out closed. */
const STALE_CONNECTION_RETRIES = 2;

const CONNECT_AUTHORITY = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s/]+):(\d{1,5})$/;

function verdictOf(error: unknown): Verdict {
  return error instanceof AppError && error.code === 'target_not_allowed' ? 'denied' : 'unreachable';
}

function statusLine(verdict: Verdict): string {
  return verdict === 'denied' ? '403 Forbidden' : '502 Bad Gateway';
}

const VERDICT_BODY: Record<Verdict, string> = {
  denied: 'Blocked by the network policy.\n',
  unreachable: 'The target could not be reached.\n',
};

/** Whether a request carries a body (a length above zero, or chunks). */
function hasBody(req: http.IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Writes a complete HTTP/1.1 error response on a raw socket (CONNECT and upgrade paths). */
function endRawSocket(socket: Duplex, verdict: Verdict | '400 Bad Request'): void {
  const line = verdict === '400 Bad Request' ? verdict : statusLine(verdict);
  const body = verdict === '400 Bad Request' ? 'Bad request.\n' : VERDICT_BODY[verdict];
  const marker = verdict === '400 Bad Request' ? '' : `${EGRESS_VERDICT_HEADER}: ${verdict}\r\n`;
  socket.end(
    `HTTP/1.1 ${line}\r\n${marker}content-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * Starts the pinned egress proxy on 127.0.0.1 (random port): an HTTP forward proxy (absolute-form
 * requests, WebSocket upgrades over plain HTTP) and a CONNECT proxy through which every Chromium
 * connection goes. For each upstream connection it resolves once, checks every address with the
 * policy, and connects to the checked IP; TLS inside CONNECT stays end to end. Refusals get 403,
 * every other failure 502, so a page cannot tell "refused" from "timed out".
 */
export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const { policy, logger } = options;
  const dial = options.dial ?? dialTcp;
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  const closing = new AbortController();
  const sockets = new Set<Duplex>();
  const counts = { allowed: 0, denied: 0, failed: 0 };

  function track(socket: Duplex): void {
    if (sockets.has(socket)) return;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  /** Counts and logs an upstream refused by the policy or that could not be reached. */
  function recordFailure(host: string, port: number, kind: string, error: unknown): void {
    if (verdictOf(error) === 'denied') counts.denied += 1;
    else counts.failed += 1;
    logFailure(host, port, kind, error);
  }

  /** Logs a refused or unreachable upstream without counting it (its request counts it once). */
  function logFailure(host: string, port: number, kind: string, error: unknown): void {
    const verdict = verdictOf(error);
    const rule = error instanceof AppError ? error.details?.rule : undefined;
    // A refusal is a security event; an unreachable host (pages do that all the time, and so
    // does Chromium's own start-up traffic) is not, and its stack helps nobody.
    if (verdict === 'denied') logger?.warn({ host, port, kind, verdict, rule }, 'egress denied');
    else
      logger?.debug(
        { host, port, kind, verdict, cause: String((error as Error).cause ?? error) },
        `egress ${verdict}`,
      );
  }

  function recordOpened(socket: Duplex, host: string, port: number, address: string, kind: string): void {
    counts.allowed += 1;
    track(socket);
    logger?.debug({ host, port, address, kind }, 'egress allowed');
  }

  const connectSignal = () => AbortSignal.any([closing.signal, AbortSignal.timeout(connectTimeoutMs)]);

  /** Connects upstream through the policy; counts and logs the decision. */
  async function connectUpstream(host: string, port: number, kind: string): Promise<Duplex> {
    try {
      const { socket, address } = await openCheckedConnection(policy, dial, host, port, connectSignal());
      recordOpened(socket, host, port, address, kind);
      return socket;
    } catch (error) {
      recordFailure(host, port, kind, error);
      throw error;
    }
  }

  // Plain-HTTP requests keep their upstream connections (upstream-pool.ts). A connection that
  // fails to open is logged there and counted once, by the request's error handler.
  const upstreams = new UpstreamPool({
    dial,
    connectSignal,
    idleKeepMs: UPSTREAM_IDLE_KEEP_MS,
    onOpened: (socket, upstream, address) =>
      recordOpened(socket, upstream.hostname, upstream.port, address, 'http'),
    onFailed: (upstream, error) => logFailure(upstream.hostname, upstream.port, 'http', error),
  });

  /** Pipes a tunnel both ways; either side closing, failing or idling ends both. */
  function splice(client: Duplex, upstream: Duplex): void {
    const teardown = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const side of [client, upstream]) {
      side.once('close', teardown);
      if (side instanceof net.Socket) side.setTimeout(idleTimeoutMs, teardown);
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }

  async function handleRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain', connection: 'close' }).end('Bad request.\n');
      return;
    }
    if (target.protocol !== 'http:') {
      res.writeHead(400, { 'content-type': 'text/plain', connection: 'close' }).end('Bad request.\n');
      return;
    }
    const port = effectivePort(target);
    let addresses: string[];
    try {
      addresses = await policy.resolveChecked(target.hostname, port, { signal: connectSignal() });
    } catch (error) {
      recordFailure(target.hostname, port, 'http', error);
      const verdict = verdictOf(error);
      res
        .writeHead(verdict === 'denied' ? 403 : 502, {
          'content-type': 'text/plain',
          [EGRESS_VERDICT_HEADER]: verdict,
        })
        .end(VERDICT_BODY[verdict]);
      return;
    }
    const upstream = { hostname: target.hostname, port, addresses };
    const options = {
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers: endToEndHeaders(req.rawHeaders),
      setHost: false,
    };
    // A request without a body can be sent again when the kept connection it went out on had
    // been closed by the server meanwhile (the race every keep-alive client has); one with a
    // body is streamed once.
    const replayable = !hasBody(req);
    if (replayable) req.resume();
    let forward: http.ClientRequest;
    const send = (retriesLeft: number) => {
      forward = upstreams.request(upstream, options);
      const sent = forward;
      let idled = false;
      sent.setTimeout(idleTimeoutMs, () => {
        idled = true;
        sent.destroy();
      });
      sent.on('response', (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEndHeaders(answer.rawHeaders));
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      });
      sent.on('error', () => {
        const stale = sent.reusedSocket && !idled && !res.headersSent && !res.destroyed;
        if (stale && replayable && retriesLeft > 0) {
          send(retriesLeft - 1);
        } else if (!res.headersSent) {
          counts.failed += 1;
          res
            .writeHead(502, { 'content-type': 'text/plain', [EGRESS_VERDICT_HEADER]: 'unreachable' })
            .end(VERDICT_BODY.unreachable);
        } else {
          res.destroy();
        }
      });
      if (replayable) sent.end();
      else req.pipe(sent);
    };
    send(STALE_CONNECTION_RETRIES);
    res.once('close', () => {
      if (!res.writableFinished) forward.destroy();
    });
  }

  async function handleUpgrade(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    track(client);
    let target: URL;
    try {
      target = new URL(req.url ?? '');
      if (target.protocol !== 'http:') throw new Error('not http');
    } catch {
      endRawSocket(client, '400 Bad Request');
      return;
    }
    let upstream: Duplex;
    try {
      upstream = await connectUpstream(target.hostname, effectivePort(target), 'upgrade');
    } catch (error) {
      endRawSocket(client, verdictOf(error));
      return;
    }
    const headers = endToEndHeaders(req.rawHeaders, true);
    let requestHead = `${req.method} ${target.pathname}${target.search} HTTP/1.1\r\n`;
    for (let i = 0; i < headers.length; i += 2) requestHead += `${headers[i]}: ${headers[i + 1]}\r\n`;
    upstream.write(`${requestHead}\r\n`);
    if (head.length > 0) upstream.write(head);
    splice(client, upstream);
  }

  async function handleConnect(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    track(client);
    const authority = CONNECT_AUTHORITY.exec(req.url ?? '');
    const port = Number(authority?.[2]);
    if (!authority || !(port >= 1 && port <= 65535)) {
      endRawSocket(client, '400 Bad Request');
      return;
    }
    let upstream: Duplex;
    try {
      upstream = await connectUpstream(authority[1] ?? '', port, 'connect');
    } catch (error) {
      endRawSocket(client, verdictOf(error));
      return;
    }
    if (client.destroyed) {
      upstream.destroy();
      return;
    }
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    splice(client, upstream);
  }

  const server = http.createServer({
    headersTimeout: 15_000,
    requestTimeout: 120_000,
    keepAliveTimeout: 5_000,
    maxHeaderSize: 32 * 1024,
  });
  server.setTimeout(idleTimeoutMs, (socket) => socket.destroy());
  server.on('connection', (socket) => track(socket));
  server.on('request', (req, res) => void handleRequest(req, res));
  server.on('upgrade', (req, socket, head) => void handleUpgrade(req, socket, head));
  server.on('connect', (req, socket, head) => void handleConnect(req, socket, head));
  server.on('clientError', (_error, socket) => {
    if (socket.writable) endRawSocket(socket, '400 Bad Request');
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stats: () => ({ ...counts, openSockets: sockets.size }),
    close: async () => {
      closing.abort(new Error('egress proxy closed'));
      upstreams.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await closed;
    },
  };
}
