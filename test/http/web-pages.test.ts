import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../packages/server/src/logger.ts';
import { ENGINES, startTestApp, type TestApp, uniqueName } from '../support/test-app.ts';
import { createWebClient } from '../support/web-client.ts';

const PASSWORD = 'a long enough password';
const SAME_FAILURE = 'Sign-in failed. Check the email and password';

describe.each(ENGINES)('first-run setup (%s)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is open while no account exists, creates exactly one under a race, then closes', async () => {
    const visitor = createWebClient(t.baseUrl);
    const login = await visitor.get('/login');
    expect(login.status).toBe(303);
    expect(login.location).toBe('/setup');
    const page = await visitor.get('/setup');
    expect(page.status).toBe(200);

    expect(
      (await visitor.post('/setup', { email: 'a@example.com', password: PASSWORD, confirm: PASSWORD }))
        .status,
    ).toBe(403);
    const differ = await visitor.post('/setup', {
      email: 'a@example.com',
      password: PASSWORD,
      confirm: `${PASSWORD}!`,
      _csrf: visitor.csrfOf(page),
    });
    expect(differ.status).toBe(400);
    expect(differ.text).toContain('The two passwords differ');
    const short = await visitor.post('/setup', {
      email: 'a@example.com',
      password: 'short',
      confirm: 'short',
      _csrf: visitor.csrfOf(differ),
    });
    expect(short.status).toBe(400);

    const racers = await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        const client = createWebClient(t.baseUrl);
        const form = await client.get('/setup');
        const res = await client.post('/setup', {
          email: `first${i}@example.com`,
          password: PASSWORD,
          confirm: PASSWORD,
          _csrf: client.csrfOf(form),
        });
        return { client, res };
      }),
    );
    const winners = racers.filter((r) => r.res.status === 303);
    expect(winners).toHaveLength(1);
    for (const loser of racers.filter((r) => r.res.status !== 303)) expect(loser.res.status).toBe(404);
    expect(await t.app.services.accounts.users.list()).toHaveLength(1);

    const winner = winners[0]!;
    expect(winner.res.location).toBe('/account');
    const account = await winner.client.get('/account');
    expect(account.status).toBe(200);
    expect(account.text).toMatch(/first\d@example\.com/);
    expect((await createWebClient(t.baseUrl).get('/setup')).status).toBe(404);
  });
});

