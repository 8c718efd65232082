import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** The parts of an OpenAPI 3.1 document the tests read. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, unknown> };
  [key: string]: unknown;
}

export interface OpenApiOperation {
  operationId: string;
  parameters?: { name: string; in: string; required?: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }>; headers?: object }>;
}

export interface LintProblem {
  severity: string;
  ruleId: string;
  message: string;
  pointer: string | undefined;
}

/**
 * Lints a document with Redocly's engine (`@redocly/openapi-core`, what `redocly lint` runs) on
 * its `recommended` ruleset, plus rules that catch what generated clients trip over: a query
 * array without its serialisation, an operation without an id or a success answer.
 */
export async function lintOpenApi(doc: object): Promise<LintProblem[]> {
  const config = await createConfig({
    extends: ['recommended'],
    rules: {
      'array-parameter-serialization': 'error',
      'operation-operationId': 'error',
      'operation-operationId-unique': 'error',
      'operation-2xx-response': 'error',
      'no-invalid-media-type-examples': 'error',
      'no-invalid-schema-examples': 'error',
    },
  });
  const problems = await lintFromString({
    source: JSON.stringify(doc),
    absoluteRef: '/v1/openapi.json',
    config,
  });
  return problems.map((p) => ({
    severity: p.severity,
    ruleId: p.ruleId,
    message: p.message,
    pointer: p.location[0]?.pointer,
  }));
}

function pointerOf(segments: string[]): string {
  return segments.map((s) => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/');
}

/**
 * Validates answers against the document's own response schemas (ajv, JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1), so a test proves that what the server sends is what it documents.
 */
export function responseValidator(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(doc, 'openapi.json');
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();

  return {
    /**
     * Errors of one answer (an empty list when it matches): its status must be documented for the
     * operation, and a JSON body must match the schema of that status.
     */
    check(path: string, method: string, status: number, contentType: string | null, body: unknown): string[] {
      const operation = doc.paths[path]?.[method.toLowerCase()];
      if (!operation) return [`${method} ${path} is not in the document`];
      const response = operation.responses[String(status)];
      if (!response) return [`${method} ${path} answered ${status}, which the document does not list`];
      const media = (contentType ?? '').split(';')[0]!.trim();
      if (!response.content) return media === '' || status === 302 ? [] : [`undocumented body ${media}`];
      if (!response.content[media])
        return [`${status} with ${media}, documented: ${Object.keys(response.content)}`];
      if (media !== 'application/json') return [];
      const pointer = pointerOf([
        'paths',
        path,
        method.toLowerCase(),
        'responses',
        String(status),
        'content',
        media,
        'schema',
      ]);
      let validate = cache.get(pointer);
      if (!validate) {
        validate = ajv.compile({ $ref: `openapi.json#/${pointer}` });
        cache.set(pointer, validate);
      }
      return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    },
  };
}
