import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePlaygroundBuilt } from '../support/playground-build.ts';
import { startTestApp, type TestApp, uniqueName } from '../support/test-app.ts';
import { createWebClient, type WebClient } from '../support/web-client.ts';

const PASSWORD = 'playground api password';

/** The playground's endpoints: session only, CSRF on every POST, only the user's own projects. */
describe('/playground and its JSON endpoints', () => {
  let t: TestApp;
  let web: WebClient;
  let csrf: string;
  let strangerProject: string;

  async function json(path: string, body: unknown) {
    const cookie = [...web.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(t.baseUrl + path, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
  }

  beforeAll(async () => {
    ensurePlaygroundBuilt();
    t = await startTestApp('sqlite');
    const email = `${uniqueName('pga')}@example.com`;
    const user = await t.app.services.accounts.createUser(email, PASSWORD);
    await t.app.services.projects.ensureDefault(user.id);
    const stranger = await t.app.services.accounts.createUser(`${uniqueName('other')}@example.com`, PASSWORD);
    strangerProject = (await t.app.services.projects.ensureDefault(stranger.id)).id;
    web = createWebClient(t.baseUrl);
    expect((await web.signIn(email, PASSWORD)).status).toBe(303);
    const session = await web.get('/playground/api/session');
    expect(session.status).toBe(200);
    const parsed = JSON.parse(session.text);
    csrf = parsed.csrf;
    expect(parsed.projects).toHaveLength(1);
    expect(parsed.devices.map((d: { id: string }) => d.id)).toContain('iphone-16-pro');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves the page and its hashed assets under a CSP that allows only this origin', async () => {
    const page = await web.get('/playground');
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    const script = /src="(\/playground\/assets\/[^"]+\.js)"/.exec(page.text)?.[1];
    expect(script).toBeDefined();
    const asset = await web.get(script!);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await web.get('/playground/assets/..%2F..%2Fpackage.json')).status).toBe(404);
  });

  it('refuses POSTs without the CSRF token, and signs only for the own project', async () => {
    const capture = { url: 'https://example.com', padding: 10 };
    expect((await json('/playground/api/preview', { capture })).status).toBe(401);
    expect((await json('/playground/api/sign', { capture, project_id: strangerProject })).status).toBe(401);
    const foreign = await json('/playground/api/sign', { capture, project_id: strangerProject, _csrf: csrf });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    const bad = await json('/playground/api/preview', {
      capture: { url: 'https://example.com', padding: -5 },
      _csrf: csrf,
    });
    expect(bad.status).toBe(400);
    expect(bad.type).toContain('application/json');
    expect(JSON.stringify(bad.body)).toContain('padding');
  });

  it('mints a signed URL the service verifies, with the capture fields in its payload', async () => {
    const session = JSON.parse((await web.get('/playground/api/session')).text);
    const project = session.projects[0].id;
    const signed = await json('/playground/api/sign', {
      capture: { url: 'https://example.com', padding: 10 },
      project_id: project,
      _csrf: csrf,
    });
    expect(signed.status).toBe(200);
    const url = new URL(signed.body.url);
    expect(url.origin + url.pathname).toBe(`${t.baseUrl}/v1/capture`);
    expect(url.searchParams.get('site')).toBe('https://example.com');
    expect(JSON.parse(Buffer.from(url.searchParams.get('payload')!, 'base64url').toString())).toEqual({
      padding: 10,
    });
    // A tampered payload fails the signature (no capture is attempted).
    url.searchParams.set('payload', Buffer.from('{"padding":11}').toString('base64url'));
    const tampered = await t.request('GET', url.pathname + url.search);
    expect(tampered.status).toBe(401);
    expect(tampered.json.error.code).toBe('signature_invalid');
  });
});
