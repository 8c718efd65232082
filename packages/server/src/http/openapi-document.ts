import { ERROR_CODES, ROUTES, type RouteDefinition } from '@vitrine/contract';

/** The parts of an OpenAPI 3.1 document this module reads and writes. */
interface OpenApiOperation {
  responses?: Record<string, Record<string, unknown>>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Record<string, unknown> }> };
}

interface OpenApiDocument {
  info: Record<string, unknown>;
  paths?: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, unknown>; [section: string]: unknown };
  [key: string]: unknown;
}

const RETRY_AFTER_HEADER = {
  'Retry-After': {
    description: 'Seconds to wait before trying again (the same as `error.retry_after`)',
    schema: { type: 'integer', minimum: 0 },
  },
};

const RETRYABLE_STATUSES = new Set(
  Object.values(ERROR_CODES)
    .filter((entry) => entry.description.includes('retry_after'))
    .map((entry) => String(entry.status)),
);

/**
 * What the route table says that a zod response schema cannot: answers that are not JSON (the
 * image bytes and the redirect of `GET /v1/capture`), and the `Retry-After` header of the
 * answers that carry one.
 */
function addRouteAnswers(doc: OpenApiDocument): void {
  for (const route of Object.values(ROUTES) as RouteDefinition[]) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const operation = doc.paths?.[path]?.[route.method.toLowerCase()];
    if (!operation?.responses) continue;
    const responses = operation.responses;
    for (const answer of route.nonJsonAnswers ?? []) {
      responses[String(answer.status)] =
        'media' in answer
          ? {
              description: answer.description,
              content: Object.fromEntries(
                answer.media.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]),
              ),
            }
          : {
              description: answer.description,
              headers: {
                Location: { description: 'Where the answer is', schema: { type: 'string', format: 'uri' } },
              },
            };
    }
    for (const [status, response] of Object.entries(responses)) {
      if (RETRYABLE_STATUSES.has(status)) response.headers = { ...RETRY_AFTER_HEADER };
    }
  }
}

/**
 * A body whose every field is optional may be left out: the server takes no body as `{}` (an
 * empty body of any content type is no body), so typed clients must not be made to send one.
 */
function markOptionalBodies(doc: OpenApiDocument): void {
  const schemas = doc.components?.schemas ?? {};
  const resolve = (schema: Record<string, unknown> | undefined) => {
    const ref = schema?.$ref;
    return typeof ref === 'string' && ref.startsWith('#/components/schemas/')
      ? (schemas[ref.slice('#/components/schemas/'.length)] as Record<string, unknown> | undefined)
      : schema;
  };
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const schema = resolve(operation.requestBody?.content?.['application/json']?.schema);
      if (!operation.requestBody || !schema || schema.type !== 'object') continue;
      const required = Array.isArray(schema.required) ? schema.required : [];
      const conditional = ['anyOf', 'oneOf', 'allOf', 'if', 'dependentRequired', 'dependentSchemas'].some(
        (key) => key in schema,
      );
      if (required.length === 0 && !conditional) operation.requestBody.required = false;
    }
  }
}

/** Every `#/components/schemas/X` that `value` refers to, directly or through other schemas. */
function referencedSchemas(doc: OpenApiDocument): Set<string> {
  const schemas = doc.components?.schemas ?? {};
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')) {
          const name = child.slice('#/components/schemas/'.length);
          if (!used.has(name)) {
            used.add(name);
            visit(schemas[name]);
          }
        } else {
          visit(child);
        }
      }
    }
  };
  visit(doc.paths);
  return used;
}

/**
 * The last step of building `/v1/openapi.json`, after the route schemas became JSON Schema:
 * the route table's non-JSON answers and retry headers go in, bodies with no required field
 * become optional, and the component schemas no
 * operation refers to go out (the zod registry holds an input and an output form of each named
 * schema; only the ones in use belong in the document, or generated clients carry dead types).
 */
export function finishOpenApiDocument<D extends object>(document: D): D {
  const doc = document as unknown as OpenApiDocument;
  addRouteAnswers(doc);
  markOptionalBodies(doc);
  const schemas = doc.components?.schemas;
  if (schemas) {
    const used = referencedSchemas(doc);
    for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
  }
  return document;
}
