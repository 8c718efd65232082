import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestKey } from '../support/test-app.ts';

/** Counts of vitrine_http_request_duration_seconds by status for one route and method. */
async function statusCounts(t: TestApp, method: string, route: string): Promise<Record<string, number>> {
  const text = (await t.request('GET', '/metrics')).text;
  const counts: Record<string, number> = {};
  const pattern = /^vitrine_http_request_duration_seconds_count\{([^}]*)\} (\d+)$/gm;
  for (const [, labels = '', count] of text.matchAll(pattern)) {
    if (!labels.includes(`method="${method}"`) || !labels.includes(`route="${route}"`)) continue;
    const status = /status_code="(\d+)"/.exec(labels)?.[1] ?? '?';
    counts[status] = (counts[status] ?? 0) + Number(count);
  }
  return counts;
}

describe('a reply a handler sent itself is sent once', () => {
  let t: TestApp;
  let owner: TestKey;

  beforeAll(async () => {
    // role api: the jobs stay queued, so nothing renders.
    t = await startTestApp('sqlite', {
      env: { VITRINE_ALLOW_TARGETS: '127.0.0.2' },
      appOptions: { role: 'api' },
    });
    owner = await t.createKey({ credits: 10 });
  });
  afterAll(() => t.close());

  it('counts queued captures (202) as 202 in /metrics, POST and GET', async () => {
    const post = await t.request('POST', '/v1/capture', {
      key: owner.key,
      json: { url: 'http://127.0.0.2:9/page', async: true },
    });
    expect(post.status).toBe(202);
    const payload = Buffer.from(JSON.stringify({ async: true })).toString('base64url');
    const get = await t.request('GET', `/v1/capture?url=http://127.0.0.2:9/other&payload=${payload}`, {
      key: owner.key,
    });
    expect(get.status, get.text).toBe(202);
    expect(get.json).toMatchObject({ status: 'pending' });

    // onResponse runs after the answer left: poll for it rather than assume it already ran.
    const deadline = Date.now() + 15_000;
    let post202 = 0;
    let get202 = 0;
    while (Date.now() < deadline && (post202 < 1 || get202 < 1)) {
      post202 = (await statusCounts(t, 'POST', '/v1/capture'))['202'] ?? 0;
      get202 = (await statusCounts(t, 'GET', '/v1/capture'))['202'] ?? 0;
      if (post202 < 1 || get202 < 1) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await statusCounts(t, 'POST', '/v1/capture')).toEqual({ '202': 1 });
    expect(await statusCounts(t, 'GET', '/v1/capture')).toEqual({ '202': 1 });
  });
});
