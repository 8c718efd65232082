import type { RouteDefinition } from '@vitrine/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Authenticator, type Principal, requireScope } from '../auth/authenticate.ts';
import { parseQueryPairs, rawQueryOf } from '../auth/query-pairs.ts';
import type { SignedUrlVerifier } from '../auth/signed-url.ts';
import { AppError } from '../errors/app-error.ts';
import type { RateLimiter, RateLimitState } from './rate-limiter.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The key from `Authorization: Bearer`, or from `?api_key=` on GET (docs/api-decisions.md section 3). */
function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new AppError('unauthorized', 'The Authorization header must be "Bearer <API key>"');
    return match[1];
  }
  if (request.method === 'GET' || request.method === 'HEAD') {
    const query = request.query as Record<string, unknown> | undefined;
    const fromQuery = query?.api_key;
    if (typeof fromQuery === 'string') return fromQuery;
  }
  return undefined;
}

function setRateLimitHeaders(reply: FastifyReply, state: RateLimitState): void {
  reply.header('ratelimit-limit', String(state.limit));
  reply.header('ratelimit-remaining', String(Math.max(0, state.remaining)));
  reply.header('ratelimit-reset', String(state.resetSeconds));
}

/**
 * Runs before body parsing: authenticates (a bad key is 401 even on public routes), checks the
 * route's scope, then counts the request against its rate-limit bucket.
 */
export function createRequestGuard(deps: {
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
  verifySignedUrl: SignedUrlVerifier;
}) {
  return (route: RouteDefinition) =>
    async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      // Duplicate query keys are refused on every GET: one request must mean one thing.
      const pairs = request.method === 'GET' ? parseQueryPairs(rawQueryOf(request.url)) : undefined;
      const key = presentedKey(request);
      let principal = key === undefined ? null : await deps.authenticator.authenticate(key);
      if (!principal && route.access.kind === 'scope' && route.access.signedUrl && pairs?.has('signature')) {
        const path = request.url.split('?')[0]!;
        const project = await deps.verifySignedUrl(request.method, path, pairs);
        principal = {
          userId: project.user_id,
          keyId: null,
          signedProjectId: project.id,
          mode: 'live',
          scopes: [],
        };
      }
      if (route.access.kind !== 'public') {
        if (!principal) {
          throw new AppError('unauthorized', 'Missing API key: send "Authorization: Bearer <API key>"');
        }
        if (route.access.kind === 'scope') requireScope(principal, route.access.scope);
      }
      request.principal = principal;
      if (route.rateLimit === 'none') return;
      const subject =
        route.rateLimit === 'device_code' || !principal
          ? `ip:${request.ip}`
          : principal.keyId !== null
            ? `key:${principal.keyId}`
            : `project:${principal.signedProjectId}`;
      try {
        setRateLimitHeaders(reply, await deps.rateLimiter.consume(route.rateLimit, subject));
      } catch (error) {
        if (error instanceof AppError && error.code === 'rate_limited') {
          setRateLimitHeaders(reply, {
            limit: Number(error.details?.limit ?? 0),
            remaining: 0,
            resetSeconds: error.retryAfter ?? 60,
          });
        }
        throw error;
      }
    };
}
