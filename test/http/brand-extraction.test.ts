import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { ENGINES, startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

const solid = (color: string, width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();

/** Polls the brand status until it settles (completed or failed), collecting every state seen. */
async function settle(t: TestApp, key: string, id: string) {
  const states: string[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
  let body: Record<string, any> = {};
  for (let i = 0; i < 1500; i++) {
    body = (await t.request('GET', `/v1/projects/${id}/brand/status`, { key })).json;
    if (states.at(-1) !== body.status) states.push(body.status);
    if (body.status === 'completed' || body.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { states, body };
}

describe.each(ENGINES)('brand extraction on %s', (engine) => {
  let site: RunningServer;
  let t: TestApp;
  let owner: TestKey;
  let domain: string;
  let projectId: string;

  beforeAll(async () => {
    site = await startFixtureServer();
    const [logo, icon, og] = await Promise.all([
      solid('#0d9488', 160, 40),
      solid('#134e4a', 180, 180),
      solid('#f59e0b', 600, 315),
    ]);
    const png = (bytes: Buffer) => (_req: unknown, res: import('node:http').ServerResponse) =>
      res.writeHead(200, { 'content-type': 'image/png' }).end(bytes);
    site.route('/', (_req, res) => {
      res.writeHead(302, { location: '/brand/index.html' }).end();
    });
    site.route('/brand/logo.png', png(logo));
    site.route('/brand/icon.png', png(icon));
    site.route('/brand/og.png', png(og));
    domain = `${site.host}:${site.port}`;
    t = await startTestApp(engine, {
      env: {
        VITRINE_ALLOW_TARGETS: '127.0.0.2',
        VITRINE_QUEUE_POLL_MS: '50',
        VITRINE_CAPTURE_TIMEOUT_MS: '120000',
        VITRINE_NAVIGATION_TIMEOUT_MS: '60000',
      },
    });
    owner = await t.createKey({ credits: 50 });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await site?.close();
  });

  it('extracts the logo, colours, fonts and images of a site (https first, then http) and moves through the states', async () => {
    const created = await t.request('POST', '/v1/projects', { key: owner.key, json: { domain } });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    expect(created.json.project.brand_status).toBe('pending');
    const { states, body } = await settle(t, owner.key, created.json.project.id);
    expect(body.status, JSON.stringify(body)).toBe('completed');
    expect(states.at(-1)).toBe('completed');
    expect(states.every((s) => ['pending', 'processing', 'completed'].includes(s))).toBe(true);
    const brand = body.brand;
    projectId = created.json.project.id;
    expect(brand.name).toBe('Lumen Bank');
    expect(brand.description).toMatch(/^Lumen Bank: clear accounts/);
    expect(brand.colors.primary).toBe('#0d9488');
    expect(brand.colors.secondary).toBe('#f59e0b');
    expect(brand.colors).toMatchObject({ background: '#ffffff', text: '#0f172a' });
    expect(brand.colors.palette.length).toBeGreaterThanOrEqual(3);
    expect(brand.fonts).toEqual({ heading: 'Playfair Display', body: 'Source Sans 3' });
    expect(brand.dark_mode).toBe(false);
    expect(brand.source_url).toBe(`http://${domain}/brand/index.html`);
    for (const field of ['logo_url', 'icon_url', 'og_image_url']) {
      expect(brand[field], field).toMatch(new RegExp(`^${t.baseUrl}/cdn/brand/[a-f0-9]{40}\\.png$`));
    }
    const logo = await fetch(brand.logo_url);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(Buffer.from(await logo.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([160, 40]);
    const og = await sharp(Buffer.from(await (await fetch(brand.og_image_url)).arrayBuffer())).metadata();
    expect(og.width).toBe(512);
  }, 300_000);

  it('refresh re-runs it (202, pending); PATCHing the domain restarts it; a refused domain fails cleanly', async () => {
    const id = projectId;
    const refreshed = await t.request('POST', `/v1/projects/${id}/brand/refresh`, { key: owner.key });
    expect(refreshed.status, JSON.stringify(refreshed.json)).toBe(202);
    expect(refreshed.json.project.brand_status).toBe('pending');
    expect((await settle(t, owner.key, id)).body.status).toBe('completed');

    const patched = await t.request('PATCH', `/v1/projects/${id}`, {
      key: owner.key,
      json: { domain: '127.0.0.1:9' },
    });
    expect(patched.status, JSON.stringify(patched.json)).toBe(200);
    expect(patched.json.project.brand_status).toBe('pending');
    const refused = await settle(t, owner.key, id);
    expect(refused.body.status).toBe('failed');
    const error = refused.body.project.brand_error as string;
    expect(error).toMatch(/not allowed|could not be reached/);
    expect(error).not.toMatch(/127\.0\.0\.1|ERR_|ECONN/);
  }, 300_000);

  it('a project without a domain is skipped; refresh names the missing domain', async () => {
    const created = await t.request('POST', '/v1/projects', { key: owner.key, json: { name: 'No domain' } });
    expect(created.json.project.brand_status).toBe('skipped');
    const refreshed = await t.request('POST', `/v1/projects/${created.json.project.id}/brand/refresh`, {
      key: owner.key,
    });
    expect(refreshed.status).toBe(400);
    expect(JSON.stringify(refreshed.json)).toContain('domain');
  });
});
