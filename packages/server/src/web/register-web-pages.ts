import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.ts';
import { sendError, toAppError } from '../http/error-response.ts';
import { type AccountPageDeps, registerAccountPage } from './account-page.ts';
import { type DevicePagesDeps, registerDevicePages } from './device-pages.ts';
import { type PlaygroundDeps, registerPlaygroundPage } from './playground-page.ts';
import { registerSignInPages, type SignInPagesDeps } from './sign-in-pages.ts';
import { html, renderPage } from './web-layout.ts';
import { registerWebSession, type WebSessionOptions } from './web-session.ts';
import { WEB_STYLESHEET, WEB_STYLESHEET_ETAG } from './web-style.ts';

export type WebPagesDeps = WebSessionOptions &
  Omit<SignInPagesDeps, 'secureCookies'> &
  DevicePagesDeps &
  AccountPageDeps & {
    playground: PlaygroundDeps;
  };

/**
 * Headers of every web page: no framing (clickjacking on the approval page), no scripts, forms
 * only to this site, no referrer (a `?code=` must not leak), nothing cached.
 */
const PAGE_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cross-origin-opener-policy': 'same-origin',
};

function isCsrfError(error: unknown): boolean {
  const code = (error as Partial<FastifyError>)?.code;
  return code === 'FST_CSRF_INVALID_TOKEN' || code === 'FST_CSRF_MISSING_SECRET';
}

/** Errors on web pages are pages too: the same status as the API would use, a readable message. */
function sendErrorPage(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // The playground's JSON endpoints answer in the API's error envelope, which its page reads.
  if (request.url.startsWith('/playground/api/')) {
    const refused = isCsrfError(error)
      ? new AppError(
          'unauthorized',
          'This request did not come from the playground page, or the page expired: reload it.',
        )
      : error;
    return sendError(refused, request, reply);
  }
  if (isCsrfError(error)) {
    const main = html`<h1>Form expired</h1><p class="error" role="alert">This form was not sent from this site, or it expired. Go back, reload the page and try again.</p>`;
    return reply
      .code(403)
      .type('text/html; charset=utf-8')
      .send(renderPage({ title: 'Form expired', main, narrow: true }));
  }
  const appError = toAppError(error);
  if (appError.status >= 500) request.log.error({ err: appError.cause ?? error }, 'web page failed');
  if (appError.retryAfter !== undefined) reply.header('retry-after', String(appError.retryAfter));
  const main = html`<h1>${appError.status >= 500 ? 'Something went wrong' : 'That did not work'}</h1><p class="error" role="alert">${appError.message}</p><p><a href="/account">Back to your account</a></p>`;
  return reply
    .code(appError.status)
    .type('text/html; charset=utf-8')
    .send(renderPage({ title: 'Error', main, narrow: true }));
}

/**
 * The server-rendered web pages (sign-in, first-run setup, device approval, account) in their
 * own Fastify scope: cookies, form bodies and CSRF checks exist only here, never on the JSON API.
 * Later pages (the playground) register inside the same scope and reuse `requireSession`.
 */
export async function registerWebPages(app: FastifyInstance, deps: WebPagesDeps): Promise<void> {
  await app.register(async (web) => {
    // Pages are not part of the API: keep them out of the OpenAPI document.
    web.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    await registerWebSession(web, deps);
    web.addHook('onSend', async (_request, reply, payload) => {
      // A page with its own policy (the playground runs its scripts) keeps it.
      for (const [name, value] of Object.entries(PAGE_HEADERS)) {
        if (!reply.hasHeader(name)) reply.header(name, value);
      }
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      return payload;
    });
    web.setErrorHandler(sendErrorPage);
    web.get('/web.css', async (request, reply) => {
      reply.header('cache-control', 'public, max-age=3600').header('etag', WEB_STYLESHEET_ETAG);
      if (request.headers['if-none-match'] === WEB_STYLESHEET_ETAG) return reply.code(304).send();
      return reply.type('text/css; charset=utf-8').send(WEB_STYLESHEET);
    });
    web.get('/', async (_request, reply) => reply.redirect('/account', 303));
    registerSignInPages(web, deps);
    registerDevicePages(web, deps);
    registerAccountPage(web, deps);
    registerPlaygroundPage(web, deps.playground);
  });
}