describe('sign-in, sessions and the account page', () => {
  let t: TestApp;
  let email: string;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
    email = `${uniqueName('web')}@example.com`;
    await t.app.services.accounts.createUser(email, PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives every failure the same answer: unknown email, wrong password, no password set, bad email', async () => {
    const passwordless = await t.app.services.accounts.findOrCreateUser(`${uniqueName('nopw')}@example.com`);
    const web = createWebClient(t.baseUrl);
    const answers = [];
    for (const [who, password] of [
      [`${uniqueName('nobody')}@example.com`, PASSWORD],
      [email, 'wrong password'],
      [passwordless.email, ''],
      ['not an email', PASSWORD],
    ] as const) {
      const res = await web.signIn(who, password);
      answers.push({
        status: res.status,
        message: /<p class="error" role="alert">([^<]*)</.exec(res.text)?.[1],
      });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual({ status: 401, message: expect.stringContaining(SAME_FAILURE) });
  });

  it('sets a signed, HttpOnly, SameSite=Lax session cookie; a tampered cookie signs nobody in', async () => {
    const web = createWebClient(t.baseUrl);
    const res = await web.signIn(email, PASSWORD);
    expect(res.status).toBe(303);
    expect(res.location).toBe('/account');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('vitrine_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    const value = web.cookies.get('vitrine_session')!;
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_%+/=-]+$/);

    const tampered = createWebClient(t.baseUrl);
    const [id] = value.split('.');
    tampered.cookies.set('vitrine_session', `${id}.${'A'.repeat(43)}`);
    expect((await tampered.get('/account')).status).toBe(303);
    tampered.cookies.set('vitrine_session', id!);
    expect((await tampered.get('/account')).status).toBe(303);
  });

  it('signs out server-side: the old cookie no longer works anywhere', async () => {
    const web = createWebClient(t.baseUrl);
    await web.signIn(email, PASSWORD);
    const stolen = web.cookies.get('vitrine_session')!;
    const account = await web.get('/account');
    expect(account.status).toBe(200);
    expect((await web.post('/logout', {})).status).toBe(403);
    const out = await web.post('/logout', { _csrf: web.csrfOf(account) });
    expect(out.status).toBe(303);
    expect(web.cookies.has('vitrine_session')).toBe(false);
    const replay = createWebClient(t.baseUrl);
    replay.cookies.set('vitrine_session', stolen);
    const page = await replay.get('/account');
    expect(page.status).toBe(303);
    expect(page.location).toBe('/login?next=%2Faccount');
  });

  it('returns only to same-site paths after sign-in', async () => {
    for (const [next, expected] of [
      ['/device?code=BCDF-GHJK', '/device?code=BCDF-GHJK'],
      ['//evil.example/x', '/account'],
      ['https://evil.example/', '/account'],
      ['/\\evil.example', '/account'],
    ]) {
      const web = createWebClient(t.baseUrl);
      const form = await web.get(`/login?next=${encodeURIComponent(next!)}`);
      const res = await web.post('/login', {
        email,
        password: PASSWORD,
        next: next!,
        _csrf: web.csrfOf(form),
      });
      expect(res.location, next).toBe(expected);
    }
  });

  it('throttles sign-in per account: after 10 failures even the right password fails, with the same text', async () => {
    const victim = `${uniqueName('victim')}@example.com`;
    await t.app.services.accounts.createUser(victim, PASSWORD);
    const web = createWebClient(t.baseUrl);
    for (let i = 0; i < 10; i++) expect((await web.signIn(victim, `wrong ${i}`)).status).toBe(401);
    const blocked = await web.signIn(victim, PASSWORD);
    expect(blocked.status).toBe(401);
    expect(blocked.text).toContain(SAME_FAILURE);
    // Other accounts from the same address still sign in (the per-IP budget is larger).
    expect((await createWebClient(t.baseUrl).signIn(email, PASSWORD)).status).toBe(303);
  });

  it('shows keys, credits, 30-day usage and projects; creates a key shown once; revokes it', async () => {
    const user = (await t.app.services.accounts.users.findByEmail(email))!;
    await t.app.services.projects.create(user.id, {
      name: 'Docs site',
      domain: 'docs.example.com',
      make_default: true,
      start_brand_extract: false,
    });
    const web = createWebClient(t.baseUrl);
    await web.signIn(email, PASSWORD);
    const page = await web.get('/account');
    expect(page.text).toContain('Credits left');
    expect(page.text).toContain('Renders, last 30 days');
    expect(page.text).toMatch(/Docs site <span class="badge ok">default<\/span>/);
    expect(page.text).toContain('docs.example.com');
    expect(page.text).toMatch(/<span class="badge">none<\/span>/);

    const created = await web.post('/account/keys', {
      label: 'CI <script>',
      scope: ['capture', 'usage'],
      _csrf: web.csrfOf(page),
    });
    expect(created.status).toBe(201);
    const key = /<code class="secret">(vt_live_[0-9A-Za-z]+)<\/code>/.exec(created.text)![1]!;
    expect(created.text).toContain('CI &lt;script&gt;');
    expect(created.text).not.toContain('CI <script>');
    const usage = await t.request('GET', '/v1/usage', { key });
    expect(usage.status).toBe(200);
    expect((await t.request('GET', '/v1/projects', { key })).status).toBe(403);
    const account = await t.request('GET', '/v1/account', { key });
    expect(account.json.key).toMatchObject({
      created_by: 'web',
      label: 'CI <script>',
      scopes: ['capture', 'usage'],
    });

    const again = await web.get('/account');
    expect(again.text).not.toContain(key);
    expect(again.text).toContain(account.json.key.prefix);

    const bad = await web.post('/account/keys', { scope: 'teleport', _csrf: web.csrfOf(again) });
    expect(bad.status).toBe(400);

    const keyId = account.json.key.id as string;
    expect((await web.post(`/account/keys/${keyId}/revoke`, {})).status).toBe(403);
    const revoked = await web.post(`/account/keys/${keyId}/revoke`, { _csrf: web.csrfOf(again) });
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe(`/account?revoked=${keyId}`);
    expect((await t.request('GET', '/v1/usage', { key })).status).toBe(401);
  });

  it("never revokes another account's key from the page", async () => {
    const other = await t.createKey();
    const web = createWebClient(t.baseUrl);
    await web.signIn(email, PASSWORD);
    const page = await web.get('/account');
    const res = await web.post(`/account/keys/${other.keyId}/revoke`, { _csrf: web.csrfOf(page) });
    expect(res.status).toBe(404);
    expect((await t.request('GET', '/v1/usage', { key: other.key })).status).toBe(200);
  });
});

