import { normalizeUserCode, USER_CODE_MAX_INPUT } from '@vitrine/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AttemptLimiter } from '../auth/attempt-limiter.ts';
import type { DeviceCodeRequestView, DeviceLogin } from '../auth/device-login.ts';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors/app-error.ts';
import { csrfField, html, renderPage, type SafeHtml } from './web-layout.ts';
import { requireSession, sessionUser } from './web-session.ts';

export interface DevicePagesDeps {
  deviceLogin: DeviceLogin;
  /** Wrong codes per user and per client IP. */
  wrongCodes: AttemptLimiter;
  clock: Clock;
}

/** Wrong codes allowed per window before code entry pauses (per user and per IP). */
export const WRONG_CODE_LIMIT = { failures: 10, windowSeconds: 15 * 60 } as const;

const NOT_A_CODE =
  'That is not a device code. Codes look like BCDF-GHJK: eight letters, shown in your terminal.';
const NO_SUCH_CODE =
  'No login is waiting for that code. Check the code in your terminal; codes expire after 15 minutes and work once.';

type FormBody = Record<string, unknown> | undefined;

function field(body: FormBody, name: string): string {
  const value = body?.[name];
  return typeof value === 'string' ? value : '';
}

function codeEntry(csrfToken: string, options: { code?: string; error?: string }): SafeHtml {
  return html`<h1>Connect a device</h1><p>Enter the code your terminal shows to let it sign in to your account.</p>${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
<form method="post" action="/device" class="card">${csrfField(csrfToken)}
<label for="code">Code</label><input id="code" name="code" type="text" class="code" inputmode="text" autocomplete="one-time-code" autocapitalize="characters" spellcheck="false" required maxlength="${USER_CODE_MAX_INPUT}" placeholder="XXXX-XXXX" value="${options.code ?? ''}" autofocus>
<button type="submit">Continue</button></form>`;
}

function ago(fromIso: string, now: Date): string {
  const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(fromIso)) / 1000));
  if (seconds < 60) return `${seconds} seconds ago`;
  const minutes = Math.round(seconds / 60);
  return minutes === 1 ? '1 minute ago' : `${minutes} minutes ago`;
}

function confirmation(csrfToken: string, code: DeviceCodeRequestView, now: Date): SafeHtml {
  const scopes = code.scopes.length === 0 ? 'Full access to your account' : code.scopes.join(', ');
  return html`<h1>Approve this sign-in?</h1>
<p class="warning" role="note">Only approve if you started this yourself, just now, in your own terminal. Someone who sent you this code or link wants access to your account.</p>
<div class="card"><p class="big-code" aria-label="Code">${code.userCode}</p><dl class="facts">
<dt>Client</dt><dd>${code.clientName ?? 'Not given'}${code.userAgent ? html` <span class="muted">(${code.userAgent})</span>` : ''}</dd>
<dt>Requested from IP</dt><dd>${code.clientIp}</dd>
<dt>Requested at</dt><dd><time datetime="${code.createdAt}">${code.createdAt.replace('T', ' ').slice(0, 19)} UTC</time> (${ago(code.createdAt, now)})</dd>
<dt>Access</dt><dd>${scopes}</dd>
<dt>Creates</dt><dd>A new API key labelled "Device login", which you can revoke on your account page</dd></dl>
<form method="post" action="/device/decision" class="actions">${csrfField(csrfToken)}<input type="hidden" name="code" value="${code.userCode}">
<button type="submit" name="decision" value="approve">Approve</button><button type="submit" name="decision" value="deny" class="danger">Deny</button></form></div>`;
}

function send(
  reply: FastifyReply,
  request: FastifyRequest,
  status: number,
  title: string,
  main: SafeHtml,
  csrf: string,
) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(renderPage({ title, main, narrow: true, signedInAs: request.webUser?.email, csrfToken: csrf }));
}

/** GET /device, POST /device (code entry), POST /device/decision (approve or deny). */
export function registerDevicePages(web: FastifyInstance, deps: DevicePagesDeps): void {
  const subjects = (request: FastifyRequest) => [`user:${sessionUser(request).id}`, `ip:${request.ip}`];

  /** Refuses code entry while the user or the IP has used up its wrong codes. */
  async function checkThrottle(request: FastifyRequest): Promise<void> {
    const waits = await Promise.all(subjects(request).map((s) => deps.wrongCodes.retryAfter(s)));
    const wait = Math.max(...waits);
    if (wait > 0) {
      throw new AppError(
        'rate_limited',
        `Too many wrong codes. Try again in ${Math.ceil(wait / 60)} minute${wait > 60 ? 's' : ''}.`,
        { retryAfter: wait },
      );
    }
  }

  async function wrongCode(request: FastifyRequest, reply: FastifyReply, code: string, error: string) {
    await Promise.all(subjects(request).map((s) => deps.wrongCodes.fail(s)));
    const csrf = reply.generateCsrf();
    return send(reply, request, 404, 'Connect a device', codeEntry(csrf, { code, error }), csrf);
  }

  web.get<{ Querystring: Record<string, unknown> }>(
    '/device',
    { preHandler: requireSession },
    async (request, reply) => {
      const given = request.query.code;
      const code = typeof given === 'string' && given.length <= USER_CODE_MAX_INPUT ? given : undefined;
      const csrf = reply.generateCsrf();
      return send(reply, request, 200, 'Connect a device', codeEntry(csrf, code ? { code } : {}), csrf);
    },
  );

  web.post('/device', { preHandler: [requireSession, web.csrfProtection] }, async (request, reply) => {
    await checkThrottle(request);
    const input = field(request.body as FormBody, 'code');
    const letters = normalizeUserCode(input);
    const shown = input.slice(0, USER_CODE_MAX_INPUT);
    if (letters === null) {
      const csrf = reply.generateCsrf();
      return send(
        reply,
        request,
        400,
        'Connect a device',
        codeEntry(csrf, { code: shown, error: NOT_A_CODE }),
        csrf,
      );
    }
    const pending = await deps.deviceLogin.findPending(letters);
    if (!pending) return wrongCode(request, reply, shown, NO_SUCH_CODE);
    const csrf = reply.generateCsrf();
    return send(
      reply,
      request,
      200,
      'Approve this sign-in?',
      confirmation(csrf, pending, deps.clock()),
      csrf,
    );
  });

  web.post(
    '/device/decision',
    { preHandler: [requireSession, web.csrfProtection] },
    async (request, reply) => {
      await checkThrottle(request);
      const body = request.body as FormBody;
      const decision = field(body, 'decision');
      if (decision !== 'approve' && decision !== 'deny') {
        throw new AppError('invalid_params', 'Choose Approve or Deny.');
      }
      const letters = normalizeUserCode(field(body, 'code'));
      const pending = letters === null ? undefined : await deps.deviceLogin.findPending(letters);
      if (!pending) return wrongCode(request, reply, '', NO_SUCH_CODE);
      if (!(await deps.deviceLogin.decide(pending.id, decision, sessionUser(request).id))) {
        return wrongCode(request, reply, '', NO_SUCH_CODE);
      }
      const csrf = reply.generateCsrf();
      const main =
        decision === 'approve'
          ? html`<h1>Approved</h1><p class="notice" role="status">Your terminal is signed in to your account. You can close this page.</p><p>The new key is listed on your <a href="/account">account page</a>, where you can revoke it at any time.</p>`
          : html`<h1>Denied</h1><p class="notice" role="status">The request was refused; no key was created. Your terminal will report it.</p>`;
      return send(reply, request, 200, decision === 'approve' ? 'Approved' : 'Denied', main, csrf);
    },
  );
}
