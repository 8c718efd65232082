import {
  ERROR_CODES,
  type ErrorCode,
  errorEnvelopeSchema,
  ROUTES,
  type RouteDefinition,
} from '@vitrine/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RawResponse, rawHttp, rawRequest } from '../support/raw-http.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

/**
 * Hostile paths, ids, query strings and headers sent (as raw bytes, no client normalising them)
 * to every route of the contract's table. Every answer is the route's success or the contract's
 * envelope with the status of its code, and none echoes what was sent.
 */

const ROUTE_LIST = Object.entries(ROUTES) as [string, RouteDefinition][];
const LONG = 'a'.repeat(10_000);

interface Hostile {
  what: string;
  /** Must not appear in the answer. */
  marker: string;
  /** The code the answer must have, when one is certain. */
  code?: ErrorCode;
}

/** Ids as they go on the wire (already percent-encoded where they need it). */
const HOSTILE_IDS: (Hostile & { id: string })[] = [
  { what: '10 KB id', id: LONG, marker: 'a'.repeat(64), code: 'uri_too_long' },
  { what: 'bad percent-encoding %ZZ', id: 'prj_%ZZ', marker: '%ZZ', code: 'bad_request' },
  { what: 'overlong UTF-8 dot %C0%AE', id: '%C0%AE%C0%AE', marker: '%C0', code: 'bad_request' },
  { what: 'NUL', id: 'prj_%00x', marker: '\\u0000x', code: 'invalid_params' },
  { what: 'unicode', id: '%D0%B8%D0%B4%F0%9F%99%82', marker: 'ид', code: 'invalid_params' },
  { what: 'right-to-left override', id: 'prj_%E2%80%AEevil', marker: 'evil', code: 'invalid_params' },
  { what: 'markup', id: '%3Cscript%3Ealert(1)%3C%2Fscript%3E', marker: 'script', code: 'invalid_params' },
  { what: 'traversal', id: '..%2F..%2Fetc%2Fpasswd', marker: 'passwd', code: 'invalid_params' },
];

/** Suffixes appended to every route's path. */
const HOSTILE_SUFFIXES: (Hostile & { suffix: string })[] = [
  { what: 'a bad percent-encoding segment', suffix: '/%ZZ', marker: '%ZZ', code: 'bad_request' },
  { what: 'a 10 KB segment', suffix: `/${LONG}`, marker: 'a'.repeat(64) },
  { what: 'markup', suffix: '/%3Cimg%20src%3Dx%3E', marker: 'img' },
  { what: 'a NUL', suffix: '%00', marker: '\\u0000' },
  { what: 'double slashes and dots', suffix: '/..//..//secret-path', marker: 'secret-path' },
];

function pathOf(route: RouteDefinition, id: string): string {
  return route.path.replace(/:([A-Za-z_]+)/g, id);
}

/** A well-formed id of the route's kind that exists nowhere (so hostile queries reach the route). */
const UNKNOWN_ID = `prj_${'0'.repeat(26)}`;

