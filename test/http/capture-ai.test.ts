import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatRequest, startChatCompletionsDouble } from '../support/chat-completions-double.ts';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

// Generous deadlines: the suite shares a saturated machine with other Chromiums.
const ENV = {
  VITRINE_ALLOW_TARGETS: '127.0.0.2',
  VITRINE_QUEUE_POLL_MS: '50',
  VITRINE_CAPTURE_TIMEOUT_MS: '120000',
  VITRINE_NAVIGATION_TIMEOUT_MS: '60000',
};
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = Record<string, any>;

/** The text of a chat message's content (a string, or the text parts of a list of parts). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((p) => p?.type === 'text')
    .map((p) => String(p.text))
    .join('\n');
}

/** The image URLs of a chat message's content parts. */
function imagesOf(content: unknown): string[] {
  return Array.isArray(content)
    ? content.filter((p) => p?.type === 'image_url').map((p) => String(p.image_url?.url))
    : [];
}

let fixtures: RunningServer;
beforeAll(async () => {
  fixtures = await startFixtureServer();
});
afterAll(async () => {
  await fixtures?.close();
});
const landing = () => `${fixtures.origin}/ai/landing.html`;

describe('AI assistance with the built-in engine', () => {
  let t: TestApp;
  let owner: TestKey;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { env: ENV });
    owner = await t.createKey({ credits: 100 });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });
  const credits = async () =>
    (await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining as number;
  const shoot = (json: Json) =>
    t.request('POST', '/v1/capture', { key: owner.key, json: { url: landing(), cache_ttl: 0, ...json } });

  it('ai: true styles and writes copy from one page load; charged capture + style + copy', async () => {
    const before = await credits();
    const res = await shoot({ ai: true, show_resolved_params: true, viewport: { width: 1280, height: 800 } });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const d = res.json.ai_decisions;
    expect(d).toMatchObject({ engine: 'builtin', page_type: 'landing', tone: 'colourful' });
    expect(d.audience).toBeTruthy();
    expect(d.palette.length).toBeGreaterThan(0);
    expect(d.reasons.length).toBeGreaterThan(1);
    expect(d.copy.headline).toBe('Every branch, live in seconds');
    expect(res.json.resolved_params.title).toBe(d.copy.headline);
    expect(res.json.resolved_params.subtitle).toBe(d.copy.subtitle);
    expect(res.json.resolved_params.background_preset).toBe(d.chosen.background_preset);
    expect(res.json.resolved_params.ai).toMatchObject({ style: true, copy: true, brand: false });
    expect(res.json.credits_used).toBe(1 + 2 + 1);
    expect(await credits()).toBe(before - 4);
  }, 240_000);

  it('explicit request fields beat every AI choice, and ai_decisions says which', async () => {
    const res = await shoot({
      ai: true,
      show_resolved_params: true,
      title: 'My own title',
      background_preset: 'forest',
      shadow: 'none',
      perspective: 'tilt-right',
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const p = res.json.resolved_params;
    expect(p).toMatchObject({
      title: 'My own title',
      background_preset: 'forest',
      shadow: 'none',
      perspective: 'tilt-right',
    });
    expect(p.camera_preset).toBeNull();
    const d = res.json.ai_decisions;
    expect(d.overridden).toEqual(
      expect.arrayContaining(['background_preset', 'shadow', 'camera_preset', 'title']),
    );
    expect(d.chosen.title).toBeUndefined();
    expect(p.subtitle).toBe(d.copy.subtitle);
  }, 240_000);

  it('maps a prompt onto fields; ai_style alone costs +2, ai_copy alone +1', async () => {
    const res = await shoot({
      prompt: 'dark, cinematic, tilt left, big headline about speed',
      show_resolved_params: true,
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json.resolved_params).toMatchObject({
      background_preset: 'midnight',
      camera_preset: 'cinematic',
      perspective: 'tilt-left',
      title_size: 72,
    });
    expect(res.json.resolved_params.title).toMatch(/^Speed/);
    expect(res.json.credits_used).toBe(3);
    const copy = await shoot({ ai_copy: true, show_resolved_params: true });
    expect(copy.json.credits_used).toBe(2);
    expect(copy.json.ai_decisions.chosen).not.toHaveProperty('background_preset');
    expect(copy.json.resolved_params.background_preset).toBe('aurora');
  }, 240_000);

  it('refunds the whole price, surcharges included, when the page fails', async () => {
    const before = await credits();
    const res = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { url: `${fixtures.origin}/ai/does-not-exist.html`, ai: true, wait_for: '#never', cache_ttl: 0 },
    });
    expect(res.status).toBe(422);
    expect(await credits()).toBe(before);
  }, 240_000);

  it("ai_brand uses the page's own brand (+2), or a completed project brand for free", async () => {
    const fromPage = await shoot({ ai_brand: true, show_resolved_params: true });
    expect(fromPage.status, JSON.stringify(fromPage.json)).toBe(201);
    expect(fromPage.json.credits_used).toBe(3);
    expect(fromPage.json.ai_decisions.brand).toMatchObject({ source: 'page' });
    expect(fromPage.json.ai_decisions.brand.colors.primary).toBe('#7c3aed');
    expect(fromPage.json.resolved_params.background_gradient).toContain('#7c3aed');

    const created = await t.request('POST', '/v1/projects', {
      key: owner.key,
      json: { name: 'Branded', start_brand_extract: false },
    });
    const projectId = created.json.project.id as string;
    const brand = {
      name: 'Acme',
      description: null,
      logo_url: null,
      icon_url: null,
      og_image_url: null,
      colors: {
        primary: '#0f766e',
        secondary: '#f59e0b',
        accent: null,
        background: '#ffffff',
        text: '#111111',
        palette: [],
      },
      fonts: { heading: 'Inter', body: 'Inter' },
      dark_mode: false,
      source_url: 'https://acme.test/',
      extracted_at: '2026-11-23T00:00:00.000Z',
    };
    await t.app.database.db
      .updateTable('projects')
      .set({ brand: JSON.stringify(brand), brand_status: 'completed' })
      .where('id', '=', projectId)
      .execute();
    const branded = await shoot({ ai_brand: true, project_id: projectId, show_resolved_params: true });
    expect(branded.status, JSON.stringify(branded.json)).toBe(201);
    expect(branded.json.credits_used).toBe(1);
    expect(branded.json.ai_decisions.brand).toMatchObject({ source: 'project' });
    expect(branded.json.resolved_params.background_gradient).toBe(
      'linear-gradient(135deg, #0f766e 0%, #f59e0b 100%)',
    );
    expect(branded.json.resolved_params.title_font).toMatch(/Inter/);
  }, 240_000);

  it('an async AI capture runs the same AI step in the worker', async () => {
    const res = await shoot({ ai_style: true, async: true });
    expect(res.status).toBe(202);
    const jobId = res.json.job_id as string;
    let job: Json = {};
    for (let i = 0; i < 240 && job.status !== 'completed' && job.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 250));
      job = (await t.request('GET', `/v1/jobs/${jobId}`, { key: owner.key })).json;
    }
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(job.result.ai_decisions).toMatchObject({ engine: 'builtin', page_type: 'landing' });
    expect(job.result.credits_used).toBe(3);
  }, 240_000);
});

