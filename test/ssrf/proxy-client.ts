import http from 'node:http';
import type { Duplex } from 'node:stream';

export interface ProxiedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Sends one absolute-form request through an HTTP proxy, as a browser does for http:// URLs. */
export function proxyGet(proxyPort: number, url: string): Promise<ProxiedResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: proxyPort,
      method: 'GET',
      path: target.href,
      headers: { host: target.host },
      agent: false,
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a CONNECT tunnel; the socket is only set for a 200. */
export function proxyConnect(
  proxyPort: number,
  authority: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; socket: Duplex }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: proxyPort,
      method: 'CONNECT',
      path: authority,
      headers: { host: authority },
      agent: false,
    });
    req.on('connect', (res, socket) =>
      resolve({ status: res.statusCode ?? 0, headers: res.headers, socket }),
    );
    req.on('error', reject);
    req.end();
  });
}

/** Sends a raw HTTP/1.1 request on a socket and collects everything until the peer closes. */
export function rawExchange(socket: Duplex, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString()));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString()));
    socket.on('error', reject);
    socket.write(request);
  });
}
