import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.ts';
import { sendError } from './error-response.ts';

/**
 * HTTP's answers for a path that exists under other methods (RFC 9110 15.5.6): 405
 * `method_not_allowed` with an `Allow` header listing the path's methods, in the contract's
 * envelope; OPTIONS is answered 204 with the same `Allow` (the service has no CORS, so there is
 * nothing else to negotiate). Fastify's router only knows "no route", so the methods of every
 * registered path are collected as routes are added and matched here, where Fastify would
 * answer 404. A path no method has stays 404 `not_found`.
 */
export interface AllowedMethods {
  /** The methods registered for the path of `url` (query ignored), sorted; empty when none. */
  forUrl(url: string): string[];
  /** The not-found handler: 204 for OPTIONS, 405 for another method, else `notFound`. */
  answer(request: FastifyRequest, reply: FastifyReply, notFound: () => AppError): FastifyReply;
}

interface PathPattern {
  pattern: RegExp;
  methods: Set<string>;
}

/** `/v1/projects/:id/default` -> a regex of the whole path; `*` matches the rest of it. */
function patternOf(url: string): RegExp {
  const parts = url.split('/').map((part) => {
    if (part === '*') return '.*';
    if (part.startsWith(':')) return '[^/]+';
    return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return new RegExp(`^${parts.join('/')}$`);
}

/** Starts collecting routes: call before any route or plugin is registered on `app`. */
export function collectAllowedMethods(app: FastifyInstance): AllowedMethods {
  const paths = new Map<string, PathPattern>();
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (typeof url !== 'string') return;
    const entry = paths.get(url) ?? { pattern: patternOf(url), methods: new Set<string>() };
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) entry.methods.add(method.toUpperCase());
    // Fastify answers HEAD for every GET route (exposeHeadRoutes).
    if (entry.methods.has('GET')) entry.methods.add('HEAD');
    paths.set(url, entry);
  });

  function forUrl(url: string): string[] {
    const path = url.split('?')[0] ?? '';
    const allowed = new Set<string>();
    for (const { pattern, methods } of paths.values()) {
      if (pattern.test(path)) for (const method of methods) allowed.add(method);
    }
    if (allowed.size > 0) allowed.add('OPTIONS');
    return [...allowed].sort();
  }

  return {
    forUrl,
    answer(request, reply, notFound) {
      const allowed = forUrl(request.url);
      if (allowed.length === 0) return sendError(notFound(), request, reply);
      reply.header('allow', allowed.join(', '));
      if (request.method === 'OPTIONS') return reply.code(204).send();
      return sendError(
        new AppError(
          'method_not_allowed',
          `${request.method} is not allowed on this path; it allows ${allowed.join(', ')}`,
          { details: { allow: allowed } },
        ),
        request,
        reply,
      );
    },
  };
}
