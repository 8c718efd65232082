import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSessions } from '../auth/web-sessions.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type WebSignIn } from '../auth/web-sign-in.ts';
import type { UserRow } from '../db/users-repository.ts';
import { AppError } from '../errors/app-error.ts';
import { csrfField, html, renderPage, type SafeHtml } from './web-layout.ts';
import { clearSessionCookie, safeNextPath, setSessionCookie } from './web-session.ts';

/** The one message of every failed sign-in: it never tells which part was wrong. */
export const SIGN_IN_FAILED =
  'Sign-in failed. Check the email and password; after several failed attempts sign-in pauses for a few minutes.';

export interface SignInPagesDeps {
  signIn: WebSignIn;
  sessions: WebSessions;
  secureCookies: boolean;
}

type FormBody = Record<string, unknown> | undefined;

function field(body: FormBody, name: string): string {
  const value = body?.[name];
  return typeof value === 'string' ? value : '';
}

function signInForm(csrfToken: string, options: { next?: string; email?: string; error?: string }): SafeHtml {
  const purpose = options.next?.startsWith('/device')
    ? html`<p>Sign in to connect the device that showed you a code.</p>`
    : '';
  return html`<h1>Sign in</h1>${purpose}${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
<form method="post" action="/login" class="card">${csrfField(csrfToken)}${options.next ? html`<input type="hidden" name="next" value="${options.next}">` : ''}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required maxlength="320" value="${options.email ?? ''}" autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required maxlength="${PASSWORD_MAX_LENGTH}">
<button type="submit">Sign in</button></form>`;
}

function setupForm(csrfToken: string, options: { email?: string; error?: string }): SafeHtml {
  return html`<h1>Set up Vitrine</h1><p>No account exists yet. Create the first one; this page closes once it exists.</p>${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
<form method="post" action="/setup" class="card">${csrfField(csrfToken)}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required maxlength="320" value="${options.email ?? ''}" autofocus>
<label for="password">Password (at least ${PASSWORD_MIN_LENGTH} characters)</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN_LENGTH}" maxlength="${PASSWORD_MAX_LENGTH}">
<label for="confirm">Password again</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN_LENGTH}" maxlength="${PASSWORD_MAX_LENGTH}">
<button type="submit">Create account</button></form>`;
}

function sendPage(reply: FastifyReply, status: number, title: string, main: SafeHtml): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(renderPage({ title, main, narrow: true }));
}

/** Starts a fresh session (a new id on every sign-in, so a planted id is worthless). */
async function startSession(
  deps: SignInPagesDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
): Promise<void> {
  if (request.webSessionId) await deps.sessions.end(request.webSessionId);
  const userAgent = request.headers['user-agent'];
  const session = await deps.sessions.start(
    user.id,
    request.ip,
    typeof userAgent === 'string' ? userAgent : undefined,
  );
  setSessionCookie(reply, session.id, session.expiresAt, deps.secureCookies);
}

/** GET/POST /login, POST /logout, GET/POST /setup. */
export function registerSignInPages(web: FastifyInstance, deps: SignInPagesDeps): void {
  web.get<{ Querystring: Record<string, unknown> }>('/login', async (request, reply) => {
    const next = safeNextPath(request.query.next);
    if (request.webUser) return reply.redirect(next ?? '/account', 303);
    if (await deps.signIn.setupOpen()) return reply.redirect('/setup', 303);
    return sendPage(reply, 200, 'Sign in', signInForm(reply.generateCsrf(), next ? { next } : {}));
  });

  web.post('/login', { preHandler: web.csrfProtection }, async (request, reply) => {
    const body = request.body as FormBody;
    const email = field(body, 'email');
    const next = safeNextPath(field(body, 'next'));
    const outcome = await deps.signIn.signIn(email, field(body, 'password'), request.ip);
    if (!outcome.ok) {
      const form = signInForm(reply.generateCsrf(), {
        ...(next ? { next } : {}),
        email: email.slice(0, 320),
        error: SIGN_IN_FAILED,
      });
      return sendPage(reply, 401, 'Sign in', form);
    }
    await startSession(deps, request, reply, outcome.user);
    return reply.redirect(next ?? '/account', 303);
  });

  web.post('/logout', { preHandler: web.csrfProtection }, async (request, reply) => {
    if (request.webSessionId) await deps.sessions.end(request.webSessionId);
    clearSessionCookie(reply, deps.secureCookies);
    return reply.redirect('/login', 303);
  });

  web.get('/setup', async (_request, reply) => {
    if (!(await deps.signIn.setupOpen())) throw setupClosed();
    return sendPage(reply, 200, 'Set up', setupForm(reply.generateCsrf(), {}));
  });

  web.post('/setup', { preHandler: web.csrfProtection }, async (request, reply) => {
    if (!(await deps.signIn.setupOpen())) throw setupClosed();
    const body = request.body as FormBody;
    const email = field(body, 'email');
    const password = field(body, 'password');
    const retry = (error: string) =>
      sendPage(reply, 400, 'Set up', setupForm(reply.generateCsrf(), { email: email.slice(0, 320), error }));
    if (password !== field(body, 'confirm')) return retry('The two passwords differ.');
    let user: UserRow | null;
    try {
      user = await deps.signIn.setUp(email, password);
    } catch (error) {
      if (error instanceof AppError && error.code === 'invalid_params') return retry(error.message);
      throw error;
    }
    if (!user) throw setupClosed();
    await startSession(deps, request, reply, user);
    return reply.redirect('/account', 303);
  });
}

function setupClosed(): AppError {
  return new AppError('not_found', 'Setup is complete: an account exists. Sign in instead.');
}
