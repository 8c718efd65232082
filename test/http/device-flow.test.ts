import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestApp, type TestApp, uniqueName } from '../support/test-app.ts';
import { createWebClient, type WebClient } from '../support/web-client.ts';

const CODE_PATTERN = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/;
const PASSWORD = 'correct horse battery';

/** The device flow of docs/api-decisions.md section 6, on both engines, with the adversarial cases of issue 11. */
describe.each(ENGINES)('device login (%s)', (engine) => {
  let t: TestApp;
  let now = Date.now();
  const advance = (seconds: number) => {
    now += seconds * 1000;
  };

  beforeAll(async () => {
    t = await startTestApp(engine, {
      env: { VITRINE_RATE_LIMIT_DEVICE_CODE_PER_MINUTE: '1000' },
      appOptions: { clock: () => new Date(now) },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function newUser(): Promise<{ email: string; web: WebClient }> {
    const email = `${uniqueName('dev')}@example.com`;
    await t.app.services.accounts.createUser(email, PASSWORD);
    const web = createWebClient(t.baseUrl);
    const signedIn = await web.signIn(email, PASSWORD);
    expect(signedIn.status).toBe(303);
    return { email, web };
  }

  async function newCode(body?: unknown) {
    const res = await t.request('POST', '/v1/device/code', body === undefined ? {} : { json: body });
    expect(res.status).toBe(201);
    return res.json as { user_code: string; poll_token: string; interval: number; expires_in: number };
  }

  const poll = (token: unknown) => t.request('POST', '/v1/device/token', { json: { poll_token: token } });

  /** Enters the code on /device, then clicks Approve or Deny on the confirmation screen. */
  async function decide(web: WebClient, userCode: string, decision: 'approve' | 'deny') {
    const entry = await web.get(`/device?code=${userCode}`);
    expect(entry.status).toBe(200);
    const confirm = await web.post('/device', { code: userCode, _csrf: web.csrfOf(entry) });
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Only approve if you started this yourself');
    return web.post('/device/decision', { code: userCode, decision, _csrf: web.csrfOf(confirm) });
  }

  it('creates a code: XXXX-XXXX letters, a 64-hex poll token stored only as its SHA-256, 900 s, interval 5', async () => {
    const code = await newCode();
    expect(code.user_code).toMatch(CODE_PATTERN);
    expect(code.poll_token).toMatch(/^[0-9a-f]{64}$/);
    expect(code).toMatchObject({
      verification_uri: `${t.baseUrl}/device`,
      verification_uri_complete: `${t.baseUrl}/device?code=${code.user_code}`,
      expires_in: 900,
      interval: 5,
    });
    const rows = await t.app.database.db.selectFrom('device_codes').selectAll().execute();
    const row = rows.find((r) => r.user_code === code.user_code.replace('-', ''))!;
    expect(row.poll_token_hash).toBe(crypto.createHash('sha256').update(code.poll_token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(code.poll_token);
  });

  it('refuses malformed poll tokens with 400 before any lookup, even one that prefixes a real token', async () => {
    const { poll_token: real } = await newCode();
    for (const token of [
      real.slice(0, 63),
      `${real}0`,
      real.toUpperCase(),
      `${real.slice(0, 63)}g`,
      [real],
      123,
      null,
      '',
      { $ne: '' },
    ]) {
      const res = await poll(token);
      expect(res.status, JSON.stringify(token)).toBe(400);
      expect(res.json.error.code).toBe('invalid_params');
    }
    const missing = await t.request('POST', '/v1/device/token', { json: {} });
    expect(missing.status).toBe(400);
    expect(missing.json.error.message).toContain('poll_token');
    const extra = await t.request('POST', '/v1/device/token', { json: { poll_token: real, x: 1 } });
    expect(extra.status).toBe(400);
    // The real token still works afterwards: none of the above touched it.
    expect((await poll(real)).json.status).toBe('pending');
  });

  it('answers 410 expired_token for a token that was never issued', async () => {
    const res = await poll(crypto.randomBytes(32).toString('hex'));
    expect(res.status).toBe(410);
    expect(res.json.error.code).toBe('expired_token');
  });

  it('reports pending with the remaining time; polling too fast is slow_down and the interval grows by 5 s, persisted', async () => {
    const { poll_token: token } = await newCode();
    const first = await poll(token);
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ status: 'pending', interval: 5, expires_in: 900 });

    const tooSoon = await poll(token);
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.json.error.code).toBe('slow_down');
    expect(tooSoon.json.error.retry_after).toBe(10);
    expect(tooSoon.headers.get('retry-after')).toBe('10');
    const again = await poll(token);
    expect(again.json.error).toMatchObject({ code: 'slow_down', retry_after: 15 });

    advance(12); // more than the original 5 s, less than the grown 15 s
    expect((await poll(token)).json.error).toMatchObject({ code: 'slow_down', retry_after: 20 });
    advance(20);
    const later = await poll(token);
    expect(later.status).toBe(200);
    expect(later.json).toEqual({ status: 'pending', interval: 20, expires_in: 900 - 32 });
  });

  it('answers 410 access_denied after the user denies, and keeps answering it', async () => {
    const { web } = await newUser();
    const code = await newCode();
    const denied = await decide(web, code.user_code, 'deny');
    expect(denied.status).toBe(200);
    expect(denied.text).toContain('Denied');
    for (let i = 0; i < 2; i++) {
      advance(30);
      const res = await poll(code.poll_token);
      expect(res.status).toBe(410);
      expect(res.json.error.code).toBe('access_denied');
    }
  });

  it('expires: polls answer 410 expired_token and the page no longer offers the code', async () => {
    const { web } = await newUser();
    const code = await newCode();
    advance(901);
    const res = await poll(code.poll_token);
    expect(res.status).toBe(410);
    expect(res.json.error.code).toBe('expired_token');
    const entry = await web.get('/device');
    const tried = await web.post('/device', { code: code.user_code, _csrf: web.csrfOf(entry) });
    expect(tried.status).toBe(404);
    expect(tried.text).toContain('No login is waiting for that code');
    // Expired rows are pruned when the next code is made.
    const letters = code.user_code.replace('-', '');
    const before = await t.app.database.db.selectFrom('device_codes').select('user_code').execute();
    expect(before.map((r) => r.user_code)).toContain(letters);
    await newCode();
    const after = await t.app.database.db.selectFrom('device_codes').select('user_code').execute();
    expect(after.map((r) => r.user_code)).not.toContain(letters);
    expect((await poll(code.poll_token)).json.error.code).toBe('expired_token');
  });

  it('20 concurrent polls after approval yield exactly one key, labelled as device login, and then 410', async () => {
    const { email, web } = await newUser();
    const code = await newCode({ client_name: 'vitrine CLI test' });
    const approved = await decide(web, code.user_code, 'approve');
    expect(approved.status).toBe(200);
    expect(approved.text).toContain('Approved');

    const results = await Promise.all(Array.from({ length: 20 }, () => poll(code.poll_token)));
    const authorized = results.filter((r) => r.status === 200);
    expect(authorized).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect([410, 429]).toContain(r.status);
      expect(['expired_token', 'slow_down']).toContain(r.json.error.code);
    }
    const granted = authorized[0]!.json;
    expect(granted).toMatchObject({ status: 'authorized', key_id: expect.stringMatching(/^key_/) });
    expect(granted.api_key).toMatch(/^vt_live_/);

    const account = await t.request('GET', '/v1/account', { key: granted.api_key });
    expect(account.status).toBe(200);
    expect(account.json.user).toMatchObject({ id: granted.user_id, email });
    expect(account.json.key).toMatchObject({
      id: granted.key_id,
      created_by: 'device_login',
      label: 'Device login: vitrine CLI test',
      scopes: [],
    });
    const keys = await t.app.database.db
      .selectFrom('api_keys')
      .selectAll()
      .where('user_id', '=', granted.user_id)
      .execute();
    expect(keys.filter((k) => k.created_by === 'device_login')).toHaveLength(1);

    // Reuse after redemption: the same token never yields a second key.
    advance(120);
    const reuse = await poll(code.poll_token);
    expect(reuse.status).toBe(410);
    expect(reuse.json.error.code).toBe('expired_token');
  });

  it('issues a key with only the scopes the client asked for', async () => {
    const { web } = await newUser();
    const code = await newCode({ scopes: ['capture', 'usage'] });
    await decide(web, code.user_code, 'approve');
    const granted = (await poll(code.poll_token)).json;
    const account = await t.request('GET', '/v1/account', { key: granted.api_key });
    expect(account.json.key.scopes).toEqual(['capture', 'usage']);
    const projects = await t.request('GET', '/v1/projects', { key: granted.api_key });
    expect(projects.status).toBe(403);
    const bad = await t.request('POST', '/v1/device/code', { json: { scopes: ['teleport'] } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain('Must be one of');
  });

  it('refuses an approval without a CSRF token or with a wrong one, and the code stays pending', async () => {
    const { web } = await newUser();
    const code = await newCode();
    const entry = await web.get(`/device?code=${code.user_code}`);
    const confirm = await web.post('/device', { code: code.user_code, _csrf: web.csrfOf(entry) });
    expect(confirm.status).toBe(200);
    const without = await web.post('/device/decision', { code: code.user_code, decision: 'approve' });
    expect(without.status).toBe(403);
    const forged = await web.post('/device/decision', {
      code: code.user_code,
      decision: 'approve',
      _csrf: 'forged-token',
    });
    expect(forged.status).toBe(403);
    // Another browser's valid token does not work with this browser's cookie either.
    const other = createWebClient(t.baseUrl);
    const otherToken = other.csrfOf(await other.get('/login'));
    expect(
      (await web.post('/device/decision', { code: code.user_code, decision: 'approve', _csrf: otherToken }))
        .status,
    ).toBe(403);
    advance(60);
    expect((await poll(code.poll_token)).json.status).toBe('pending');
  });

  it('never approves by following a link: GET /device?code= only fills in the form', async () => {
    const { web } = await newUser();
    const code = await newCode();
    const page = await web.get(`/device?code=${code.user_code}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`value="${code.user_code}"`);
    expect(page.text).not.toContain('name="decision"');
    advance(60);
    expect((await poll(code.poll_token)).json.status).toBe('pending');
  });

  it('sends a visitor without a session to sign in first, and back to the code afterwards', async () => {
    const code = await newCode();
    const web = createWebClient(t.baseUrl);
    const page = await web.get(`/device?code=${code.user_code}`);
    expect(page.status).toBe(303);
    expect(page.location).toBe(`/login?next=${encodeURIComponent(`/device?code=${code.user_code}`)}`);
    const post = await web.post('/device/decision', { code: code.user_code, decision: 'approve' });
    expect(post.status).toBe(401);
  });

  it('cannot be framed: X-Frame-Options DENY and frame-ancestors none on every page', async () => {
    const { web } = await newUser();
    for (const path of ['/device', '/device?code=BCDF-GHJK', '/account', '/login']) {
      const page = await web.get(path);
      expect(page.headers.get('x-frame-options'), path).toBe('DENY');
      expect(page.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(page.headers.get('cache-control'), path).toBe('no-store');
      expect(page.headers.get('referrer-policy'), path).toBe('no-referrer');
    }
  });

  it('normalises codes: case, spaces and dashes do not matter; other characters and long input are refused', async () => {
    const { web } = await newUser();
    const code = await newCode();
    const letters = code.user_code.replace('-', '');
    for (const typed of [
      letters.toLowerCase(),
      ` ${letters.slice(0, 4).toLowerCase()} - ${letters.slice(4)} `,
      `${letters.slice(0, 2)}-${letters.slice(2, 6)}-${letters.slice(6)}`,
    ]) {
      const entry = await web.get('/device');
      const confirm = await web.post('/device', { code: typed, _csrf: web.csrfOf(entry) });
      expect(confirm.status, typed).toBe(200);
      expect(confirm.text).toContain(code.user_code);
    }
    for (const typed of [
      `${letters.slice(0, 4)}_${letters.slice(4)}`,
      'ABCD-EFGH',
      `${letters}${' '.repeat(57)}`,
      letters.slice(0, 7),
    ]) {
      const entry = await web.get('/device');
      const refused = await web.post('/device', { code: typed, _csrf: web.csrfOf(entry) });
      expect(refused.status, JSON.stringify(typed)).toBe(400);
      expect(refused.text).toContain('That is not a device code');
    }
  });
});

describe('wrong device codes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  async function newUser(): Promise<{ web: WebClient }> {
    const email = `${uniqueName('dev')}@example.com`;
    await t.app.services.accounts.createUser(email, PASSWORD);
    const web = createWebClient(t.baseUrl);
    expect((await web.signIn(email, PASSWORD)).status).toBe(303);
    return { web };
  }

  const newCode = async () =>
    (await t.request('POST', '/v1/device/code')).json as { user_code: string; poll_token: string };

  it('throttles wrong codes: after 10 wrong ones even the right code is refused, per user and per IP', async () => {
    const first = await newUser();
    const code = await newCode();
    const wrong = code.user_code.startsWith('B') ? 'CCCC-CCCC' : 'BBBB-BBBB';
    for (let i = 0; i < 10; i++) {
      const entry = await first.web.get('/device');
      const res = await first.web.post('/device', { code: wrong, _csrf: first.web.csrfOf(entry) });
      expect(res.status, `attempt ${i + 1}`).toBe(404);
    }
    const entry = await first.web.get('/device');
    const blocked = await first.web.post('/device', { code: code.user_code, _csrf: first.web.csrfOf(entry) });
    expect(blocked.status).toBe(429);
    expect(blocked.text).toContain('Too many wrong codes');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);

    // Another account on the same IP is held up as well (the limit is per IP too).
    const second = await newUser();
    const secondEntry = await second.web.get('/device');
    const alsoBlocked = await second.web.post('/device', {
      code: code.user_code,
      _csrf: second.web.csrfOf(secondEntry),
    });
    expect(alsoBlocked.status).toBe(429);
  });
});

describe('device code rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { env: { VITRINE_RATE_LIMIT_DEVICE_CODE_PER_MINUTE: '3' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 429 per IP with retry_after once the per-minute limit is used', async () => {
    for (let i = 0; i < 3; i++) expect((await t.request('POST', '/v1/device/code')).status).toBe(201);
    const limited = await t.request('POST', '/v1/device/code');
    expect(limited.status).toBe(429);
    expect(limited.json.error.code).toBe('rate_limited');
    expect(limited.json.error.retry_after).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-limit')).toBe('3');
  });
});