describe('AI assistance through an OpenAI-compatible provider', () => {
  let t: TestApp;
  let owner: TestKey;
  let mode: 'good' | 'garbage' | 'bad-enum' | 'error' = 'good';
  let elementMode: 'first' | 'none' = 'first';
  let double: Awaited<ReturnType<typeof startChatCompletionsDouble>>;
  beforeAll(async () => {
    double = await startChatCompletionsDouble((request: ChatRequest) => {
      const [system, user] = request.body.messages;
      if (String(system?.content).startsWith('Pick the page element')) {
        // The element chooser: pick the first candidate line of the outline, or say none.
        if (elementMode === 'none') return JSON.stringify({ index: null });
        const line = textOf(user?.content)
          .split('\n')
          .find((l) => /^\d+: /.test(l));
        return JSON.stringify({ index: line ? Number(line.split(':')[0]) : null });
      }
      if (mode === 'error') return { status: 500 };
      if (mode === 'garbage') return 'Sure! Here is a nice style for you :)';
      return JSON.stringify({
        page_type: 'landing',
        tone: 'colourful',
        audience: 'developers shipping web apps',
        chosen: {
          background_preset: mode === 'bad-enum' ? 'neon-rainbow' : 'ember',
          shadow: 'glow',
          camera_preset: 'hero',
          perspective: null,
        },
        copy: {
          headline: 'Previews before your coffee cools',
          subtitle: 'Every branch gets a live URL.',
          badge: 'New',
        },
        reasons: ['vivid gradient hero with two calls to action'],
      });
    });
    t = await startTestApp('sqlite', {
      env: {
        ...ENV,
        VITRINE_AI_BASE_URL: double.baseUrl,
        VITRINE_AI_API_KEY: 'sk-test-123',
        VITRINE_AI_MODEL: 'vision-test',
      },
    });
    owner = await t.createKey({ credits: 100 });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await double?.close();
  });
  const shoot = () =>
    t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { url: landing(), ai: true, cache_ttl: 0, show_resolved_params: true },
    });

  it("sends the thumbnail and the page's signals, and applies the model's valid answer", async () => {
    mode = 'good';
    const res = await shoot();
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json.ai_decisions).toMatchObject({
      engine: 'openai:vision-test',
      page_type: 'landing',
      audience: 'developers shipping web apps',
      copy: { headline: 'Previews before your coffee cools', badge: 'New' },
    });
    expect(res.json.resolved_params).toMatchObject({
      background_preset: 'ember',
      shadow: 'glow',
      title: 'Previews before your coffee cools',
      badge: 'New',
    });
    expect(res.json.warnings).toEqual([]);
    const sent = double.requests.at(-1);
    expect(sent?.authorization).toBe('Bearer sk-test-123');
    expect(sent?.body.model).toBe('vision-test');
    expect(sent?.body.response_format?.type).toBe('json_schema');
    const user = sent?.body.messages.find((m) => m.role === 'user')?.content as {
      type: string;
      text?: string;
      image_url?: { url: string };
    }[];
    expect(user.find((p) => p.type === 'image_url')?.image_url?.url).toMatch(/^data:image\/png;base64,/);
    expect(user.find((p) => p.type === 'text')?.text).toContain('Every branch, live in seconds');
  }, 240_000);

  it.each(['garbage', 'bad-enum', 'error'] as const)(
    'falls back to the built-in engine with a warning on %s',
    async (m) => {
      mode = m;
      const res = await shoot();
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      expect(res.json.ai_decisions.engine).toBe('builtin');
      expect(res.json.ai_decisions.page_type).toBe('landing');
      expect(res.json.warnings.join(' ')).toMatch(/AI provider gave no usable answer/);
      expect(JSON.stringify(res.json)).not.toContain('sk-test-123');
    },
    120_000,
  );

  it("element: the provider picks among the resolver's best candidates, and its pick is captured", async () => {
    mode = 'good';
    const res = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { url: landing(), element: 'the hero section', cache_ttl: 0 },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json.element_resolved).toMatchObject({ query: 'the hero section', strategy: 'ai' });
    const asked = double.requests.find((r) =>
      String(r.body.messages[0]?.content).startsWith('Pick the page element'),
    );
    const text = textOf(asked?.body.messages[1]?.content);
    expect(text).toContain('Element wanted: the hero section');
    expect(text).toContain('Every branch, live in seconds');
    // The outline gives each candidate's role and size, and a small crop of it follows as an image.
    expect(text).toMatch(/^0: \S+.*, \d+x\d+ px\./m);
    const crops = imagesOf(asked?.body.messages[1]?.content);
    expect(crops.length).toBeGreaterThan(0);
    const jpeg = Buffer.from(String(crops[0]).replace(/^data:image\/jpeg;base64,/, ''), 'base64');
    const meta = await sharp(jpeg).metadata();
    expect(meta.format).toBe('jpeg');
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(256);
  }, 240_000);

  it('element: when the provider says none of the candidates is meant, 422 element_not_found, refunded', async () => {
    elementMode = 'none';
    try {
      const before = (await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining;
      const res = await t.request('POST', '/v1/capture', {
        key: owner.key,
        json: { url: landing(), element: 'the hero section', cache_ttl: 0 },
      });
      expect(res.status, JSON.stringify(res.json)).toBe(422);
      expect(res.json.error.details).toMatchObject({
        reason: 'element_not_found',
        query: 'the hero section',
      });
      expect(res.json.error.details.candidates.length).toBeGreaterThan(0);
      expect((await t.request('GET', '/v1/usage', { key: owner.key })).json.credits_remaining).toBe(before);
    } finally {
      elementMode = 'first';
    }
  }, 240_000);
});
