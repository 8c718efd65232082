import {
  ERROR_CODES,
  errorEnvelopeSchema,
  ROUTES,
  type RouteDefinition,
  type RouteId,
  SCOPES,
} from '@vitrine/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { ENGINES, startTestApp, type TestKey, type TestResponse } from '../support/test-app.ts';
import {
  ROUTE_SECURITY_CASES,
  type RouteCase,
  type RouteRequest,
  type SecurityWorld,
} from './route-security-cases.ts';

/**
 * For every route of the contract's route table: no key, a malformed key, a revoked key, a key
 * without the route's scope, another account's ids, unknown fields, wrong types and an oversized
 * body, each answered in the contract's envelope with the code the table promises. The checks
 * come from the table; per-route data comes from route-security-cases.ts.
 */

const ROUTE_IDS = Object.keys(ROUTES) as RouteId[];
const HIGH_LIMITS = {
  VITRINE_RATE_LIMIT_DEFAULT_PER_MINUTE: '100000',
  VITRINE_RATE_LIMIT_CAPTURE_PER_MINUTE: '100000',
  VITRINE_RATE_LIMIT_DEVICE_CODE_PER_MINUTE: '100000',
};

function urlOf(route: RouteDefinition, request: RouteRequest): string {
  const path = route.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = request.params?.[name];
    if (value === undefined) throw new Error(`No value for :${name} of ${route.path}`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams(request.query ?? {}).toString();
  return query ? `${path}?${query}` : path;
}

function successStatuses(route: RouteDefinition): number[] {
  return [route.success.status, ...(route.alternatives ?? []).map((a) => a.status)];
}

/** The contract's envelope, with the status its code has in the table (and the code expected). */
function expectEnvelope(res: TestResponse, code?: keyof typeof ERROR_CODES): void {
  const parsed = errorEnvelopeSchema.safeParse(res.json);
  expect(parsed.success, `not an envelope: ${res.status} ${res.text.slice(0, 300)}`).toBe(true);
  expect(res.status, res.text.slice(0, 300)).toBe(
    ERROR_CODES[res.json.error.code as keyof typeof ERROR_CODES].status,
  );
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  if (code) expect(res.json.error.code, res.text.slice(0, 300)).toBe(code);
}

/** A value of another JSON type than `value`. */
function wrongTypeFor(value: unknown): unknown {
  if (typeof value === 'string') return 12345;
  if (typeof value === 'number') return 'twelve';
  if (typeof value === 'boolean') return 'yes';
  if (Array.isArray(value)) return 'not-a-list';
  return 'not-an-object';
}

/** Does the schema refuse keys it does not declare (z.strictObject)? */
function refusesUnknownKeys(schema: z.ZodType | undefined): boolean {
  if (!(schema instanceof z.ZodObject)) return false;
  const catchall = schema.def.catchall;
  return catchall instanceof z.ZodNever;
}

function otherScopeThan(scope: string): string {
  return SCOPES.find((s) => s !== scope) as string;
}

describe('the security cases table', () => {
  it('has an entry for every route of the contract (add one to route-security-cases.ts)', () => {
    const missing = ROUTE_IDS.filter((id) => ROUTE_SECURITY_CASES[id] === undefined);
    expect(missing, `routes without security cases: ${missing.join(', ')}`).toEqual([]);
    const stale = Object.keys(ROUTE_SECURITY_CASES).filter((id) => !(id in ROUTES));
    expect(stale, 'entries for routes that no longer exist').toEqual([]);
  });
});

describe.each(ENGINES)('route security on %s', (engine) => {
  const world = {} as SecurityWorld;
  let fixtures: RunningServer;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    // role api: async captures are queued and stay queued; nothing here needs a worker.
    world.t = await startTestApp(engine, {
      env: { VITRINE_ALLOW_TARGETS: '127.0.0.2', ...HIGH_LIMITS },
      appOptions: { role: 'api' },
    });
    world.owner = await world.t.createKey({ credits: 1000 });
    world.other = await world.t.createKey({ credits: 1000 });
    world.pageUrl = `${fixtures.origin}/capture/simple.html`;
  }, 120_000);
  afterAll(async () => {
    await world.t?.close();
    await fixtures?.close();
  });

  async function send(route: RouteDefinition, request: RouteRequest, key?: TestKey | string, extra = {}) {
    const bearer: Record<string, string> = typeof key === 'string' ? { authorization: key } : {};
    return world.t.request(route.method, urlOf(route, request), {
      ...(typeof key === 'object' ? { key: key.key } : {}),
      headers: bearer,
      ...(request.body !== undefined ? { json: request.body } : {}),
      ...extra,
    });
  }

  describe.each(ROUTE_IDS.filter((id) => ROUTE_SECURITY_CASES[id]))('%s', (id) => {
    const route: RouteDefinition = ROUTES[id];
    const cases = ROUTE_SECURITY_CASES[id] as RouteCase;
    const needsKey = route.access.kind !== 'public';

    it('answers the valid case with success (the base of every other check)', async () => {
      const res = await send(route, await cases.valid(world), world.owner);
      expect(successStatuses(route), `${res.status} ${res.text.slice(0, 300)}`).toContain(res.status);
    });

    it(needsKey ? 'refuses no key with 401' : 'needs no key', async () => {
      const res = await send(route, await cases.valid(world));
      if (needsKey) expectEnvelope(res, 'unauthorized');
      else expect(successStatuses(route), res.text.slice(0, 300)).toContain(res.status);
    });

    it('refuses malformed keys with 401', async () => {
      const request = await cases.valid(world);
      for (const header of [
        'Bearer not-a-key',
        'Basic dXNlcjpwYXNz',
        `Bearer ${world.owner.key.slice(0, -1)}!`,
      ]) {
        expectEnvelope(await send(route, request, header), 'unauthorized');
      }
    });

    it('refuses a revoked key with 401', async () => {
      const revoked = await world.t.createKey({ credits: 10 });
      await world.t.app.services.accounts.apiKeys.revoke(revoked.keyId, new Date().toISOString());
      expectEnvelope(await send(route, await cases.valid(world), revoked), 'unauthorized');
    });

    if (route.access.kind === 'scope') {
      const scope = route.access.scope;
      it(`refuses a key without scope ${scope} with 403`, async () => {
        const narrow = await world.t.createKey({ credits: 10, scopes: [otherScopeThan(scope)] });
        const res = await send(route, await cases.valid(world), narrow);
        expectEnvelope(res, 'forbidden_scope');
        expect(res.json.error.details).toEqual({ required_scope: scope });
      });
    } else if (route.access.kind === 'key') {
      it('accepts a key of any scope', async () => {
        const narrow = await world.t.createKey({ credits: 10, scopes: ['usage'] });
        const res = await send(route, await cases.valid(world), narrow);
        expect(successStatuses(route), res.text.slice(0, 300)).toContain(res.status);
      });
    }

    const foreign = cases.foreign;
    if (typeof foreign === 'function') {
      it("answers another account's ids with 404 not_found", async () => {
        expectEnvelope(await send(route, await foreign(world), world.owner), 'not_found');
      });
    }

    if (route.body) {
      it('refuses unknown body fields, naming them', async () => {
        const request = await cases.valid(world);
        const res = await send(
          route,
          { ...request, body: { ...request.body, zz_unknown_field: 1 } },
          world.owner,
        );
        expectEnvelope(res, 'invalid_params');
        expect(res.json.error.message).toContain('zz_unknown_field');
      });

      it('refuses wrong types of each body field, naming the field', async () => {
        const request = await cases.valid(world);
        const fields = Object.keys(request.body ?? {});
        expect(fields.length, 'the valid case should send at least one field').toBeGreaterThan(0);
        for (const field of fields) {
          const body = { ...request.body, [field]: wrongTypeFor(request.body?.[field]) };
          const res = await send(route, { ...request, body }, world.owner);
          expectEnvelope(res, 'invalid_params');
          const paths = (res.json.error.details.issues as { path: string }[]).map((i) => i.path);
          expect(
            paths.some((p) => p === field || p.startsWith(`${field}.`)),
            `${field}: ${paths.join(', ')}`,
          ).toBe(true);
        }
      });

      it('refuses a JSON array body', async () => {
        const request = await cases.valid(world);
        const res = await world.t.request(route.method, urlOf(route, request), {
          key: world.owner.key,
          json: [1],
        });
        expectEnvelope(res, 'invalid_json');
      });
    }

    if (route.query) {
      const strict = refusesUnknownKeys(route.query);
      it(strict ? 'refuses unknown query fields, naming them' : 'ignores unknown query fields', async () => {
        const request = await cases.valid(world);
        const res = await send(
          route,
          { ...request, query: { ...request.query, zz_unknown_field: '1' } },
          world.owner,
        );
        if (strict) {
          expectEnvelope(res, 'invalid_params');
          expect(res.json.error.message).toContain('zz_unknown_field');
        } else {
          expect(successStatuses(route), res.text.slice(0, 300)).toContain(res.status);
        }
      });
    }

    if (route.params) {
      it('refuses ids of the wrong form with 400, naming the parameter', async () => {
        const request = await cases.valid(world);
        for (const name of Object.keys(request.params ?? {})) {
          for (const bad of ['x', 'prj_', '12345', `${request.params?.[name]}0`]) {
            const res = await send(
              route,
              { ...request, params: { ...request.params, [name]: bad } },
              world.owner,
            );
            expectEnvelope(res, 'invalid_params');
            expect(res.json.error.details.issues.map((i: { path: string }) => i.path)).toContain(name);
          }
        }
      });
    }

    if (route.method !== 'GET') {
      it('refuses an oversized body with 413', async () => {
        const request = await cases.valid(world);
        const res = await send(route, { ...request, body: { pad: 'a'.repeat(300 * 1024) } }, world.owner);
        expectEnvelope(res, 'payload_too_large');
      });
    }
  });
});
