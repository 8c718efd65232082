import fs from 'node:fs';
import { ROUTES, type RouteDefinition } from '@vitrine/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_TYPES_FILE, openApiTypesSource } from '../../packages/sdk/scripts/openapi-types.ts';
import { lintOpenApi, type OpenApiDocument } from '../support/openapi-kit.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Lint warnings we accept, each with why. Anything else the linter says fails the test (errors
 * always do).
 */
const ACCEPTED_WARNINGS: Record<string, string> = {
  'no-illogical-composition-keywords #/components/schemas/BackgroundAsset/properties/config/anyOf/0':
    "`config` is any JSON value or null (interface.md 2.4: 'any type, nullable'); zod writes that as anyOf [{}, {type: null}]",
  ...Object.fromEntries(
    ['CaptureRequestInput', 'RawCaptureRequestInput'].flatMap((schema) => [
      [
        `no-required-schema-properties-undefined #/components/schemas/${schema}/if/not/required/0`,
        '`site` is a property of the schema itself; the rule looks only inside the `if`. Declaring it there again makes Redocly check the examples against the `if` alone',
      ],
      [
        `no-required-schema-properties-undefined #/components/schemas/${schema}/then/required/0`,
        '`url` is a property of the schema itself (as for `site` above)',
      ],
    ]),
  ),
};

/**
 * Every schema object in a document, with its JSON pointer. A `properties` map is not a schema
 * itself (a body may have a field named `items`, as POST /v1/batch does); its values are. Examples
 * are data and are not walked.
 */
function* schemasOf(
  value: unknown,
  pointer = '#',
  isPropertyMap = false,
): Generator<[string, Record<string, unknown>]> {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* schemasOf(item, `${pointer}/${i}`);
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (isPropertyMap) {
      for (const [key, child] of Object.entries(record)) yield* schemasOf(child, `${pointer}/${key}`);
      return;
    }
    if ('type' in record || 'items' in record) yield [pointer, record];
    for (const [key, child] of Object.entries(record)) {
      // Examples are data, not schemas (a batch example has an `items` list).
      if (key === 'examples' || key === 'example') continue;
      yield* schemasOf(child, `${pointer}/${key}`, key === 'properties');
    }
  }
}

