import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransport, queryString } from './http-transport.ts';
import { VitrineError } from './vitrine-error.ts';

type Script = (
  request: http.IncomingMessage,
  count: number,
) => { status: number; headers?: Record<string, string>; body: string };

/** A real HTTP server on loopback whose answers a test scripts, counting the requests. */
describe('HttpTransport against a scripted loopback server', () => {
  let server: http.Server;
  let baseUrl: string;
  let script: Script = () => ({ status: 200, body: '{}' });
  let count = 0;
  const seen: { method?: string; url?: string; authorization?: string; body: string }[] = [];

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        count += 1;
        seen.push({
          method: request.method,
          url: request.url,
          authorization: request.headers.authorization,
          body,
        });
        const answer = script(request, count);
        response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        response.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function reset(next: Script): void {
    script = next;
    count = 0;
    seen.length = 0;
  }
  const envelope = (code: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ error: { code, message: `${code} happened`, ...extra } });

  it('sends JSON with the key and comma-separated lists, and returns the body', async () => {
    reset(() => ({ status: 201, body: '{"ok":true}' }));
    const transport = new HttpTransport({ baseUrl: `${baseUrl}/`, apiKey: 'vt_test_key' });
    const answer = await transport.send('POST', '/v1/things', {
      body: { a: 1 },
      query: { group: ['a', 'b'], n: 2 },
    });
    expect(answer).toMatchObject({ status: 201, body: { ok: true } });
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/v1/things?group=a%2Cb&n=2',
      authorization: 'Bearer vt_test_key',
      body: '{"a":1}',
    });
    expect(queryString({ a: undefined, b: null })).toBe('');
  });

  it('retries 429 after retry_after and 503 after Retry-After, then succeeds', async () => {
    reset((_, n) =>
      n === 1
        ? { status: 429, body: envelope('rate_limited', { retry_after: 0 }) }
        : n === 2
          ? { status: 503, headers: { 'retry-after': '0' }, body: envelope('overloaded') }
          : { status: 200, body: '{"done":true}' },
    );
    const answer = await new HttpTransport({ baseUrl }).send('GET', '/v1/x');
    expect(answer.body).toEqual({ done: true });
    expect(count).toBe(3);
  });

  it('gives up after the allowed retries with a VitrineError carrying code, status, retryAfter and details', async () => {
    reset(() => ({ status: 429, body: envelope('rate_limited', { retry_after: 0, details: { limit: 1 } }) }));
    const error = await new HttpTransport({ baseUrl, retry: { retries: 2 } })
      .send('GET', '/v1/x')
      .catch((e) => e);
    expect(error).toBeInstanceOf(VitrineError);
    expect(error).toMatchObject({ code: 'rate_limited', status: 429, retryAfter: 0, details: { limit: 1 } });
    expect(count).toBe(3);
  });

  it('does not wait longer than maxDelayMs: a long retry_after is thrown at once', async () => {
    reset(() => ({ status: 503, body: envelope('overloaded', { retry_after: 120 }) }));
    const error = await new HttpTransport({ baseUrl }).send('GET', '/v1/x').catch((e) => e);
    expect(error).toMatchObject({ code: 'overloaded', status: 503, retryAfter: 120 });
    expect(count).toBe(1);
  });

  it("leaves slow_down to the device login's poller", async () => {
    reset(() => ({ status: 429, body: envelope('slow_down', { retry_after: 0 }) }));
    await expect(new HttpTransport({ baseUrl }).send('POST', '/v1/device/token')).rejects.toMatchObject({
      code: 'slow_down',
    });
    expect(count).toBe(1);
  });

  it('never retries other errors, and names an answer that is not the envelope', async () => {
    reset(() => ({ status: 404, body: envelope('not_found') }));
    await expect(new HttpTransport({ baseUrl }).send('GET', '/v1/x')).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(count).toBe(1);
    reset(() => ({ status: 502, body: '<html>bad gateway</html>' }));
    await expect(new HttpTransport({ baseUrl }).send('GET', '/v1/x')).rejects.toMatchObject({
      code: 'unexpected_response',
      status: 502,
    });
  });

  it('is aborted by its signal, also while waiting to retry', async () => {
    const controller = new AbortController();
    reset(() => {
      controller.abort(new Error('user cancelled'));
      return { status: 429, body: envelope('rate_limited', { retry_after: 5 }) };
    });
    const transport = new HttpTransport({ baseUrl });
    await expect(transport.send('GET', '/v1/x', { signal: controller.signal })).rejects.toThrow(
      'user cancelled',
    );
    expect(count).toBe(1);
  });

  it('reports an unreachable server as network_error', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(
      new HttpTransport({ baseUrl: `http://127.0.0.1:${port}` }).send('GET', '/v1/x'),
    ).rejects.toMatchObject({ code: 'network_error', status: 0 });
  });
});
