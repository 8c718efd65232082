import type { ROUTES, RouteDefinition, RouteId } from '@vitrine/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Principal } from '../auth/authenticate.ts';

type Input<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler receives: validated input and the caller. */
export interface HandlerContext<R extends RouteDefinition> {
  params: Input<R['params']>;
  query: Input<R['query']>;
  body: Input<R['body']>;
  /** Set on every route that requires a key (with or without a scope); may be null on public routes. */
  principal: R['access'] extends { kind: 'scope' | 'key' } ? Principal : Principal | null;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * A handler returns the success body (sent with the route's success status), or the reply
 * itself when it has sent something else (an image, a redirect).
 */
export type RouteHandler<R extends RouteDefinition> = (
  context: HandlerContext<R>,
) => Promise<z.input<R['success']['schema']> | FastifyReply>;

export type RouteHandlers = { [K in RouteId]: RouteHandler<(typeof ROUTES)[K]> };