describe('hostile requests to every route', () => {
  let t: TestApp;
  let owner: TestKey;
  let port: number;

  beforeAll(async () => {
    t = await startTestApp('sqlite', {
      env: {
        VITRINE_RATE_LIMIT_DEFAULT_PER_MINUTE: '100000',
        VITRINE_RATE_LIMIT_CAPTURE_PER_MINUTE: '100000',
        VITRINE_RATE_LIMIT_DEVICE_CODE_PER_MINUTE: '100000',
      },
      appOptions: { role: 'api' },
    });
    owner = await t.createKey({ credits: 10 });
    port = t.config.server.port;
  });
  afterAll(() => t.close());

  function check(route: RouteDefinition, res: RawResponse, hostile: Hostile): void {
    const label = `${route.method} ${route.path}, ${hostile.what}: ${res.status} ${res.body.slice(0, 300)}`;
    expect(res.body.includes(hostile.marker), `echoed: ${label}`).toBe(false);
    const success = [route.success.status, ...(route.alternatives ?? []).map((a) => a.status)];
    if (success.includes(res.status) && hostile.code === undefined) return;
    let json: unknown;
    try {
      json = JSON.parse(res.body);
    } catch {
      json = undefined;
    }
    const parsed = errorEnvelopeSchema.safeParse(json);
    expect(parsed.success, `not an envelope: ${label}`).toBe(true);
    if (!parsed.success) return;
    expect(res.status, label).toBe(ERROR_CODES[parsed.data.error.code].status);
    expect(res.headers['content-type'], label).toMatch(/^application\/json/);
    if (hostile.code) expect(parsed.data.error.code, label).toBe(hostile.code);
  }

  const auth = () => ({ authorization: `Bearer ${owner.key}` });
  const bodyFor = (route: RouteDefinition) => (route.method === 'GET' ? undefined : '{}');

  it.each(ROUTE_LIST.filter(([, r]) => r.params))('hostile ids: %s', async (_id, route) => {
    for (const hostile of HOSTILE_IDS) {
      const res = await rawHttp(
        port,
        rawRequest(route.method, pathOf(route, hostile.id), auth(), bodyFor(route)),
      );
      check(route, res, hostile);
    }
  });

  it.each(ROUTE_LIST)('hostile paths: %s', async (_id, route) => {
    for (const hostile of HOSTILE_SUFFIXES) {
      const target = pathOf(route, UNKNOWN_ID) + hostile.suffix;
      const res = await rawHttp(port, rawRequest(route.method, target, auth(), bodyFor(route)));
      check(route, res, hostile);
    }
  });

  it.each(ROUTE_LIST)('hostile query strings: %s', async (_id, route) => {
    const path = pathOf(route, UNKNOWN_ID);
    const huge = 'q'.repeat(100_000);
    check(route, await rawHttp(port, rawRequest(route.method, `${path}?x=${huge}`, auth(), bodyFor(route))), {
      what: '100 KB value',
      marker: 'q'.repeat(64),
      code: 'uri_too_long',
    });
    const repeated = Array.from({ length: 200 }, (_, i) => `url=r${i}x&limit=r${i}x&id=r${i}x`).join('&');
    check(
      route,
      await rawHttp(port, rawRequest(route.method, `${path}?${repeated}`, auth(), bodyFor(route))),
      {
        what: 'repeated keys',
        marker: 'r199x',
      },
    );
    const odd = '?%ZZ=1&=&&a[b][c]=1&__proto__[x]=1&constructor[prototype][y]=1&%00=%00';
    check(route, await rawHttp(port, rawRequest(route.method, `${path}${odd}`, auth(), bodyFor(route))), {
      what: 'malformed and prototype-poisoning keys',
      marker: 'prototype][y',
    });
  });

  it.each(ROUTE_LIST)('hostile headers: %s', async (_id, route) => {
    const path = pathOf(route, UNKNOWN_ID);
    const send = (head: string) =>
      rawHttp(
        port,
        `${route.method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n${head}\r\n`,
      );
    check(
      route,
      await rawHttp(port, rawRequest(route.method, path, { ...auth(), 'x-big': 'h'.repeat(20_000) })),
      {
        what: '20 KB header',
        marker: 'h'.repeat(64),
        code: 'headers_too_large',
      },
    );
    const hundred = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`x-many-${i}`, `m${i}m`]));
    check(
      route,
      await rawHttp(port, rawRequest(route.method, path, { ...auth(), ...hundred }, bodyFor(route))),
      {
        what: '100 headers',
        marker: 'm99m',
      },
    );
    check(
      route,
      await rawHttp(port, rawRequest(route.method, path, { authorization: `Bearer ${'k'.repeat(10_000)}` })),
      {
        what: '10 KB key',
        marker: 'k'.repeat(64),
        code: 'unauthorized',
      },
    );
    check(route, await send('bad header name: x\r\n'), {
      what: 'space in a header name',
      marker: 'bad header',
      code: 'bad_request',
    });
    check(route, await send('x-ctl: a\u0001b\r\n'), {
      what: 'control byte in a header',
      marker: '\u0001',
      code: 'bad_request',
    });
    check(route, await send('content-length: abc\r\n'), {
      what: 'non-numeric length',
      marker: 'abc',
      code: 'bad_request',
    });
    check(route, await send('content-length: 1\r\ncontent-length: 2\r\n'), {
      what: 'conflicting lengths',
      marker: 'content-length',
      code: 'bad_request',
    });
    check(route, await send('transfer-encoding: chunked\r\ncontent-length: 3\r\n\r\n0\r\n'), {
      what: 'chunked and a length (smuggling)',
      marker: 'chunked',
      code: 'bad_request',
    });
    check(route, await send('x-request-id: <svg onload=1>\r\n'), {
      what: 'hostile request id',
      marker: 'svg',
    });
    check(route, await send(`authorization: Bearer vk_live_${'\u00ff'.repeat(40)}\r\n`), {
      what: 'non-ASCII key',
      marker: '\u00ff',
    });
  });

  it('answers a request line that is not HTTP in the envelope', async () => {
    const res = await rawHttp(port, 'HELLO THERE\r\n\r\n');
    expect(res.status).toBe(400);
    expect(errorEnvelopeSchema.parse(JSON.parse(res.body)).error.code).toBe('bad_request');
  });
});
