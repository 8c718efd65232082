import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

describe.each(ENGINES)('projects API on %s', (engine) => {
  let t: TestApp;
  let owner: TestKey;
  let stranger: TestKey;

  beforeAll(async () => {
    t = await startTestApp(engine);
    owner = await t.createKey();
    stranger = await t.createKey();
  });
  afterAll(() => t.close());

  it('creates a project with a normalised domain, a signing secret, and pending brand extraction', async () => {
    const res = await t.request('POST', '/v1/projects', {
      key: owner.key,
      json: { domain: 'https://Shop.Example.COM/pricing' },
    });
    expect(res.status).toBe(201);
    expect(res.json.signing_secret).toMatch(/^vss_[A-Za-z0-9_-]{43}$/);
    const project = res.json.project;
    expect(project.id).toMatch(/^prj_[0-9A-Z]{26}$/);
    expect(project).toMatchObject({
      name: 'shop.example.com',
      domain: 'shop.example.com',
      brand: null,
      brand_status: 'pending',
      brand_error: null,
      is_default: false,
    });
    expect(project.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('defaults the name and sets brand_status by the rules of the contract', async () => {
    const bare = await t.request('POST', '/v1/projects', { key: owner.key });
    expect(bare.status).toBe(201);
    expect(bare.json.project).toMatchObject({
      name: 'Untitled project',
      domain: null,
      brand_status: 'skipped',
    });

    const noExtract = await t.request('POST', '/v1/projects', {
      key: owner.key,
      json: { name: 'Docs', domain: 'docs.example.org', start_brand_extract: false },
    });
    expect(noExtract.json.project).toMatchObject({ name: 'Docs', brand_status: 'none' });
  });

  it('refuses a second project for the same domain with 409', async () => {
    await t.request('POST', '/v1/projects', { key: owner.key, json: { domain: 'dup.example.com' } });
    const again = await t.request('POST', '/v1/projects', {
      key: owner.key,
      json: { domain: 'DUP.example.com.' },
    });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('conflict');
    expect(again.json.error.message).toContain('dup.example.com');
    // Another account may use the same domain.
    const other = await t.request('POST', '/v1/projects', {
      key: stranger.key,
      json: { domain: 'dup.example.com' },
    });
    expect(other.status).toBe(201);
  });

  it('reads, lists and updates own projects; other accounts get 404', async () => {
    const created = await t.request('POST', '/v1/projects', { key: owner.key, json: { name: 'Mine' } });
    const id = created.json.project.id;

    const read = await t.request('GET', `/v1/projects/${id}`, { key: owner.key });
    expect(read.status).toBe(200);
    expect(read.json.project.name).toBe('Mine');

    const foreignRead = await t.request('GET', `/v1/projects/${id}`, { key: stranger.key });
    expect(foreignRead.status).toBe(404);
    expect(foreignRead.json.error.code).toBe('not_found');

    const patched = await t.request('PATCH', `/v1/projects/${id}`, {
      key: owner.key,
      json: { name: 'Renamed', domain: 'renamed.example.com' },
    });
    expect(patched.status).toBe(200);
    expect(patched.json.project).toMatchObject({ name: 'Renamed', domain: 'renamed.example.com' });

    const cleared = await t.request('PATCH', `/v1/projects/${id}`, {
      key: owner.key,
      json: { domain: null },
    });
    expect(cleared.json.project.domain).toBeNull();

    const foreignPatch = await t.request('PATCH', `/v1/projects/${id}`, {
      key: stranger.key,
      json: { name: 'x' },
    });
    expect(foreignPatch.status).toBe(404);
    expect((await t.request('GET', `/v1/projects/${id}`, { key: owner.key })).json.project.name).toBe(
      'Renamed',
    );

    const list = await t.request('GET', '/v1/projects', { key: owner.key });
    expect(list.json.projects.map((p: { id: string }) => p.id)).toContain(id);
    const foreignList = await t.request('GET', '/v1/projects', { key: stranger.key });
    expect(foreignList.json.projects.map((p: { id: string }) => p.id)).not.toContain(id);
  });

  it('keeps exactly one default project per account', async () => {
    const key = await t.createKey();
    const a = (
      await t.request('POST', '/v1/projects', { key: key.key, json: { name: 'A', make_default: true } })
    ).json.project;
    expect(a.is_default).toBe(true);
    const b = (
      await t.request('POST', '/v1/projects', { key: key.key, json: { name: 'B', make_default: true } })
    ).json.project;
    expect(b.is_default).toBe(true);
    const list = (await t.request('GET', '/v1/projects', { key: key.key })).json.projects;
    expect(
      list.filter((p: { is_default: boolean }) => p.is_default).map((p: { id: string }) => p.id),
    ).toEqual([b.id]);

    const switched = await t.request('POST', `/v1/projects/${a.id}/default`, { key: key.key });
    expect(switched.status).toBe(200);
    expect(switched.json).toEqual({ success: true });
    const after = (await t.request('GET', '/v1/projects', { key: key.key })).json.projects;
    expect(
      after.filter((p: { is_default: boolean }) => p.is_default).map((p: { id: string }) => p.id),
    ).toEqual([a.id]);

    const foreign = await t.request('POST', `/v1/projects/${a.id}/default`, { key: stranger.key });
    expect(foreign.status).toBe(404);
  });

  it('ensure-default creates "Default project" once, even under concurrent calls', async () => {
    const key = await t.createKey();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => t.request('POST', '/v1/projects/ensure-default', { key: key.key })),
    );
    for (const r of results) expect(r.status).toBe(200);
    const ids = new Set(results.map((r) => r.json.project.id));
    expect(ids.size).toBe(1);
    expect(results[0]!.json.project).toMatchObject({
      name: 'Default project',
      is_default: true,
      brand_status: 'skipped',
    });
    const list = (await t.request('GET', '/v1/projects', { key: key.key })).json.projects;
    expect(list).toHaveLength(1);
  });

  it('reports brand status and rotates the signing secret with an overlap', async () => {
    const created = await t.request('POST', '/v1/projects', {
      key: owner.key,
      json: { domain: 'brand.example.com' },
    });
    const id = created.json.project.id;
    const status = await t.request('GET', `/v1/projects/${id}/brand/status`, { key: owner.key });
    expect(status.status).toBe(200);
    // Extraction runs in the background: still pending, already processing, or failed (the
    // domain does not resolve here); never completed, and no brand without it.
    expect(status.json).toMatchObject({ brand: null, project: { id } });
    expect(['pending', 'processing', 'failed']).toContain(status.json.status);

    const rotated = await t.request('POST', `/v1/projects/${id}/signing-secret/rotate`, { key: owner.key });
    expect(rotated.status).toBe(200);
    expect(rotated.json.signing_secret).toMatch(/^vss_/);
    expect(rotated.json.signing_secret).not.toBe(created.json.signing_secret);
    const expiresIn = Date.parse(rotated.json.previous_secret_expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(23 * 3600_000);
    expect(expiresIn).toBeLessThanOrEqual(24 * 3600_000);

    // Both secrets verify during the overlap.
    const row = await t.app.database.db
      .selectFrom('projects')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(t.app.services.projects.validSigningSecrets(row)).toEqual([
      rotated.json.signing_secret,
      created.json.signing_secret,
    ]);
    const foreign = await t.request('POST', `/v1/projects/${id}/signing-secret/rotate`, {
      key: stranger.key,
    });
    expect(foreign.status).toBe(404);
  });

  it('validates ids, domains and fields with messages that name the field', async () => {
    const badId = await t.request('GET', '/v1/projects/prj_lowercase', { key: owner.key });
    expect(badId.status).toBe(400);
    expect(badId.json.error.details.issues[0].path).toBe('id');

    const unknownId = await t.request('GET', '/v1/projects/prj_00000000000000000000000000', {
      key: owner.key,
    });
    expect(unknownId.status).toBe(404);

    const badDomain = await t.request('POST', '/v1/projects', {
      key: owner.key,
      json: { domain: 'not a domain' },
    });
    expect(badDomain.status).toBe(400);
    expect(badDomain.json.error).toMatchObject({ code: 'invalid_params' });
    expect(badDomain.json.error.message).toContain('domain');

    const wrongType = await t.request('POST', '/v1/projects', {
      key: owner.key,
      json: { make_default: 'yes' },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json.error.details.issues[0]).toMatchObject({ path: 'make_default' });
    expect(wrongType.json.error.message).toContain('expected boolean');

    const unknownField = await t.request('PATCH', `/v1/projects/prj_00000000000000000000000000`, {
      key: owner.key,
      json: { name: 'x', owner: 'me' },
    });
    expect(unknownField.status).toBe(400);
    expect(unknownField.json.error.message).toBe('Unknown field: owner');

    const emptyName = await t.request('POST', '/v1/projects', { key: owner.key, json: { name: '   ' } });
    expect(emptyName.status).toBe(400);
  });
});
