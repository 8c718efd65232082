import {
  AUTHENTICATED_ROUTE_ERRORS,
  ERROR_CODES,
  type ErrorCode,
  errorEnvelopeSchema,
  ROUTES,
  type RouteDefinition,
} from '@vitrine/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteHandler, RouteHandlers } from './route-handler.ts';

/**
 * Codes every route of this method can answer with, whatever its schema: a GET refuses a
 * repeated query parameter (request-guard.ts); a POST, PATCH or DELETE parses any body it is sent,
 * so malformed JSON and an oversized body are answered even where the route takes none.
 */
function methodErrors(route: RouteDefinition): ErrorCode[] {
  return route.method === 'GET' ? ['invalid_params'] : ['invalid_json', 'payload_too_large'];
}

/** Error responses of a route for the OpenAPI document, grouped by status. */
function errorResponses(route: RouteDefinition): Record<number, unknown> {
  const shared: readonly ErrorCode[] =
    route.access.kind !== 'public'
      ? AUTHENTICATED_ROUTE_ERRORS
      : ['unauthorized', 'rate_limited', 'internal_error', 'overloaded'];
  const codes = new Set<ErrorCode>([...route.errors, ...shared, ...methodErrors(route)]);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<number, unknown> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[status] = errorEnvelopeSchema.describe(
      list.map((c) => `\`${c}\`: ${ERROR_CODES[c].description}`).join(' '),
    );
  }
  return responses;
}

function isReply(value: unknown): value is FastifyReply {
  return (
    typeof value === 'object' && value !== null && 'sent' in value && 'raw' in value && 'request' in value
  );
}

/**
 * Registers every route of the contract's table with its handler; a route without a handler
 * stops the server from starting.
 */
export function registerRoutes(
  app: FastifyInstance,
  handlers: RouteHandlers,
  guard: (route: RouteDefinition) => (request: FastifyRequest, reply: FastifyReply) => Promise<void>,
): void {
  for (const [id, route] of Object.entries(ROUTES) as [keyof RouteHandlers, RouteDefinition][]) {
    const handler = handlers[id] as RouteHandler<RouteDefinition> | undefined;
    if (!handler) throw new Error(`No handler for route ${id}`);
    app.route({
      method: route.method,
      url: route.path,
      schema: {
        operationId: route.operationId,
        summary: route.summary,
        tags: [route.tag],
        ...(route.access.kind === 'scope'
          ? { security: [{ bearerAuth: [] }], description: `Requires scope \`${route.access.scope}\`.` }
          : route.access.kind === 'key'
            ? { security: [{ bearerAuth: [] }], description: 'Any valid API key, whatever its scopes.' }
            : // `security: []`: the reference's "try it" sends no key to a public route.
              { security: [], description: 'Public: no API key needed (an invalid one still gets 401).' }),
        ...(route.params ? { params: route.params } : {}),
        ...(route.query ? { querystring: route.query } : {}),
        ...(route.headers ? { headers: route.headers } : {}),
        ...(route.body ? { body: route.body } : {}),
        response: {
          [route.success.status]: route.success.schema.describe(route.success.description),
          ...Object.fromEntries(
            (route.alternatives ?? []).map((a) => [a.status, a.schema.describe(a.description)]),
          ),
          ...errorResponses(route),
        },
      },
      onRequest: guard(route),
      handler: async (request, reply) => {
        const result = await handler({
          params: request.params as never,
          query: request.query as never,
          body: request.body as never,
          principal: request.principal as never,
          request,
          reply,
        });
        // A handler that sent its own answer (202, an image, a redirect) returns the reply; the
        // reply is a thenable, so an async handler's promise resolves to undefined once it is
        // sent. Sending again would log "Reply was already sent" and relabel the status.
        if (isReply(result) || reply.sent || reply.raw.headersSent) return reply;
        return reply.code(route.success.status).send(result);
      },
    });
  }
}
