import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { AppError } from '../errors/app-error.ts';
import { type Dialer, dialTcp, endToEndHeaders, openCheckedConnection } from './egress-dialer.ts';
import { effectivePort, type TargetPolicy } from './target-policy.ts';

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

  /** Connects upstream through the policy; counts and logs the decision. */
  async function connectUpstream(host: string, port: number, kind: string): Promise<Duplex> {
    const signal = AbortSignal.any([closing.signal, AbortSignal.timeout(connectTimeoutMs)]);
    try {
      const { socket, address } = await openCheckedConnection(policy, dial, host, port, signal);
      counts.allowed += 1;
      track(socket);
      logger?.debug({ host, port, address, kind }, 'egress allowed');
      return socket;
    } catch (error) {
      const verdict = verdictOf(error);
      if (verdict === 'denied') counts.denied += 1;
      else counts.failed += 1;
      const rule = error instanceof AppError ? error.details?.rule : undefined;
      // A refusal is a security event; an unreachable host (pages do that all the time, and so
      // does Chromium's own start-up traffic) is not, and its stack helps nobody.
      if (verdict === 'denied') logger?.warn({ host, port, kind, verdict, rule }, 'egress denied');
      else
        logger?.debug(
          { host, port, kind, verdict, cause: String((error as Error).cause ?? error) },
          `egress ${verdict}`,
        );
      throw error;
    }
  }

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
    let upstream: Duplex;
    try {
      upstream = await connectUpstream(target.hostname, effectivePort(target), 'http');
    } catch (error) {
      const verdict = verdictOf(error);
      res
        .writeHead(verdict === 'denied' ? 403 : 502, {
          'content-type': 'text/plain',
          [EGRESS_VERDICT_HEADER]: verdict,
        })
        .end(VERDICT_BODY[verdict]);
      return;
    }
    if (upstream instanceof net.Socket) upstream.setTimeout(idleTimeoutMs, () => upstream.destroy());
    const forward = http.request({
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers: endToEndHeaders(req.rawHeaders),
      setHost: false,
      createConnection: () => upstream,
    });
    forward.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEndHeaders(answer.rawHeaders));
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    forward.on('error', () => {
      upstream.destroy();
      if (!res.headersSent) {
        counts.failed += 1;
        res
          .writeHead(502, { 'content-type': 'text/plain', [EGRESS_VERDICT_HEADER]: 'unreachable' })
          .end(VERDICT_BODY.unreachable);
      } else {
        res.destroy();
      }
    });
    res.once('close', () => {
      if (!res.writableFinished) forward.destroy();
    });
    req.pipe(forward);
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
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await closed;
    },
  };
}
