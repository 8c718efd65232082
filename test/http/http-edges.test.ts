import net from 'node:net';
import { ERROR_CODES, errorEnvelopeSchema, ROUTES, type RouteDefinition } from '@vitrine/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawHttp, rawRequest } from '../support/raw-http.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

// Issue 35, item 2: the HTTP edges real clients hit. Bodiless routes with an empty body of any
// type, methods a path does not have (405 with Allow, OPTIONS 204), and a 10 MB body whose 413
// the client can read.

/** Sends raw bytes; resolves with everything the server sent once it closes or `until` holds. */
function rawExchange(
  port: number,
  write: (socket: net.Socket) => Promise<void>,
  options: { readWhileWriting: boolean },
): Promise<{ text: string; writeError: string | null; readBeforeWriteEnded: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    let writeError: string | null = null;
    let writing = true;
    let readBeforeWriteEnded = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer in time: ${Buffer.concat(chunks).toString().slice(0, 200)}`));
    }, 120_000);
    const onData = (chunk: Buffer) => {
      if (writing) readBeforeWriteEnded = true;
      chunks.push(chunk);
    };
    if (options.readWhileWriting) socket.on('data', onData);
    else socket.pause();
    socket.on('error', (error: NodeJS.ErrnoException) => {
      writeError ??= error.code ?? error.message;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(chunks).toString('utf8'), writeError, readBeforeWriteEnded });
    });
    socket.once('connect', () => {
      write(socket)
        .catch((error: NodeJS.ErrnoException) => {
          writeError ??= error.code ?? error.message;
        })
        .finally(() => {
          writing = false;
          if (!options.readWhileWriting) {
            // Only now start reading, as a client that writes the whole body first does.
            socket.on('data', onData);
            socket.resume();
          }
        });
    });
  });
}

/** Writes `total` bytes of body in 64 KiB chunks, honouring backpressure. */
async function writeBody(socket: net.Socket, head: string, total: number): Promise<void> {
  const write = (data: string | Buffer) =>
    new Promise<void>((resolve, reject) => {
      if (socket.destroyed) return reject(Object.assign(new Error('destroyed'), { code: 'EPIPE' }));
      socket.write(data, (error) => (error ? reject(error) : resolve()));
    });
  await write(head);
  const chunk = Buffer.alloc(64 * 1024, 'a');
  for (let sent = 0; sent < total; sent += chunk.length) {
    await write(chunk.subarray(0, Math.min(chunk.length, total - sent)));
  }
}

function parseResponse(text: string) {
  const split = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, Math.max(0, split)).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = text.slice(split + 4);
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('HTTP edges', () => {
  let t: TestApp;
  let owner: TestKey;
  let port: number;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    owner = await t.createKey({ credits: 10 });
    port = Number(new URL(t.baseUrl).port);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('empty bodies', () => {
    const emptyBodies: [string, Record<string, string>][] = [
      ['application/json', { 'content-type': 'application/json' }],
      ['application/json; charset=utf-8', { 'content-type': 'application/json; charset=utf-8' }],
      ['text/plain', { 'content-type': 'text/plain' }],
      ['application/x-www-form-urlencoded', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['application/octet-stream', { 'content-type': 'application/octet-stream' }],
    ];

    it.each(emptyBodies)('bodiless routes ignore an empty %s body', async (_name, headers) => {
      const ensured = await t.request('POST', '/v1/projects/ensure-default', {
        key: owner.key,
        headers,
        body: '',
      });
      expect(ensured.status, ensured.text).toBe(200);
      const id = ensured.json.project.id as string;
      const made = await t.request('POST', `/v1/projects/${id}/default`, {
        key: owner.key,
        headers,
        body: '',
      });
      expect(made.status, made.text).toBe(200);
      const rotated = await t.request('POST', `/v1/projects/${id}/signing-secret/rotate`, {
        key: owner.key,
        headers,
        body: '',
      });
      expect(rotated.status, rotated.text).toBe(200);
      expect(rotated.json.signing_secret).toEqual(expect.any(String));
      const spare = await t.request('POST', '/v1/keys', { key: owner.key, json: { label: 'spare' } });
      expect(spare.status, spare.text).toBe(201);
      const revoked = await t.request('DELETE', `/v1/keys/${spare.json.key.id}`, {
        key: owner.key,
        headers,
        body: '',
      });
      expect(revoked.status, revoked.text).toBe(200);
    });

    it('every bodiless POST and DELETE route takes an empty JSON body (no 400 invalid_json)', async () => {
      const bodiless = (Object.values(ROUTES) as RouteDefinition[]).filter(
        (route) => route.method !== 'GET' && !route.body,
      );
      expect(bodiless.length).toBeGreaterThanOrEqual(5);
      for (const route of bodiless) {
        const path = route.path.replace(':id', 'prj_00000000000000000000000000');
        const res = await t.request(route.method, path, {
          key: owner.key,
          headers: { 'content-type': 'application/json' },
          body: '',
        });
        expect(res.status, `${route.method} ${route.path}: ${res.text}`).toBeLessThan(500);
        expect(res.json?.error?.code, `${route.method} ${route.path}`).not.toBe('invalid_json');
      }
    });

    it('an empty chunked JSON body is no body either; a route with a body then names its fields', async () => {
      const head = (path: string) =>
        `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${owner.key}\r\n` +
        'content-type: application/json\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n0\r\n\r\n';
      const ensured = await rawExchange(
        port,
        async (s) => void s.write(head('/v1/projects/ensure-default')),
        {
          readWhileWriting: true,
        },
      );
      expect(parseResponse(ensured.text).status, ensured.text).toBe(200);
      const capture = await rawExchange(port, async (s) => void s.write(head('/v1/capture')), {
        readWhileWriting: true,
      });
      const answer = parseResponse(capture.text);
      expect(answer.status, capture.text).toBe(400);
      expect(JSON.parse(answer.body).error).toMatchObject({ code: 'invalid_params' });
      expect(JSON.parse(answer.body).error.message).toContain('url');
    });

    it('a non-empty body that is not JSON is still refused on a route with a body', async () => {
      const res = await t.request('POST', '/v1/projects', {
        key: owner.key,
        headers: { 'content-type': 'application/json' },
        body: ' ',
      });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('invalid_json');
    });
  });

  describe('methods', () => {
    it('answers 405 with Allow, in the envelope, for a method the path does not have', async () => {
      expect(ERROR_CODES.method_not_allowed.status).toBe(405);
      for (const [method, path, allow] of [
        ['PUT', '/v1/projects', 'GET, HEAD, OPTIONS, POST'],
        ['DELETE', '/v1/projects', 'GET, HEAD, OPTIONS, POST'],
        ['PUT', '/v1/projects/prj_00000000000000000000000000', 'GET, HEAD, OPTIONS, PATCH'],
        ['GET', '/v1/projects/prj_00000000000000000000000000/default', 'OPTIONS, POST'],
        ['POST', '/v1/usage', 'GET, HEAD, OPTIONS'],
        ['PATCH', '/v1/keys/key_00000000000000000000000000', 'DELETE, OPTIONS'],
      ] as const) {
        const res = await t.request(method, path, { key: owner.key });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get('allow'), `${method} ${path}`).toBe(allow);
        expect(errorEnvelopeSchema.parse(res.json).error.code).toBe('method_not_allowed');
        expect(res.json.error.details.allow).toEqual(allow.split(', '));
      }
      // fetch refuses to send TRACE; the raw client does.
      const trace = await rawHttp(port, rawRequest('TRACE', '/v1/projects'));
      expect(trace.status).toBe(405);
      expect(trace.headers.allow).toBe('GET, HEAD, OPTIONS, POST');
      expect(JSON.parse(trace.body).error.code).toBe('method_not_allowed');
    });

    it('answers OPTIONS with 204 and Allow on an existing path, 404 elsewhere', async () => {
      const options = await t.request('OPTIONS', '/v1/projects');
      expect(options.status).toBe(204);
      expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST');
      expect(options.text).toBe('');
      const capture = await t.request('OPTIONS', '/v1/capture?url=x');
      expect(capture.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST');
      const nowhere = await t.request('OPTIONS', '/v1/nothing-here');
      expect(nowhere.status).toBe(404);
      expect(nowhere.json.error.code).toBe('not_found');
      expect(nowhere.headers.get('allow')).toBeNull();
    });

    it('keeps 404 for a path no method has', async () => {
      const res = await t.request('PUT', '/v1/nothing-here', { key: owner.key });
      expect(res.status).toBe(404);
      expect(res.json.error.code).toBe('not_found');
    });
  });

  describe('a 10 MB body', () => {
    const tenMb = 10 * 1024 * 1024;
    const head = (path: string, extra = '') =>
      `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${owner.key}\r\n` +
      `content-type: application/json\r\ncontent-length: ${tenMb}\r\n${extra}\r\n`;

    for (const readWhileWriting of [false, true]) {
      const how = readWhileWriting ? 'reading while it writes' : 'writing it all before reading';
      for (const path of ['/v1/capture', '/v1/projects', '/v1/projects/ensure-default']) {
        it(`gets a readable 413 from ${path} (${how})`, async () => {
          const result = await rawExchange(port, (socket) => writeBody(socket, head(path), tenMb), {
            readWhileWriting,
          });
          const answer = parseResponse(result.text);
          expect(answer.status, result.text.slice(0, 300)).toBe(413);
          expect(errorEnvelopeSchema.parse(JSON.parse(answer.body)).error.code).toBe('payload_too_large');
          expect(result.writeError).toBeNull();
        });
      }
    }

    it('gets a readable 401 without a key, the whole body written first, even with Connection: close', async () => {
      const noKey =
        'POST /v1/projects HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n' +
        `content-length: ${tenMb}\r\nconnection: close\r\n\r\n`;
      const result = await rawExchange(port, (socket) => writeBody(socket, noKey, tenMb), {
        readWhileWriting: false,
      });
      const answer = parseResponse(result.text);
      expect(answer.status, result.text.slice(0, 300)).toBe(401);
      expect(result.writeError).toBeNull();
    });

    it('a chunked body over the limit gets its 413 too', async () => {
      const chunkedHead =
        'POST /v1/projects HTTP/1.1\r\nhost: 127.0.0.1\r\n' +
        `authorization: Bearer ${owner.key}\r\ncontent-type: application/json\r\n` +
        'transfer-encoding: chunked\r\n\r\n';
      const result = await rawExchange(
        port,
        async (socket) => {
          const write = (data: string | Buffer) =>
            new Promise<void>((resolve, reject) => socket.write(data, (e) => (e ? reject(e) : resolve())));
          await write(chunkedHead);
          const piece = Buffer.alloc(64 * 1024, 'a');
          for (let i = 0; i < 160; i++)
            await write(Buffer.concat([Buffer.from('10000\r\n'), piece, Buffer.from('\r\n')]));
          await write('0\r\n\r\n');
          socket.end();
        },
        { readWhileWriting: false },
      );
      const answer = parseResponse(result.text);
      expect(answer.status, result.text.slice(0, 300)).toBe(413);
      expect(result.writeError).toBeNull();
    });
  });
});
