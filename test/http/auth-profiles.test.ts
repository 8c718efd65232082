import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestApp, type TestApp, type TestKey, uniqueName } from '../support/test-app.ts';
import { createWebClient } from '../support/web-client.ts';

const DOMAIN = 'app.vitrine.test';
const SECRET_VALUE = 'sekrit-cookie-value-1234';
const UNKNOWN_ID = 'ap_01ARZ3NDEKTSV4RRFFQ69G5FAV';

/** The profile API (docs/api-decisions.md section 8): inputs, checks, ownership, storage. No browser here. */
describe.each(ENGINES)('auth profiles API on %s', (engine) => {
  let t: TestApp;
  let owner: TestKey;
  let stranger: TestKey;

  beforeAll(async () => {
    t = await startTestApp(engine);
    owner = await t.createKey();
    stranger = await t.createKey();
  });
  afterAll(async () => {
    await t.close();
  });

  const create = (json: unknown, key = owner.key) => t.request('POST', '/v1/auth-profiles', { key, json });

  it('merges the sources in order, drops foreign cookies with a warning, and never returns values', async () => {
    const res = await create({
      domain: 'https://App.Vitrine.test/login',
      name: 'Staging',
      cookie_header: `sid=${SECRET_VALUE}; theme=dark`,
      storage_state: {
        cookies: [
          {
            name: 'sid',
            value: 'from-storage-state',
            domain: '.app.vitrine.test',
            path: '/',
            expires: -1,
            httpOnly: true,
            secure: false,
            sameSite: 'Lax',
            partitionKey: 'ignored',
          },
          { name: 'tracker', value: 'x', domain: '.ads.example.com', path: '/' },
        ],
        origins: [
          { origin: 'http://app.vitrine.test:8080', localStorage: [{ name: 'token', value: 'ls-1' }] },
        ],
      },
      cookies: [{ name: 'sub', value: 'deep', domain: 'eu.app.vitrine.test' }],
      origins: [{ origin: 'https://elsewhere.example', localStorage: [{ name: 'a', value: 'b' }] }],
    });
    expect(res.status, res.text).toBe(201);
    const { profile, warnings } = res.json;
    expect(profile).toMatchObject({
      name: 'Staging',
      domain: DOMAIN,
      cookie_count: 3,
      status: 'active',
      project_id: null,
      last_used_at: null,
    });
    expect(profile.id).toMatch(/^ap_[A-Z0-9]{26}$/);
    expect(warnings.join('\n')).toContain('Cookie tracker for .ads.example.com dropped');
    expect(warnings.join('\n')).toContain('localStorage of https://elsewhere.example dropped');
    expect(res.text).not.toContain(SECRET_VALUE);
    expect(res.text).not.toContain('ls-1');

    const read = await t.request('GET', `/v1/auth-profiles/${profile.id}`, { key: owner.key });
    expect(read.status).toBe(200);
    expect(read.json.profile).toEqual(profile);
    expect(read.text).not.toContain('from-storage-state');

    // The raw row holds ciphertext only: no value, no cookie name.
    const row = await t.app.database.db
      .selectFrom('auth_profiles')
      .selectAll()
      .where('id', '=', profile.id)
      .executeTakeFirstOrThrow();
    const rowText = JSON.stringify(row);
    for (const plain of [SECRET_VALUE, 'from-storage-state', 'ls-1', 'deep', 'theme']) {
      expect(rowText).not.toContain(plain);
    }
    expect(row.state_sealed).toMatch(/^v1\./);

    // Later sources win per (name, domain, path): storage_state's sid replaced the header's.
    const state = await t.app.services.authProfiles.loadForRun(owner.userId, { id: profile.id, version: 1 });
    const sid = state.state.cookies.filter((c) => c.name === 'sid');
    expect(sid).toHaveLength(1);
    expect(sid[0]?.value).toBe('from-storage-state');
    expect(state.state.origins).toEqual([
      { origin: 'http://app.vitrine.test:8080', localStorage: [{ name: 'token', value: 'ls-1' }] },
    ]);
  });

  it('refuses public suffixes and oversized inputs with a 400 that names the field', async () => {
    for (const domain of ['com', 'co.uk', 'github.io', 'https://com/']) {
      const res = await create({ domain, cookie_header: 'a=b' });
      expect(res.status, domain).toBe(400);
      expect(res.json.error.code).toBe('invalid_params');
      expect(res.json.error.message).toContain('public suffix');
    }
    const many = Array.from({ length: 201 }, (_, i) => ({ name: `c${i}`, value: 'v' }));
    const tooMany = await create({ domain: DOMAIN, cookies: many });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.details.issues[0].path).toBe('cookies');

    const big = await create({ domain: DOMAIN, cookies: [{ name: 'big', value: 'x'.repeat(5000) }] });
    expect(big.status).toBe(400);
    expect(big.text).not.toContain('x'.repeat(100));

    const total = await create({
      domain: DOMAIN,
      cookies: Array.from({ length: 40 }, (_, i) => ({ name: `c${i}`, value: 'y'.repeat(4000) })),
    });
    expect(total.status).toBe(400);
    expect(total.json.error.message).toContain('the limit is');

    const badName = await create({ domain: DOMAIN, cookies: [{ name: 'a b', value: 'v' }] });
    expect(badName.status).toBe(400);
    const unknown = await create({ domain: DOMAIN, secret: 1 });
    expect(unknown.status).toBe(400);
    const noDomain = await create({ cookie_header: 'a=b' });
    expect(noDomain.status).toBe(400);
  });

  it('keeps status true: expired when every cookie expired, active with a session cookie', async () => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    const future = Math.floor(Date.now() / 1000) + 3600;
    const expired = await create({
      domain: DOMAIN,
      cookies: [
        { name: 'a', value: '1', expires: past },
        { name: 'b', value: '2', expires: past - 10 },
      ],
    });
    expect(expired.json.profile.status).toBe('expired');
    const mixed = await create({
      domain: DOMAIN,
      cookies: [
        { name: 'a', value: '1', expires: past },
        { name: 'b', value: '2', expires: future },
      ],
    });
    expect(mixed.json.profile.status).toBe('active');
    const session = await create({
      domain: DOMAIN,
      cookies: [
        { name: 'a', value: '1', expires: past },
        { name: 's', value: '2' },
      ],
    });
    expect(session.json.profile.status).toBe('active');
  });

  it('PATCH replaces the cookies when given, keeps them otherwise, and re-checks them against a new domain', async () => {
    const created = await create({
      domain: 'vitrine.test',
      cookies: [{ name: 'a', value: '1', domain: 'one.vitrine.test' }],
    });
    const id = created.json.profile.id;
    const renamed = await t.request('PATCH', `/v1/auth-profiles/${id}`, {
      key: owner.key,
      json: { domain: 'vitrine.test', name: 'Renamed' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json.profile).toMatchObject({ name: 'Renamed', cookie_count: 1 });
    const replaced = await t.request('PATCH', `/v1/auth-profiles/${id}`, {
      key: owner.key,
      json: { domain: 'vitrine.test', cookie_header: 'x=1; y=2' },
    });
    expect(replaced.json.profile.cookie_count).toBe(2);
    const narrowed = await t.request('PATCH', `/v1/auth-profiles/${id}`, {
      key: owner.key,
      json: { domain: 'two.vitrine.test', cookies: [{ name: 'z', value: '1', domain: 'one.vitrine.test' }] },
    });
    expect(narrowed.json.profile).toMatchObject({ domain: 'two.vitrine.test', cookie_count: 0 });
    expect(narrowed.json.warnings[0]).toContain('Cookie z for one.vitrine.test dropped');
    const missingDomain = await t.request('PATCH', `/v1/auth-profiles/${id}`, {
      key: owner.key,
      json: { name: 'x' },
    });
    expect(missingDomain.status).toBe(400);
  });

  it("lists by project; another account's profile or project is a 404 everywhere", async () => {
    const project = (await t.request('POST', '/v1/projects', { key: owner.key, json: { name: 'P' } })).json
      .project.id;
    const theirs = (await t.request('POST', '/v1/projects', { key: stranger.key, json: { name: 'Q' } })).json
      .project.id;
    const inProject = await create({ domain: DOMAIN, project_id: project, cookie_header: 'a=1' });
    expect(inProject.status, inProject.text).toBe(201);
    const listed = await t.request('GET', `/v1/auth-profiles?project_id=${project}`, { key: owner.key });
    expect(listed.json.profiles.map((p: { id: string }) => p.id)).toEqual([inProject.json.profile.id]);
    const all = await t.request('GET', '/v1/auth-profiles', { key: owner.key });
    expect(all.json.profiles.length).toBeGreaterThan(1);

    expect((await create({ domain: DOMAIN, project_id: theirs })).status).toBe(404);
    expect(
      (await t.request('GET', `/v1/auth-profiles?project_id=${theirs}`, { key: owner.key })).status,
    ).toBe(404);

    const id = inProject.json.profile.id;
    for (const target of [id, UNKNOWN_ID]) {
      const key = stranger.key;
      const answers = [
        await t.request('GET', `/v1/auth-profiles/${target}`, { key }),
        await t.request('PATCH', `/v1/auth-profiles/${target}`, { key, json: { domain: DOMAIN } }),
        await t.request('POST', `/v1/auth-profiles/${target}/test`, {
          key,
          json: { url: `http://${DOMAIN}/` },
        }),
        await t.request('DELETE', `/v1/auth-profiles/${target}`, { key }),
        await t.request('POST', '/v1/capture', {
          key,
          json: { url: `http://${DOMAIN}/`, auth_profile_id: target },
        }),
        await t.request('POST', '/v1/raw', {
          key,
          json: { url: `http://${DOMAIN}/`, auth_profile_id: target },
        }),
        await t.request('GET', `/v1/capture?url=http://${DOMAIN}/&auth_profile_id=${target}`, { key }),
      ];
      for (const answer of answers) {
        expect(answer.status, answer.text).toBe(404);
        expect(answer.json.error.code).toBe('not_found');
      }
    }
    expect((await t.request('GET', '/v1/auth-profiles', { key: stranger.key })).json.profiles).toEqual([]);
    const removed = await t.request('DELETE', `/v1/auth-profiles/${id}`, { key: owner.key });
    expect(removed.json).toEqual({ deleted: true });
    expect((await t.request('GET', `/v1/auth-profiles/${id}`, { key: owner.key })).status).toBe(404);
  });

  it('lists the profiles on the account page, escaped, without any cookie', async () => {
    const email = `${uniqueName('web')}@example.com`;
    const user = await t.app.services.accounts.createUser(email, 'a long password');
    await t.app.services.authProfiles.create(user.id, {
      domain: DOMAIN,
      name: 'Admin <b>panel</b>',
      cookie_header: `sid=${SECRET_VALUE}`,
    });
    const web = createWebClient(t.baseUrl);
    await web.signIn(email, 'a long password');
    const page = await web.get('/account');
    expect(page.text).toContain('<h2>Auth profiles</h2>');
    expect(page.text).toContain('Admin &lt;b&gt;panel&lt;/b&gt;');
    expect(page.text).toContain(DOMAIN);
    expect(page.text).not.toContain(SECRET_VALUE);
  });

  it('needs the auth_profiles scope', async () => {
    const captureOnly = await t.createKey({ scopes: ['capture'] });
    const res = await t.request('GET', '/v1/auth-profiles', { key: captureOnly.key });
    expect(res.status).toBe(403);
    expect(res.json.error.details.required_scope).toBe('auth_profiles');
  });

  it('a sealed state moved onto another record does not open', async () => {
    const a = (await create({ domain: DOMAIN, cookie_header: `sid=${SECRET_VALUE}` })).json.profile.id;
    const b = (await create({ domain: DOMAIN, cookie_header: 'sid=other' })).json.profile.id;
    const db = t.app.database.db;
    const rowA = await db
      .selectFrom('auth_profiles')
      .select('state_sealed')
      .where('id', '=', a)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('auth_profiles')
      .set({ state_sealed: rowA.state_sealed })
      .where('id', '=', b)
      .execute();
    await expect(t.app.services.authProfiles.loadForRun(owner.userId, { id: b, version: 1 })).rejects.toThrow(
      /could not be decrypted/,
    );
    const tested = await t.request('POST', `/v1/auth-profiles/${b}/test`, {
      key: owner.key,
      json: { url: `http://${DOMAIN}/` },
    });
    expect(tested.status).toBe(500);
    expect(tested.text).not.toContain(SECRET_VALUE);
    // The record it came from still opens.
    const own = await t.app.services.authProfiles.loadForRun(owner.userId, { id: a, version: 1 });
    expect(own.state.cookies[0]?.value).toBe(SECRET_VALUE);
  });
});