describe('the OpenAPI document states what the server enforces (issue 35)', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
    doc = (await t.request('GET', '/v1/openapi.json')).json;
  });
  afterAll(() => t.close());

  it("passes Redocly's lint with no errors and only the accepted warnings", async () => {
    const problems = await lintOpenApi(doc);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    const unexpected = problems.filter((p) => !(`${p.ruleId} ${p.pointer}` in ACCEPTED_WARNINGS));
    expect(unexpected).toEqual([]);
  });

  it('lets a client leave out a body whose every field is optional, and no other', async () => {
    type Operation = { requestBody?: { required?: boolean } };
    const operation = (path: string, method: string) =>
      (doc.paths as Record<string, Record<string, Operation>>)[path]?.[method];
    expect(operation('/v1/projects', 'post')?.requestBody?.required).toBe(false);
    expect(operation('/v1/capture', 'post')?.requestBody?.required).toBe(true);
    expect(operation('/v1/raw', 'post')?.requestBody?.required).toBe(true);
    // And the server takes such a request without a body, as the document now says.
    const { key } = await t.createKey();
    const created = await t.request('POST', '/v1/projects', {
      key,
      headers: { 'content-type': 'application/json' },
    });
    expect(created.status).toBe(201);
  });

  it('has no `items` on a schema that is not an array (the background filters were strings)', () => {
    const wrong = [...schemasOf(doc)].filter(([, s]) => 'items' in s && s.type !== 'array').map(([p]) => p);
    expect(wrong).toEqual([]);
    const group = doc.paths['/v1/backgrounds']!.get!.parameters!.find((p) => p.name === 'group')!;
    expect(group.schema).toMatchObject({
      type: 'array',
      items: { enum: ['backgrounds', 'gradients', 'css-backgrounds'] },
    });
    expect(group).toMatchObject({ style: 'form', explode: false });
    for (const path of ['/v1/backgrounds', '/v1/backgrounds/packs']) {
      for (const name of ['group', 'type']) {
        const param = doc.paths[path]!.get!.parameters!.find((p) => p.name === name)!;
        expect(param.schema.type, `${path} ${name}`).toBe('array');
      }
    }
  });

  it('lists every status each route answers: image bytes, redirects, 202, 404 from raw, 400/413 on bodies', () => {
    const get = doc.paths['/v1/capture']!.get!.responses;
    expect(Object.keys(get['200']!.content!).sort()).toEqual(['image/jpeg', 'image/png', 'image/webp']);
    expect(get['302']!.headers).toHaveProperty('Location');
    expect(get['202']).toBeDefined();
    expect(doc.paths['/v1/raw']!.post!.responses['404']).toBeDefined();
    for (const route of Object.values(ROUTES) as RouteDefinition[]) {
      const op = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]![route.method.toLowerCase()]!;
      const statuses = Object.keys(op.responses);
      if (route.method === 'GET') expect(statuses, route.operationId).toContain('400');
      else expect(statuses, route.operationId).toEqual(expect.arrayContaining(['400', '413']));
      for (const status of ['429', '503']) {
        if (op.responses[status]) expect(op.responses[status]!.headers).toHaveProperty('Retry-After');
      }
    }
  });

  it('states formats, enums and the rules between fields', () => {
    // biome-ignore lint/suspicious/noExplicitAny: the document's schemas are inspected field by field
    const schemas = doc.components.schemas as Record<string, Record<string, any>>;
    const query = doc.paths['/v1/capture']!.get!.parameters!;
    const bg = query.find((p) => p.name === 'bg')!;
    expect(bg.schema.enum).toContain('aurora');
    expect(query.find((p) => p.name === 'width')!.schema).toMatchObject({ type: 'integer', maximum: 6144 });

    const createProject = doc.paths['/v1/projects']!.post!.requestBody!.content['application/json']!.schema;
    const domain = (createProject.properties as Record<string, { pattern: string }>).domain!;
    const pattern = new RegExp(domain.pattern);
    expect(pattern.test('example.com')).toBe(true);
    expect(pattern.test('https://Shop.Example.COM/pricing')).toBe(true);
    expect(pattern.test('not a domain')).toBe(false);
    expect(schemas.AuthProfileRequestInput!.properties.domain.pattern).toBeDefined();

    const capture = schemas.CaptureRequestInput!;
    expect(capture.dependentSchemas.webhook_url).toEqual({
      required: ['async'],
      properties: { async: { const: true } },
    });
    expect(capture.dependentSchemas.selector.not).toMatchObject({ required: ['full_page'] });
    expect(capture.dependentSchemas.element.not.anyOf).toHaveLength(2);
    expect(capture.if).toMatchObject({ not: { anyOf: [{ required: ['site'] }, { required: ['html'] }] } });
    expect(capture.dependentSchemas.html.not.anyOf).toMatchObject([
      { required: ['url'] },
      { required: ['site'] },
    ]);
    expect(capture.dependentSchemas.css).toMatchObject({ required: ['html'] });
    expect(capture.then).toMatchObject({ required: ['url'] });
    expect(schemas.RawCaptureRequestInput!.dependentSchemas.element).toBeDefined();
    expect(capture.properties.title).toBeDefined();
  });

  it('refuses a whitespace-only name with a message that says so, as its schema states', async () => {
    const key = await t.createKey();
    const created = await t.request('POST', '/v1/projects', { key: key.key, json: { name: 'Site' } });
    const id = created.json.project.id as string;
    const res = await t.request('PATCH', `/v1/projects/${id}`, { key: key.key, json: { name: '\f' } });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe('Invalid name: must not be empty or whitespace only');
    const name = doc.paths['/v1/projects/{id}']!.patch!.requestBody!.content['application/json']!.schema
      .properties as Record<string, { pattern: string; minLength: number }>;
    expect(name.name).toMatchObject({ minLength: 1, pattern: '\\S' });
    expect(new RegExp(name.name!.pattern).test('\f')).toBe(false);
    // A one-character bound reads in the singular.
    const long = await t.request('PATCH', `/v1/projects/${id}`, {
      key: key.key,
      json: { name: 'x'.repeat(201) },
    });
    expect(long.json.error.message).toBe('Invalid name: must be at most 200 characters');
  });

  it("is what the SDK's generated types were made from (else: make docs)", async () => {
    const fresh = await openApiTypesSource(doc);
    expect(fresh === fs.readFileSync(OPENAPI_TYPES_FILE, 'utf8'), 'run `make docs`').toBe(true);
  });
});
