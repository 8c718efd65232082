import crypto from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../packages/server/src/logger.ts';
import { decode, near } from '../support/capture-test-kit.ts';
import {
  COLOURS,
  type LoginFixtureApp,
  SESSION_COOKIE,
  STORAGE_KEY,
  startLoginFixtureApp,
} from '../support/login-fixture-app.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

/** Host names the test's resolver maps to the fixture app on 127.0.0.2. */
const APP_HOST = 'app.vitrine.test';
const THIRD_PARTY_HOST = 'tracker.elsewhere.test';
const STORAGE_VALUE = 'ls-value-7f3a9c';

/**
 * Captures behind a login (issue 12): real Chromium through the egress proxy, against a fixture
 * app with a login form and an HttpOnly session cookie.
 */
describe('captures with an auth profile', { timeout: 120_000 }, () => {
  let t: TestApp;
  let fixture: LoginFixtureApp;
  let owner: TestKey;
  let stranger: TestKey;
  let session: string;
  let profileId: string;
  const logLines: string[] = [];
  const sessions: string[] = [];

  beforeAll(async () => {
    fixture = await startLoginFixtureApp();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    t = await startTestApp('sqlite', {
      env: { VITRINE_ALLOW_TARGETS: '127.0.0.2', VITRINE_QUEUE_POLL_MS: '50' },
      appOptions: {
        logger: createLogger('trace', sink),
        resolver: { resolve: async (host) => (host.endsWith('.test') ? ['127.0.0.2'] : []) },
      },
    });
    owner = await t.createKey({ credits: 200 });
    stranger = await t.createKey({ credits: 200 });
    session = fixture.issueSession('Ada Lovelace');
    sessions.push(session);
    const created = await t.request('POST', '/v1/auth-profiles', {
      key: owner.key,
      json: {
        domain: APP_HOST,
        cookies: [{ name: SESSION_COOKIE, value: session, domain: APP_HOST, httpOnly: true }],
        origins: [
          {
            origin: `http://${APP_HOST}:${fixture.port}`,
            localStorage: [{ name: STORAGE_KEY, value: STORAGE_VALUE }],
          },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    profileId = created.json.profile.id;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fixture?.close();
  });

  const raw = (key: string, json: Record<string, unknown>) =>
    t.request('POST', '/v1/raw', { key, json: { viewport: { width: 600, height: 400 }, ...json } });

  async function imageOf(result: { url: string }): Promise<Awaited<ReturnType<typeof decode>>> {
    const response = await fetch(result.url);
    expect(response.status).toBe(200);
    return decode(Buffer.from(await response.arrayBuffer()));
  }

  const centre = (image: Awaited<ReturnType<typeof decode>>) =>
    image.at(Math.floor(image.width / 2), Math.floor(image.height * 0.75));

  it('shows the signed-in page with the profile and the login page without it', async () => {
    const url = fixture.url(APP_HOST, '/dashboard');
    const withProfile = await raw(owner.key, { url, auth_profile_id: profileId });
    expect(withProfile.status, withProfile.text).toBe(201);
    expect(near((await imageOf(withProfile.json)).at(580, 380), COLOURS.signedIn)).toBe(true);

    // The element that says who is signed in is there (a selector capture of it succeeds).
    const who = await raw(owner.key, { url, auth_profile_id: profileId, selector: '#who', cache_ttl: 0 });
    expect(who.status, who.text).toBe(201);
    expect(who.json.width).toBeGreaterThan(200);

    const without = await raw(owner.key, { url });
    expect(without.status, without.text).toBe(201);
    expect(without.json.id).not.toBe(withProfile.json.id);
    expect(near((await imageOf(without.json)).at(580, 380), COLOURS.login)).toBe(true);
    const missing = await raw(owner.key, { url, selector: '#who', cache_ttl: 0 });
    expect(missing.status).toBe(422);
  });

  it('sets localStorage before the page scripts run', async () => {
    const res = await raw(owner.key, { url: fixture.url(APP_HOST, '/storage'), auth_profile_id: profileId });
    expect(res.status, res.text).toBe(201);
    expect(near((await imageOf(res.json)).at(580, 380), COLOURS.storageSet)).toBe(true);
    const without = await raw(owner.key, { url: fixture.url(APP_HOST, '/storage') });
    expect(near((await imageOf(without.json)).at(580, 380), COLOURS.storageMissing)).toBe(true);
  });

  it('sends the cookies only to their own domain, even to a frame of another site', async () => {
    const frame = `${THIRD_PARTY_HOST}:${fixture.port}`;
    const before = fixture.sightings.length;
    const res = await raw(owner.key, {
      url: fixture.url(APP_HOST, `/framed?frame=${encodeURIComponent(frame)}`),
      auth_profile_id: profileId,
      cache_ttl: 0,
    });
    expect(res.status, res.text).toBe(201);
    const seen = fixture.sightings.slice(before);
    const framed = seen.filter((s) => s.path === '/frame-content');
    expect(framed.length).toBeGreaterThan(0);
    for (const sighting of framed) {
      expect(sighting.host).toBe(frame);
      expect(sighting.cookie ?? '').not.toContain(session);
    }
    const page = seen.find((s) => s.path === '/framed');
    expect(page?.cookie).toContain(`${SESSION_COOKIE}=${session}`);
  });

  it('refuses a URL the profile domain does not cover, before any work or credit', async () => {
    const usage = async () =>
      (await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining;
    const before = await usage();
    for (const url of [
      fixture.url(THIRD_PARTY_HOST, '/dashboard'),
      fixture.url('vitrine.test', '/dashboard'),
      fixture.url('evilapp.vitrine.test.attacker.test', '/dashboard'),
    ]) {
      const res = await t.request('POST', '/v1/capture', {
        key: owner.key,
        json: { url, auth_profile_id: profileId },
      });
      expect(res.status, url).toBe(400);
      expect(res.json.error.code).toBe('auth_profile_mismatch');
      const tested = await t.request('POST', `/v1/auth-profiles/${profileId}/test`, {
        key: owner.key,
        json: { url },
      });
      expect(tested.status).toBe(400);
      expect(tested.json.error.code).toBe('auth_profile_mismatch');
    }
    expect(await usage()).toBe(before);
  });

  it('caches per account, profile and version: new cookies render anew, another account never gets the image', async () => {
    const url = fixture.url(APP_HOST, '/dashboard');
    const body = { url, auth_profile_id: profileId, padding: 10 };
    const first = await t.request('POST', '/v1/capture', { key: owner.key, json: body });
    expect(first.status, first.text).toBe(201);
    const again = await t.request('POST', '/v1/capture', { key: owner.key, json: body });
    expect(again.json).toMatchObject({ id: first.json.id, cached: true, credits_used: 0 });

    // The stranger has a profile of their own for the same host, with no valid session.
    const theirs = await t.request('POST', '/v1/auth-profiles', {
      key: stranger.key,
      json: { domain: APP_HOST, cookie_header: `${SESSION_COOKIE}=not-a-session` },
    });
    const strangerCapture = await t.request('POST', '/v1/capture', {
      key: stranger.key,
      json: { ...body, auth_profile_id: theirs.json.profile.id },
    });
    expect(strangerCapture.status, strangerCapture.text).toBe(201);
    expect(strangerCapture.json.cached).toBe(false);
    expect(strangerCapture.json.id).not.toBe(first.json.id);
    expect(near(centre(await imageOf(strangerCapture.json)), COLOURS.login)).toBe(true);
    expect(near(centre(await imageOf(first.json)), COLOURS.signedIn)).toBe(true);
    const strangerPlain = await t.request('POST', '/v1/capture', {
      key: stranger.key,
      json: { url, padding: 10 },
    });
    expect(strangerPlain.json.id).not.toBe(first.json.id);

    // New cookies: a new version, so the same request renders anew (no page reused either):
    // first with a session the site does not know (the login page), then signed in as Grace.
    const stale = await t.request('PATCH', `/v1/auth-profiles/${profileId}`, {
      key: owner.key,
      json: {
        domain: APP_HOST,
        cookies: [{ name: SESSION_COOKIE, value: 'unknown-session', domain: APP_HOST }],
      },
    });
    expect(stale.status, stale.text).toBe(200);
    const loggedOut = await t.request('POST', '/v1/capture', { key: owner.key, json: body });
    expect(loggedOut.json.cached).toBe(false);
    expect(near(centre(await imageOf(loggedOut.json)), COLOURS.login)).toBe(true);
    const grace = fixture.issueSession('Grace Hopper');
    const patched = await t.request('PATCH', `/v1/auth-profiles/${profileId}`, {
      key: owner.key,
      json: {
        domain: APP_HOST,
        cookies: [{ name: SESSION_COOKIE, value: grace, domain: APP_HOST }],
        origins: [
          {
            origin: `http://${APP_HOST}:${fixture.port}`,
            localStorage: [{ name: STORAGE_KEY, value: STORAGE_VALUE }],
          },
        ],
      },
    });
    expect(patched.status, patched.text).toBe(200);
    const after = await t.request('POST', '/v1/capture', { key: owner.key, json: body });
    expect(after.json.cached).toBe(false);
    expect(after.json.id).not.toBe(first.json.id);
    expect(near(centre(await imageOf(after.json)), COLOURS.signedIn)).toBe(true);
    session = grace;
    sessions.push(grace);

    const read = await t.request('GET', `/v1/auth-profiles/${profileId}`, { key: owner.key });
    expect(read.json.profile.last_used_at).not.toBeNull();
  });

  it('works queued, through GET and through a signed URL', async () => {
    const url = fixture.url(APP_HOST, '/dashboard');
    const queued = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: {
        url,
        auth_profile_id: profileId,
        background_style: 'none',
        padding: 0,
        async: true,
        cache_ttl: 0,
      },
    });
    expect(queued.status, queued.text).toBe(202);
    let job: { status: string; result: { url: string } | null; error: string | null } | undefined;
    for (let i = 0; i < 600; i++) {
      job = (await t.request('GET', `/v1/jobs/${queued.json.job_id}`, { key: owner.key })).json;
      if (job?.status !== 'pending') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(job?.status, job?.error ?? '').toBe('completed');
    const image = await imageOf(job!.result!);
    expect(near(image.at(image.width - 20, image.height - 20), COLOURS.signedIn)).toBe(true);
    // The job's stored payload names the profile, never its cookies.
    const stored = await t.queuedPayload(queued.json.job_id);
    expect(stored).toContain(profileId);
    expect(stored).not.toContain(session);

    const query = new URLSearchParams({ url, auth_profile_id: profileId, format: 'png' });
    const viaGet = await t.request('GET', `/v1/capture?${query}`, { key: owner.key });
    expect(viaGet.status, viaGet.text).toBe(201);

    const project = (await t.request('POST', '/v1/projects', { key: owner.key, json: { name: 'Signed' } }))
      .json;
    const params: Record<string, string> = {
      url,
      auth_profile_id: profileId,
      project_id: project.project.id,
      expires: String(Math.floor(Date.now() / 1000) + 600),
      response: 'image',
    };
    const pairs = Object.entries(params)
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
      .sort();
    const signature = crypto
      .createHmac('sha256', project.signing_secret)
      .update(`GET\n/v1/capture\n${pairs.join('&')}`)
      .digest('hex');
    const signed = await t.request('GET', `/v1/capture?${pairs.join('&')}&signature=${signature}`);
    expect(signed.status, signed.text.slice(0, 200)).toBe(200);
  });

  it('tests a profile: ok with a cookie sent and a page below 400, failing otherwise', async () => {
    const ok = await t.request('POST', `/v1/auth-profiles/${profileId}/test`, {
      key: owner.key,
      json: { url: fixture.url(APP_HOST, '/dashboard') },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toMatchObject({
      ok: true,
      cookie_count: 1,
      status: 'active',
      http_status: 200,
      cookies_sent: 1,
      final_url: fixture.url(APP_HOST, '/dashboard'),
    });

    // A session the site does not know: the page ends at the login page, which final_url shows.
    const stale = await t.request('POST', '/v1/auth-profiles', {
      key: owner.key,
      json: { domain: APP_HOST, cookies: [{ name: SESSION_COOKIE, value: 'unknown-session' }] },
    });
    const redirected = await t.request('POST', `/v1/auth-profiles/${stale.json.profile.id}/test`, {
      key: owner.key,
      json: { url: fixture.url(APP_HOST, '/dashboard') },
    });
    expect(redirected.json).toMatchObject({ cookies_sent: 1, final_url: fixture.url(APP_HOST, '/login') });

    const notFound = await t.request('POST', `/v1/auth-profiles/${profileId}/test`, {
      key: owner.key,
      json: { url: fixture.url(APP_HOST, '/no-such-page') },
    });
    expect(notFound.json).toMatchObject({ ok: false, status: 'failing', http_status: 404 });
    const read = await t.request('GET', `/v1/auth-profiles/${profileId}`, { key: owner.key });
    expect(read.json.profile.status).toBe('failing');

    // A profile whose cookie is for another path sends none: not ok.
    const offPath = await t.request('POST', '/v1/auth-profiles', {
      key: owner.key,
      json: { domain: APP_HOST, cookies: [{ name: 'x', value: 'y', path: '/elsewhere' }] },
    });
    const none = await t.request('POST', `/v1/auth-profiles/${offPath.json.profile.id}/test`, {
      key: owner.key,
      json: { url: fixture.url(APP_HOST, '/dashboard') },
    });
    expect(none.json).toMatchObject({ ok: false, cookies_sent: 0 });

    const again = await t.request('POST', `/v1/auth-profiles/${profileId}/test`, {
      key: owner.key,
      json: { url: fixture.url(APP_HOST, '/dashboard') },
    });
    expect(again.json).toMatchObject({ ok: true, status: 'active' });
  });

  it('a profile deleted after the capture was accepted fails it with a 404, before any credit', async () => {
    const temp = await t.request('POST', '/v1/auth-profiles', {
      key: owner.key,
      json: { domain: APP_HOST, cookie_header: `${SESSION_COOKIE}=${session}` },
    });
    const principal = { userId: owner.userId, keyId: owner.keyId, mode: 'live' as const, scopes: [] };
    const request = await t.app.captures.resolve(
      { url: fixture.url(APP_HOST, '/dashboard'), auth_profile_id: temp.json.profile.id },
      principal,
      'raw',
    );
    expect(request.capture.authProfile).toEqual({ id: temp.json.profile.id, version: 1 });
    await t.request('DELETE', `/v1/auth-profiles/${temp.json.profile.id}`, { key: owner.key });
    const usage = async () =>
      (await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining;
    const before = await usage();
    await expect(
      t.app.captures.submit(request, principal, new AbortController().signal),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await usage()).toBe(before);
  });

  it('logged no cookie or localStorage value, even at trace level', () => {
    expect(logLines.length).toBeGreaterThan(10);
    const log = logLines.join('');
    for (const value of sessions) expect(log).not.toContain(value);
    expect(log).not.toContain(STORAGE_VALUE);
  });
});
