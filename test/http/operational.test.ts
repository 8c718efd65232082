import { validate } from '@readme/openapi-parser';
import { ROUTES, type RouteDefinition } from '@vitrine/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('health, metrics, OpenAPI and the reference page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('answers /healthz and /readyz', async () => {
    expect((await t.request('GET', '/healthz')).json).toEqual({ status: 'ok' });
    const ready = await t.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.json).toEqual({ status: 'ready', checks: { database: 'ok', blob_store: 'ok' } });
  });

  it('exposes request duration histograms by route in Prometheus text', async () => {
    const key = await t.createKey();
    await t.request('GET', '/v1/usage', { key: key.key });
    const metrics = await t.request('GET', '/metrics');
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(metrics.text).toMatch(
      /vitrine_http_request_duration_seconds_bucket\{le="[^"]+",method="GET",route="\/v1\/usage",status_code="200"\}/,
    );
    expect(metrics.text).toContain('vitrine_process_resident_memory_bytes');
  });

  it('serves a valid OpenAPI 3.1 document listing every route with schemas and errors', async () => {
    const res = await t.request('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.json;
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc));
    expect(result.valid, JSON.stringify(result, null, 2)).toBe(true);

    for (const route of Object.values(ROUTES) as RouteDefinition[]) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${path}`).toBeDefined();
      expect(op.operationId).toBe(route.operationId);
      expect(op.responses[String(route.success.status)]).toBeDefined();
      expect(op.responses['401']).toBeDefined();
      expect(op.responses['429']).toBeDefined();
      if (route.body) expect(op.requestBody?.content?.['application/json']?.schema).toBeDefined();
      if (route.access.kind === 'scope') expect(op.security).toEqual([{ bearerAuth: [] }]);
      for (const code of route.errors) {
        const status = { invalid_params: '400', not_found: '404', conflict: '409' }[code as string];
        if (status) expect(op.responses[status], `${route.operationId} ${code}`).toBeDefined();
      }
    }
    expect(doc.paths['/healthz']).toBeUndefined();
  });

  it("shows the capture fields' defaults in the OpenAPI document, from the contract's one table", async () => {
    const doc = (await t.request('GET', '/v1/openapi.json')).json;
    const body = doc.paths['/v1/capture'].post.requestBody.content['application/json'].schema;
    const schema = body.$ref ? doc.components.schemas[body.$ref.split('/').pop()] : body;
    const field = (name: string) => {
      const f = schema.properties[name];
      return f.$ref ? doc.components.schemas[f.$ref.split('/').pop()] : f;
    };
    expect(field('padding').default).toBe(64);
    expect(field('corner_radius').default).toBe(12);
    expect(field('shadow').default).toBe('soft');
    expect(field('background_style').default).toBe('gradient');
    expect(field('background_preset').default).toBe('aurora');
    expect(field('viewport').default).toEqual({ width: 1440, height: 900 });
    expect(field('cache_ttl').default).toBe(86_400);
    expect(field('compose_mode').default).toBe('satori');
    const output = field('output');
    expect(output.properties.format.default).toBe('png');
    expect(output.properties.dpr.default).toBe(1);
  });

  it('serves /docs as Scalar from this origin only, under a strict CSP', async () => {
    const res = await t.request('GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    const scripts = [...res.text.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts).toEqual(['/docs/assets/scalar/standalone.js', '/docs/assets/init.js']);
    expect(res.text).not.toMatch(/<script>/);
    for (const src of scripts) {
      const asset = await t.request('GET', src);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toContain('javascript');
    }
    expect((await t.request('GET', '/docs/assets/init.js')).text).toContain("url: '/v1/openapi.json'");
    expect((await t.request('GET', '/docs/assets/scalar/..%2Fpackage.json')).status).toBe(404);
    expect((await t.request('GET', '/docs/assets/scalar/missing.js')).status).toBe(404);
  });

  it('marks public routes as needing no key, so "try it" sends none', async () => {
    const doc = (await t.request('GET', '/v1/openapi.json')).json;
    expect(doc.paths['/v1/backgrounds'].get.security).toEqual([]);
    expect(doc.paths['/v1/projects'].get.security).toEqual([{ bearerAuth: [] }]);
  });
});
