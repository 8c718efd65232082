import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '../../packages/sdk/src/generated/openapi-types.ts';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { type OpenApiDocument, responseValidator } from '../support/openapi-kit.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/** What openapi-fetch hands back from any call. */
interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

const UNKNOWN_PROFILE = `ap_${'0'.repeat(26)}`;

/**
 * A client no one here wrote: `openapi-fetch` with the types `openapi-typescript` generated from
 * this server's document (packages/sdk/src/generated, checked fresh by openapi-document.test.ts).
 * `make check` compiles these calls with tsc; this test runs them against a live server and
 * checks every answer against the document's own schemas.
 */
describe('a typed client generated from /v1/openapi.json', () => {
  let t: TestApp;
  let fixtures: RunningServer;
  let doc: OpenApiDocument;
  let api: ReturnType<typeof createClient<paths>>;
  let validator: ReturnType<typeof responseValidator>;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    t = await startTestApp('sqlite', { env: { VITRINE_ALLOW_TARGETS: '127.0.0.2' } });
    doc = (await t.request('GET', '/v1/openapi.json')).json;
    validator = responseValidator(doc);
    const { key } = await t.createKey({ credits: 20 });
    api = createClient<paths>({
      baseUrl: t.baseUrl,
      headers: { authorization: `Bearer ${key}` },
      // The background filters are comma-separated (style form, explode false, as documented);
      // openapi-fetch's default repeats the parameter, which every GET refuses.
      querySerializer: { array: { style: 'form', explode: false } },
    });
  });
  afterAll(async () => {
    await t?.close();
    await fixtures?.close();
  });

  /** The answer's status, content type and body must be what the document says for it. */
  function expectDocumented(result: FetchResult, path: string, method: string, status: number): void {
    const { response } = result;
    const body = result.data ?? result.error;
    const problems = validator.check(
      path,
      method,
      response.status,
      response.headers.get('content-type'),
      body,
    );
    expect(problems, `${method} ${path} ${response.status} ${JSON.stringify(body)?.slice(0, 300)}`).toEqual(
      [],
    );
    expect(response.status, `${method} ${path}`).toBe(status);
  }

  it('checks answers for real: a wrong body or an undocumented status is reported', () => {
    const json = 'application/json';
    expect(validator.check('/v1/projects', 'GET', 200, json, { projects: [] })).toEqual([]);
    expect(validator.check('/v1/projects', 'GET', 200, json, { projects: 'none' })).not.toEqual([]);
    expect(validator.check('/v1/projects', 'GET', 418, json, {})).not.toEqual([]);
    expect(validator.check('/v1/capture', 'GET', 200, 'image/gif', '')).not.toEqual([]);
  });

  it('lists backgrounds with enum arrays and reads the catalogue', async () => {
    const list = await api.GET('/v1/backgrounds', { params: { query: { group: ['gradients'], limit: 3 } } });
    expectDocumented(list, '/v1/backgrounds', 'GET', 200);
    expect(list.data?.limit).toBe(3);
    const packs = await api.GET('/v1/backgrounds/packs', { params: { query: { theme: 'dark' } } });
    expectDocumented(packs, '/v1/backgrounds/packs', 'GET', 200);
    const wrong = await api.GET('/v1/backgrounds', {
      // A value outside the enum still reaches the server when a client insists: 400, documented.
      params: { query: { group: ['nope' as 'gradients'] } },
    });
    expectDocumented(wrong, '/v1/backgrounds', 'GET', 400);
  });

  it('creates, reads, changes and lists projects, without the fields that have defaults', async () => {
    const created = await api.POST('/v1/projects', { body: { name: 'Typed client' } });
    expectDocumented(created, '/v1/projects', 'POST', 201);
    const id = created.data!.project.id;
    const read = await api.GET('/v1/projects/{id}', { params: { path: { id } } });
    expectDocumented(read, '/v1/projects/{id}', 'GET', 200);
    const blank = await api.PATCH('/v1/projects/{id}', { params: { path: { id } }, body: { name: '\f' } });
    expectDocumented(blank, '/v1/projects/{id}', 'PATCH', 400);
    const renamed = await api.PATCH('/v1/projects/{id}', {
      params: { path: { id } },
      body: { name: 'Renamed', domain: null },
    });
    expectDocumented(renamed, '/v1/projects/{id}', 'PATCH', 200);
    expect(renamed.data?.project.name).toBe('Renamed');
    expectDocumented(await api.GET('/v1/projects'), '/v1/projects', 'GET', 200);
    const status = await api.GET('/v1/projects/{id}/brand/status', { params: { path: { id } } });
    expectDocumented(status, '/v1/projects/{id}/brand/status', 'GET', 200);
    const made = await api.POST('/v1/projects/{id}/default', { params: { path: { id } } });
    expectDocumented(made, '/v1/projects/{id}/default', 'POST', 200);
    const ensured = await api.POST('/v1/projects/ensure-default');
    expectDocumented(ensured, '/v1/projects/ensure-default', 'POST', 200);
    expect(ensured.data?.project.id).toBe(id);
    const rotated = await api.POST('/v1/projects/{id}/signing-secret/rotate', { params: { path: { id } } });
    expectDocumented(rotated, '/v1/projects/{id}/signing-secret/rotate', 'POST', 200);
  });

  it('manages auth profiles and keys, and reads the account', async () => {
    const created = await api.POST('/v1/auth-profiles', {
      body: { domain: 'app.vitrine.test', cookie_header: 'sid=typed' },
    });
    expectDocumented(created, '/v1/auth-profiles', 'POST', 201);
    const id = created.data!.profile.id;
    expectDocumented(await api.GET('/v1/auth-profiles'), '/v1/auth-profiles', 'GET', 200);
    const read = await api.GET('/v1/auth-profiles/{id}', { params: { path: { id } } });
    expectDocumented(read, '/v1/auth-profiles/{id}', 'GET', 200);
    const patched = await api.PATCH('/v1/auth-profiles/{id}', {
      params: { path: { id } },
      body: { domain: 'app.vitrine.test', name: 'Typed' },
    });
    expectDocumented(patched, '/v1/auth-profiles/{id}', 'PATCH', 200);
    const removed = await api.DELETE('/v1/auth-profiles/{id}', { params: { path: { id } } });
    expectDocumented(removed, '/v1/auth-profiles/{id}', 'DELETE', 200);

    const key = await api.POST('/v1/keys', { body: { label: 'typed', scopes: ['capture'] } });
    expectDocumented(key, '/v1/keys', 'POST', 201);
    expectDocumented(await api.GET('/v1/keys'), '/v1/keys', 'GET', 200);
    const revoked = await api.DELETE('/v1/keys/{id}', { params: { path: { id: key.data!.key.id } } });
    expectDocumented(revoked, '/v1/keys/{id}', 'DELETE', 200);
    expectDocumented(await api.GET('/v1/account'), '/v1/account', 'GET', 200);
    expectDocumented(await api.GET('/v1/usage'), '/v1/usage', 'GET', 200);
  });

  it('captures: 201 JSON, 200 image bytes, 302 redirect, 202 queued job; raw with an unknown profile is 404', async () => {
    const url = `${fixtures.origin}/capture/simple.html`;
    const created = await api.POST('/v1/capture', { body: { url, background_style: 'none', padding: 0 } });
    expectDocumented(created, '/v1/capture', 'POST', 201);

    // The generated body type is the capture's own (not `unknown`): tsc refuses a wrong field.
    // @ts-expect-error padding is a number
    const wrong = await api.POST('/v1/capture', { body: { url, padding: 'wide' } });
    expectDocumented(wrong, '/v1/capture', 'POST', 400);

    const query = { url, bg: 'ocean', format: 'webp', width: 320 } as const;
    const json = await api.GET('/v1/capture', { params: { query } });
    expectDocumented(json, '/v1/capture', 'GET', 201);
    const image = await api.GET('/v1/capture', {
      params: { query: { ...query, response: 'image' } },
      parseAs: 'arrayBuffer',
    });
    expectDocumented({ response: image.response }, '/v1/capture', 'GET', 200);
    expect(image.response.headers.get('content-type')).toBe('image/webp');
    expect((image.data as ArrayBuffer).byteLength).toBeGreaterThan(100);
    const redirect = await api.GET('/v1/capture', {
      params: { query: { ...query, response: 'redirect' } },
      redirect: 'manual',
    });
    expectDocumented({ response: redirect.response }, '/v1/capture', 'GET', 302);
    expect(redirect.response.headers.get('location')).toBe((json.data as { url?: string } | undefined)?.url);

    const queued = await api.POST('/v1/capture', { body: { url, async: true, padding: 8 } });
    expectDocumented(queued, '/v1/capture', 'POST', 202);
    const jobId = (queued.data as { job_id: string }).job_id;
    const job = await api.GET('/v1/jobs/{id}', { params: { path: { id: jobId } } });
    expectDocumented(job, '/v1/jobs/{id}', 'GET', 200);

    const raw = await api.POST('/v1/raw', { body: { url, auth_profile_id: UNKNOWN_PROFILE } });
    expectDocumented(raw, '/v1/raw', 'POST', 404);
  });

  it('runs the public device login calls', async () => {
    const code = await api.POST('/v1/device/code', { body: {} });
    expectDocumented(code, '/v1/device/code', 'POST', 201);
    const poll = await api.POST('/v1/device/token', { body: { poll_token: code.data!.poll_token } });
    expectDocumented(poll, '/v1/device/token', 'POST', 200);
    expect(poll.data).toMatchObject({ status: 'pending' });
  });
});
