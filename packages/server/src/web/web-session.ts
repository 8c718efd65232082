import cookie from '@fastify/cookie';
import csrfProtection from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSessions } from '../auth/web-sessions.ts';
import type { UserRow } from '../db/users-repository.ts';
import { AppError } from '../errors/app-error.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user of a web page request, or null (set only inside the web pages' scope). */
    webUser: UserRow | null;
    /** The session id from the verified cookie, when it names a live session. */
    webSessionId: string | null;
  }
}

export const SESSION_COOKIE = 'vitrine_session';
export const CSRF_COOKIE = 'vitrine_csrf';

export interface WebSessionOptions {
  sessions: WebSessions;
  /** Signs the session and CSRF cookies. */
  cookieSecret: string;
  /** Marks cookies `Secure` (when the public URL is https). */
  secureCookies: boolean;
}

/**
 * Cookies, form bodies, CSRF protection and the session lookup for the web pages. Registered
 * inside the web pages' own Fastify scope, so the JSON API never parses form bodies or reads
 * cookies.
 */
export async function registerWebSession(web: FastifyInstance, options: WebSessionOptions): Promise<void> {
  await web.register(cookie, { secret: options.cookieSecret, hook: 'onRequest' });
  await web.register(formbody);
  await web.register(csrfProtection, {
    cookieKey: CSRF_COOKIE,
    cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true, signed: true, secure: options.secureCookies },
    getToken: (request) => {
      const token = (request.body as Record<string, unknown> | undefined)?._csrf;
      return typeof token === 'string' ? token : undefined;
    },
  });
  web.decorateRequest('webUser', null);
  web.decorateRequest('webSessionId', null);
  web.addHook('onRequest', async (request) => {
    if (request.url === '/web.css') return; // the stylesheet is the same for everybody
    const signed = request.cookies[SESSION_COOKIE];
    if (signed === undefined) return;
    const { valid, value } = request.unsignCookie(signed);
    if (!valid || value === null) return;
    const user = await options.sessions.resolve(value);
    if (user) {
      request.webUser = user;
      request.webSessionId = value;
    }
  });
}

export function setSessionCookie(reply: FastifyReply, id: string, expiresAt: Date, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    signed: true,
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
}

/** A same-site path to return to after sign-in; anything else (other sites, `//host`) is dropped. */
export function safeNextPath(next: unknown): string | undefined {
  if (typeof next !== 'string' || next.length > 300) return undefined;
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return undefined;
  return /^[\x21-\x7e]+$/.test(next) ? next : undefined;
}

/**
 * preHandler for pages that need a signed-in user (reusable by every web page): a GET without
 * a session goes to the sign-in page and comes back afterwards; anything else is refused.
 */
export async function requireSession(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  if (request.webUser) return undefined;
  if (request.method === 'GET' || request.method === 'HEAD') {
    const next = safeNextPath(request.url);
    return reply.redirect(next ? `/login?next=${encodeURIComponent(next)}` : '/login', 303);
  }
  throw new AppError('unauthorized', 'Your session ended. Sign in again, then repeat what you were doing.');
}

/** The signed-in user inside a handler that runs after `requireSession`. */
export function sessionUser(request: FastifyRequest): UserRow {
  if (!request.webUser) throw new AppError('unauthorized', 'Sign in first.');
  return request.webUser;
}
