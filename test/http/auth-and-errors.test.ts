import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../packages/server/src/auth/api-key-format.ts';
import { ENGINES, startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

describe.each(ENGINES)('authentication, scopes and the error envelope on %s', (engine) => {
  let t: TestApp;
  let full: TestKey;

  beforeAll(async () => {
    t = await startTestApp(engine);
    full = await t.createKey();
  });
  afterAll(() => t.close());

  it('refuses a missing key with 401 unauthorized', async () => {
    const res = await t.request('GET', '/v1/projects');
    expect(res.status).toBe(401);
    expect(res.json).toEqual({
      error: { code: 'unauthorized', message: expect.stringContaining('Missing API key') },
    });
  });

  it('refuses malformed, bad-checksum and unknown keys before doing anything', async () => {
    // Change the key's last character (the checksum's) to another one: keeping an `x` that
    // was already there would send the valid key (1 key in 62).
    const badChecksum = `${full.key.slice(0, -1)}${full.key.endsWith('x') ? 'y' : 'x'}`;
    for (const header of ['Basic abc', 'Bearer', 'Bearer not-a-key', `Bearer ${badChecksum}`]) {
      const res = await t.request('GET', '/v1/projects', { headers: { authorization: header } });
      expect(res.status, header).toBe(401);
      expect(res.json.error.code).toBe('unauthorized');
    }
    const wellFormedButUnknown = await t.request('GET', '/v1/projects', { key: generateApiKey('live') });
    expect(wellFormedButUnknown.status).toBe(401);
    expect(wellFormedButUnknown.json.error.message).toBe('Unknown API key');
  });

  it('refuses a revoked key', async () => {
    const k = await t.createKey();
    expect((await t.request('GET', '/v1/usage', { key: k.key })).status).toBe(200);
    await t.app.services.accounts.apiKeys.revoke(k.keyId, new Date().toISOString());
    const res = await t.request('GET', '/v1/usage', { key: k.key });
    expect(res.status).toBe(401);
    expect(res.json.error.message).toContain('revoked');
  });

  it('accepts api_key in the query on GET only', async () => {
    const get = await t.request('GET', `/v1/usage?api_key=${full.key}`);
    expect(get.status).toBe(200);
    const post = await t.request('POST', `/v1/projects?api_key=${full.key}`, { json: {} });
    expect(post.status).toBe(401);
  });

  it('records when a key was last used', async () => {
    const k = await t.createKey();
    const before = await t.app.services.accounts.apiKeys.findById(k.keyId);
    expect(before?.last_used_at).toBeNull();
    await t.request('GET', '/v1/usage', { key: k.key });
    const after = await t.app.services.accounts.apiKeys.findById(k.keyId);
    expect(after?.last_used_at).toMatch(/^\d{4}-/);
  });

  it('answers 403 forbidden_scope naming the scope the key lacks', async () => {
    const usageOnly = await t.createKey({ scopes: ['usage'] });
    expect((await t.request('GET', '/v1/usage', { key: usageOnly.key })).status).toBe(200);
    const res = await t.request('POST', '/v1/projects', { key: usageOnly.key, json: {} });
    expect(res.status).toBe(403);
    expect(res.json.error).toMatchObject({
      code: 'forbidden_scope',
      details: { required_scope: 'projects' },
    });
    const projectsOnly = await t.createKey({ scopes: ['projects'] });
    expect((await t.request('GET', '/v1/usage', { key: projectsOnly.key })).status).toBe(403);
  });

  it('maps bad JSON, non-object bodies, oversized bodies and prototype poisoning to the envelope', async () => {
    const headers = { 'content-type': 'application/json' };
    const badJson = await t.request('POST', '/v1/projects', { key: full.key, headers, body: '{"name": ' });
    expect(badJson.status).toBe(400);
    expect(badJson.json.error.code).toBe('invalid_json');

    const array = await t.request('POST', '/v1/projects', { key: full.key, json: [1, 2] });
    expect(array.status).toBe(400);
    expect(array.json.error).toMatchObject({
      code: 'invalid_json',
      message: 'The body must be a JSON object',
    });

    const poisoned = await t.request('POST', '/v1/projects', {
      key: full.key,
      headers,
      body: '{"name":"x","__proto__":{"admin":true}}',
    });
    expect(poisoned.status).toBe(400);
    expect(poisoned.json.error.code).toBe('invalid_json');

    const constructorPoison = await t.request('POST', '/v1/projects', {
      key: full.key,
      headers,
      body: '{"name":"x","constructor":{"prototype":{"admin":true}}}',
    });
    expect(constructorPoison.status).toBe(400);

    const huge = await t.request('POST', '/v1/projects', {
      key: full.key,
      json: { name: 'x'.repeat(300 * 1024) },
    });
    expect(huge.status).toBe(413);
    expect(huge.json.error.code).toBe('payload_too_large');

    const text = await t.request('POST', '/v1/projects', {
      key: full.key,
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(text.status).toBe(400);
    expect(text.json.error.code).toBe('invalid_json');
  });

  it('answers unknown routes with 404 in the envelope', async () => {
    const res = await t.request('GET', '/v1/nothing-here', { key: full.key });
    expect(res.status).toBe(404);
    expect(res.json.error).toMatchObject({ code: 'not_found' });
  });

  it('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
    const echoed = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('abc-123');
    const replaced = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'bad id\t<script>' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^req_[0-9A-Z]{26}$/);
    const generated = await t.request('GET', '/v1/usage', { key: full.key });
    expect(generated.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('never leaks internals in a 500', async () => {
    const res = await t.request('GET', '/v1/projects/prj_00000000000000000000000000', {
      key: full.key,
      headers: { 'x-request-id': 'trace-me' },
    });
    expect(res.status).toBe(404);
    expect(res.text).not.toMatch(/stack|at Object|\.ts:/);
  });
});
