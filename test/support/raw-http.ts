import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends bytes as they are (no client library normalising a hostile URL or header) and reads the
 * answer until the server closes the connection. Only HTTP/1.1 answers without chunking are
 * expected (the server's JSON answers carry a Content-Length).
 */
export function rawHttp(port: number, request: string | Buffer, timeoutMs = 30_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer in time'));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may cut the connection while we still write a huge request: what it answered
    // before that is what counts.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(split + 4) });
    });
    socket.write(request);
  });
}

/** A GET/POST request line and headers, Connection: close, optional JSON body. */
export function rawRequest(
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string,
): string {
  const all: Record<string, string> = { host: '127.0.0.1', connection: 'close', ...headers };
  if (body !== undefined) {
    all['content-type'] ??= 'application/json';
    all['content-length'] = String(Buffer.byteLength(body));
  }
  const head = Object.entries(all)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `${method} ${target} HTTP/1.1\r\n${head}\r\n${body ?? ''}`;
}
