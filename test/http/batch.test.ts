import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { verifyStandardWebhook, whsecOf } from '../support/standard-webhooks.ts';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

interface ReceivedHook {
  headers: Record<string, string>;
  body: string;
}

/** Issue 39: POST /v1/batch and GET /v1/batches/{id} against a real server (embedded queue). */
describe.each(['sqlite', 'postgres'] as const)('batches (%s)', (engine) => {
  let t: TestApp;
  let fixtures: RunningServer;
  let owner: TestKey;
  const hooks: ReceivedHook[] = [];

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    fixtures.route('/hook', (req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        hooks.push({ headers: req.headers as Record<string, string>, body });
        res.writeHead(204).end();
      });
    });
    t = await startTestApp(engine, {
      env: { VITRINE_ALLOW_TARGETS: '127.0.0.2', VITRINE_QUEUE_POLL_MS: '50' },
    });
    owner = await t.createKey({ credits: 100 });
  });
  afterAll(async () => {
    await t?.close();
    await fixtures?.close();
  });

  async function credits(key: string): Promise<number> {
    return (await t.request('GET', '/v1/usage', { key })).json.credits_remaining;
  }

  async function waitForBatch(id: string, key: string) {
    for (let i = 0; i < 1200; i++) {
      const res = await t.request('GET', `/v1/batches/${id}`, { key });
      expect(res.status, res.text).toBe(200);
      if (res.json.status === 'completed' && res.json.webhook_status !== 'pending') return res.json;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`batch ${id} did not finish`);
  }

  /** Loads of a page by the browser: the fixture server's hits of exactly that path and query. */
  const loadsOf = (path: string) => fixtures.hits.filter((hit) => hit === path).length;

  it('renders every item under every look, loads each page once, and sends one signed batch webhook', async () => {
    const project = await t.request('POST', '/v1/projects', { key: owner.key, json: { name: 'Batches' } });
    const before = await credits(owner.key);
    const pages = [
      `/capture/simple.html?b=${engine}`,
      `/capture/dark.html?b=${engine}`,
      `/capture/element.html?b=${engine}`,
    ];
    const res = await t.request('POST', '/v1/batch', {
      key: owner.key,
      json: {
        defaults: { viewport: { width: 640, height: 400 }, project_id: project.json.project.id },
        items: [
          `${fixtures.origin}${pages[0]}`,
          { url: `${fixtures.origin}${pages[1]}`, webhook_url: `${fixtures.origin}/hook` },
          { url: `${fixtures.origin}${pages[2]}` },
        ],
        looks: {
          plain: { background_preset: 'sunset', padding: 32 },
          framed: { background_color: '#123456', padding: 64, shadow: 'none' },
        },
        webhook_url: `${fixtures.origin}/hook`,
      },
    });
    expect(res.status, res.text).toBe(202);
    expect(res.json).toMatchObject({
      id: expect.stringMatching(/^bat_[0-9A-Z]{26}$/),
      status: 'running',
      counts: { total: 6 },
      credits_reserved: 6,
      looks: ['plain', 'framed'],
    });
    // Reserved up front for the whole batch.
    expect(await credits(owner.key)).toBe(before - 6);

    const batch = await waitForBatch(res.json.id, owner.key);
    expect(batch.counts).toEqual({ total: 6, pending: 0, completed: 6, failed: 0 });
    expect(batch.renders.map((r: { index: number; look: string }) => `${r.index}:${r.look}`)).toEqual([
      '0:plain',
      '0:framed',
      '1:plain',
      '1:framed',
      '2:plain',
      '2:framed',
    ]);
    for (const render of batch.renders) {
      expect(render.status, render.error).toBe('completed');
      expect(render.url).toBe(`${fixtures.origin}${pages[render.index]}`);
      expect(render.result).toMatchObject({ format: 'png', credits_used: 1 });
      const image = await fetch(render.result.url);
      expect(image.status).toBe(200);
      await image.arrayBuffer();
    }
    // Two looks: the canvas differs (padding 32 vs 64), so each look was composed on its own.
    const [plain, framed] = batch.renders;
    expect(framed.result.width).toBeGreaterThan(plain.result.width);
    // Each page loaded once for its two looks (the capture-level cache served the second).
    for (const page of pages) expect(loadsOf(page), page).toBe(1);
    expect(await credits(owner.key)).toBe(before - 6);

    // One batch event, signed like the job events; the item with its own webhook_url got its two.
    const batchHooks = hooks.filter((h) => h.body.includes(res.json.id));
    expect(batchHooks).toHaveLength(1);
    expect(JSON.parse(batchHooks[0]!.body)).toEqual({
      batch_id: res.json.id,
      status: 'completed',
      counts: { total: 6, pending: 0, completed: 6, failed: 0 },
    });
    const now = Math.floor(Date.now() / 1000);
    expect(verifyStandardWebhook(whsecOf(project.json.signing_secret), batchHooks[0]!, now)).toBe(true);
    expect(verifyStandardWebhook(whsecOf('vss_other'), batchHooks[0]!, now)).toBe(false);
    const itemHooks = hooks.filter((h) =>
      batch.renders
        .filter((r: { index: number }) => r.index === 1)
        .some((r: { job_id: string }) => h.body.includes(r.job_id)),
    );
    expect(itemHooks).toHaveLength(2);
    for (const hook of itemHooks) {
      expect(verifyStandardWebhook(whsecOf(project.json.signing_secret), hook, now)).toBe(true);
    }
    expect(batch.webhook_status).toBe('delivered');
    // Each render is a job too.
    const job = await t.request('GET', `/v1/jobs/${batch.renders[0].job_id}`, { key: owner.key });
    expect(job.json).toMatchObject({ status: 'completed', result: { id: batch.renders[0].result.id } });
    // Another account sees none of it.
    const other = await t.createKey({ credits: 5 });
    expect((await t.request('GET', `/v1/batches/${res.json.id}`, { key: other.key })).status).toBe(404);
  }, 240_000);

  it('refuses a batch with an invalid item with its index and field, and charges nothing', async () => {
    const before = await credits(owner.key);
    const url = `${fixtures.origin}/capture/simple.html?b=invalid-${engine}`;
    const res = await t.request('POST', '/v1/batch', {
      key: owner.key,
      json: { items: [url, url, { url, padding: 'wide' }, { url, shadow: 'huge' }] },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_params');
    expect(res.json.error.details.issues[0]).toMatchObject({ path: 'items[2].padding', index: 2 });
    expect(res.json.error.message).toContain('items[2]');

    const unknownField = await t.request('POST', '/v1/batch', {
      key: owner.key,
      json: { items: [url], looks: { dark: { dark_mood: true } } },
    });
    expect(unknownField.status).toBe(400);
    expect(unknownField.json.error.details.issues[0]).toMatchObject({
      path: 'items[0].dark_mood',
      look: 'dark',
    });

    const noUrl = await t.request('POST', '/v1/batch', {
      key: owner.key,
      json: { items: [url, { padding: 8 }] },
    });
    expect(noUrl.status).toBe(400);
    expect(noUrl.json.error.details.issues[0].path).toMatch(/^items\[1\]/);

    const privateTarget = await t.request('POST', '/v1/batch', {
      key: owner.key,
      json: { items: [url, 'http://10.1.2.3/'] },
    });
    expect(privateTarget.status).toBe(403);
    expect(privateTarget.json.error.message).toContain('items[1]');
    expect(privateTarget.json.error.details.index).toBe(1);

    const tooMany = await t.request('POST', '/v1/batch', {
      key: owner.key,
      json: { items: Array.from({ length: 101 }, () => url) },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.details.issues[0].path).toBe('items');

    const broke = await t.createKey({ credits: 2 });
    const short = await t.request('POST', '/v1/batch', { key: broke.key, json: { items: [url, url, url] } });
    expect(short.status).toBe(402);
    expect(short.json.error.details).toEqual({ required: 3, remaining: 2 });
    expect(await credits(broke.key)).toBe(2);
    expect(await credits(owner.key)).toBe(before);
    expect(fixtures.hits.filter((hit) => hit.includes(`b=invalid-${engine}`))).toEqual([]);
  });

  it('answers a retried POST with the same Idempotency-Key with the same batch, once charged', async () => {
    const key = await t.createKey({ credits: 10 });
    const body = { items: [`${fixtures.origin}/capture/simple.html?b=idem-${engine}`] };
    const headers = { 'idempotency-key': 'sync-2026-11-28T14:00' };
    const first = await t.request('POST', '/v1/batch', { key: key.key, json: body, headers });
    expect(first.status, first.text).toBe(202);
    const again = await t.request('POST', '/v1/batch', { key: key.key, json: body, headers });
    expect(again.status).toBe(202);
    expect(again.json.id).toBe(first.json.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const different = await t.request('POST', '/v1/batch', {
      key: key.key,
      json: { items: [`${fixtures.origin}/capture/dark.html?b=idem-${engine}`] },
      headers,
    });
    expect(different.status).toBe(409);
    expect(different.json.error.code).toBe('conflict');
    // The same key in another account is another batch.
    const stranger = await t.createKey({ credits: 10 });
    const theirs = await t.request('POST', '/v1/batch', { key: stranger.key, json: body, headers });
    expect(theirs.status).toBe(202);
    expect(theirs.json.id).not.toBe(first.json.id);
    // Two POSTs racing with one key: one batch, charged once (the unique index decides).
    const raced = await Promise.all(
      [1, 2].map(() =>
        t.request('POST', '/v1/batch', {
          key: key.key,
          json: { items: [`${fixtures.origin}/capture/element.html?b=race-${engine}`] },
          headers: { 'idempotency-key': 'race' },
        }),
      ),
    );
    expect(raced.map((r) => r.status)).toEqual([202, 202]);
    expect(raced[0]!.json.id).toBe(raced[1]!.json.id);
    const done = await waitForBatch(first.json.id, key.key);
    expect(done.counts.completed).toBe(1);
    await waitForBatch(raced[0]!.json.id, key.key);
    // Two batches of one render each: 2 of the 10 credits.
    expect(await credits(key.key)).toBe(8);
    await waitForBatch(theirs.json.id, stranger.key);
    const bad = await t.request('POST', '/v1/batch', {
      key: key.key,
      json: body,
      headers: { 'idempotency-key': 'é'.repeat(3) },
    });
    expect(bad.status).toBe(400);
  }, 120_000);

  it('refunds a failed item and completes the others', async () => {
    const key = await t.createKey({ credits: 10 });
    const base = `${fixtures.origin}/capture/simple.html`;
    const res = await t.request('POST', '/v1/batch', {
      key: key.key,
      json: {
        items: [
          `${base}?f=1${engine}`,
          { url: `${base}?f=2${engine}`, selector: '#missing' },
          `${base}?f=3${engine}`,
        ],
        webhook_url: `${fixtures.origin}/hook`,
      },
    });
    expect(res.status, res.text).toBe(202);
    expect(await credits(key.key)).toBe(7);
    const batch = await waitForBatch(res.json.id, key.key);
    expect(batch.counts).toEqual({ total: 3, pending: 0, completed: 2, failed: 1 });
    expect(batch.renders[1]).toMatchObject({ index: 1, look: null, status: 'failed', result: null });
    expect(batch.renders[1].error).toContain('selector');
    expect(batch.renders[0].status).toBe('completed');
    expect(batch.renders[2].status).toBe('completed');
    expect(await credits(key.key)).toBe(8);
    const hook = hooks.find((h) => h.body.includes(res.json.id));
    expect(JSON.parse(hook!.body).counts).toEqual({ total: 3, pending: 0, completed: 2, failed: 1 });
  }, 120_000);
});

/**
 * Fair share: a batch holds at most twice the job concurrency of its renders in the capture
 * queue, so another account's job queued during the batch runs after at most that many of them,
 * not after the whole batch.
 */
describe('a batch and another account’s job', () => {
  let t: TestApp;
  let fixtures: RunningServer;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    fixtures.route('/slow', (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><h1>slow</h1>');
      }, 800);
    });
    t = await startTestApp('sqlite', {
      env: {
        VITRINE_ALLOW_TARGETS: '127.0.0.2',
        VITRINE_QUEUE_POLL_MS: '50',
        VITRINE_WORKER_CONCURRENCY: '1',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await fixtures?.close();
  });

  it('interleaves: the other job waits behind at most the batch’s window', async () => {
    const batcher = await t.createKey({ credits: 20 });
    const other = await t.createKey({ credits: 5 });
    const items = Array.from({ length: 8 }, (_, i) => `${fixtures.origin}/slow?fair=${i}`);
    const batch = await t.request('POST', '/v1/batch', {
      key: batcher.key,
      json: { items, defaults: { viewport: { width: 320, height: 240 } } },
    });
    expect(batch.status, batch.text).toBe(202);
    const job = await t.request('POST', '/v1/capture', {
      key: other.key,
      json: { url: `${fixtures.origin}/slow?fair=other`, viewport: { width: 320, height: 240 }, async: true },
    });
    expect(job.status, job.text).toBe(202);
    // Batch renders already ended when the other job was queued (usually none).
    const atQueue = (await t.request('GET', `/v1/batches/${batch.json.id}`, { key: batcher.key })).json;
    const endedBefore = atQueue.counts.completed + atQueue.counts.failed;

    let done: { status: string; completed_at: string } | undefined;
    for (let i = 0; i < 1200 && !done; i++) {
      const res = await t.request('GET', `/v1/jobs/${job.json.job_id}`, { key: other.key });
      if (res.json.status !== 'pending') done = res.json;
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(done?.status).toBe('completed');
    let final: { status: string; renders: { status: string; job_id: string }[] } | undefined;
    for (let i = 0; i < 1200; i++) {
      const res = await t.request('GET', `/v1/batches/${batch.json.id}`, { key: batcher.key });
      if (res.json.status === 'completed') {
        final = res.json;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(final?.renders.every((r) => r.status === 'completed')).toBe(true);
    const endedAt = await Promise.all(
      final!.renders.map(
        async (r) =>
          (await t.request('GET', `/v1/jobs/${r.job_id}`, { key: batcher.key })).json.completed_at as string,
      ),
    );
    const aheadOfOther = endedAt.filter((at) => at <= done!.completed_at).length;
    // Window = 2 x concurrency 1: at most 2 renders were queued ahead of the other job.
    expect(aheadOfOther).toBeLessThanOrEqual(endedBefore + 2);
    expect(aheadOfOther).toBeLessThan(items.length);
  }, 240_000);
});