describe('/v1/keys and /v1/account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists, creates (never more than the caller holds) and revokes keys of the own account only', async () => {
    const full = await t.createKey();
    const limited = await t.createKey({ email: full.email, scopes: ['keys', 'capture'] });
    const stranger = await t.createKey();

    const listed = await t.request('GET', '/v1/keys', { key: full.key });
    expect(listed.status).toBe(200);
    expect(listed.json.keys.map((k: { id: string }) => k.id)).toEqual([full.keyId, limited.keyId]);
    expect(JSON.stringify(listed.json)).not.toContain(full.key);

    const narrow = await t.request('POST', '/v1/keys', {
      key: limited.key,
      json: { scopes: ['capture'], label: 'ci' },
    });
    expect(narrow.status).toBe(201);
    expect(narrow.json.api_key).toMatch(/^vt_live_/);
    expect(narrow.json.key).toMatchObject({
      label: 'ci',
      scopes: ['capture'],
      created_by: 'api',
      mode: 'live',
    });
    for (const scopes of [[], ['projects'], ['capture', 'raw']]) {
      const res = await t.request('POST', '/v1/keys', { key: limited.key, json: { scopes } });
      expect(res.status, JSON.stringify(scopes)).toBe(403);
      expect(res.json.error.code).toBe('forbidden_scope');
    }
    const wide = await t.request('POST', '/v1/keys', { key: full.key, json: {} });
    expect(wide.json.key.scopes).toEqual([]);

    const captureOnly = await t.createKey({ scopes: ['capture'] });
    expect((await t.request('GET', '/v1/keys', { key: captureOnly.key })).status).toBe(403);
    // /v1/account answers any valid key, whatever its scopes.
    const me = await t.request('GET', '/v1/account', { key: captureOnly.key });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({
      key: { id: captureOnly.keyId, scopes: ['capture'] },
      credits_monthly: 1000,
    });
    expect((await t.request('GET', '/v1/account')).status).toBe(401);

    const foreign = await t.request('DELETE', `/v1/keys/${stranger.keyId}`, { key: full.key });
    expect(foreign.status).toBe(404);
    expect((await t.request('DELETE', '/v1/keys/key_nope', { key: full.key })).status).toBe(400);
    const gone = await t.request('DELETE', `/v1/keys/${narrow.json.key.id}`, { key: full.key });
    expect(gone.status).toBe(200);
    expect(gone.json.key.revoked_at).not.toBeNull();
    expect((await t.request('GET', '/v1/account', { key: narrow.json.api_key })).status).toBe(401);
  });
});

describe('secrets in the log', () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    t = await startTestApp('sqlite', { appOptions: { logger: createLogger('trace', sink) } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a whole login flow at trace level logs no key, poll token, session id, CSRF token or password', async () => {
    const email = `${uniqueName('log')}@example.com`;
    await t.app.services.accounts.createUser(email, PASSWORD);
    const code = (await t.request('POST', '/v1/device/code')).json;
    const web = createWebClient(t.baseUrl);
    const wrong = await web.signIn(email, 'a wrong password typed by hand');
    expect(wrong.status).toBe(401);
    expect((await web.signIn(email, PASSWORD)).status).toBe(303);
    const entry = await web.get(`/device?code=${code.user_code}`);
    const confirm = await web.post('/device', { code: code.user_code, _csrf: web.csrfOf(entry) });
    await web.post('/device/decision', {
      code: code.user_code,
      decision: 'approve',
      _csrf: web.csrfOf(confirm),
    });
    const granted = (await t.request('POST', '/v1/device/token', { json: { poll_token: code.poll_token } }))
      .json;
    expect(granted.status).toBe('authorized');
    expect((await t.request('GET', '/v1/account', { key: granted.api_key })).status).toBe(200);
    expect((await t.request('GET', `/v1/usage?api_key=${granted.api_key}`)).status).toBe(200);
    const account = await web.get('/account');
    const created = await web.post('/account/keys', { label: 'second', _csrf: web.csrfOf(account) });
    const secondKey = /<code class="secret">([^<]+)<\/code>/.exec(created.text)![1]!;
    const session = web.cookies.get('vitrine_session')!;
    const csrfCookie = web.cookies.get('vitrine_csrf')!;
    const csrfToken = web.csrfOf(created);
    await web.post('/logout', { _csrf: csrfToken });

    const log = lines.join('');
    expect(log.length).toBeGreaterThan(1000);
    expect(log).toContain('/device/token');
    const secrets = {
      password: PASSWORD,
      wrongPassword: 'a wrong password typed by hand',
      pollToken: code.poll_token,
      apiKey: granted.api_key,
      secondKey,
      sessionCookie: session,
      sessionId: session.split('.')[0]!,
      csrfCookie,
      csrfSecret: csrfCookie.split('.')[0]!,
      csrfToken,
    };
    for (const [name, secret] of Object.entries(secrets)) {
      expect(log.includes(secret), `${name} appears in the log`).toBe(false);
      expect(log.includes(encodeURIComponent(secret)), `${name} (URL-encoded) appears in the log`).toBe(
        false,
      );
    }
  });
});
