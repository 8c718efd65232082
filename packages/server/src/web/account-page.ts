import {
  type ApiKey,
  type AuthProfile,
  idPattern,
  isScope,
  keyLabelSchema,
  type Project,
  SCOPES,
  type Scope,
  type UsageResponse,
} from '@vitrine/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountKeys } from '../auth/account-keys.ts';
import type { AuthProfileService } from '../authprofiles/auth-profile-service.ts';
import type { Credits } from '../billing/credits.ts';
import { AppError } from '../errors/app-error.ts';
import type { ProjectService } from '../projects/project-service.ts';
import { csrfField, html, renderPage, type SafeHtml } from './web-layout.ts';
import { requireSession, sessionUser } from './web-session.ts';

export interface AccountPageDeps {
  keys: AccountKeys;
  credits: Pick<Credits, 'usage'>;
  projects: Pick<ProjectService, 'list'>;
  /** Listed read-only (never a cookie); absent: the section is left out. */
  authProfiles?: Pick<AuthProfileService, 'list'>;
}

const ORIGIN_LABELS: Record<ApiKey['created_by'], string> = {
  admin: 'operator',
  device_login: 'device login',
  web: 'account page',
  api: 'API',
};

function day(iso: string | null): string {
  return iso === null ? 'never' : iso.slice(0, 10);
}

function keysTable(keys: ApiKey[], csrf: string): SafeHtml {
  if (keys.length === 0) return html`<p class="muted">No API keys yet.</p>`;
  const rows = keys.map(
    (k) =>
      html`<tr><td><code>${k.prefix}</code>${k.mode === 'test' ? html` <span class="badge">test</span>` : ''}</td><td>${k.label}<br><span class="muted">by ${ORIGIN_LABELS[k.created_by]}</span></td><td data-label="Scopes">${k.scopes.length === 0 ? 'all' : k.scopes.join(', ')}</td><td data-label="Created">${day(k.created_at)}</td><td data-label="Last used">${day(k.last_used_at)}</td><td>${
        k.revoked_at === null
          ? html`<form method="post" action="/account/keys/${k.id}/revoke">${csrfField(csrf)}<button type="submit" class="danger small" aria-label="Revoke key ${k.prefix}">Revoke</button></form>`
          : html`<span class="badge off">revoked ${day(k.revoked_at)}</span>`
      }</td></tr>`,
  );
  return html`<div class="table-wrap"><table class="stack"><thead><tr><th scope="col">Key</th><th scope="col">Label</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="skip">State</span></th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function createKeyForm(csrf: string): SafeHtml {
  const checks = SCOPES.map(
    (scope) => html`<label><input type="checkbox" name="scope" value="${scope}"> ${scope}</label>`,
  );
  return html`<form method="post" action="/account/keys" class="card">${csrfField(csrf)}<h3>Create a key</h3>
<label for="label">Label</label><input id="label" name="label" type="text" maxlength="100" placeholder="e.g. CI on GitHub">
<fieldset><legend>Scopes (none checked: full access)</legend><div class="checks">${checks}</div></fieldset>
<button type="submit">Create key</button></form>`;
}

function usageSection(usage: UsageResponse): SafeHtml {
  const max = Math.max(1, ...usage.daily_breakdown.map((d) => d.renders));
  const bars = usage.daily_breakdown.map(
    (d) =>
      html`<span class="h${Math.round((d.renders / max) * 20)}" title="${d.day}: ${d.renders} renders, ${d.credits} credits"></span>`,
  );
  return html`<div class="stats"><div>Credits left<b>${usage.credits_remaining}</b><span class="muted">of ${usage.credits_monthly} a month</span></div><div>Renders, last 30 days<b>${usage.last_30_days.render_count}</b></div><div>Credits used, last 30 days<b>${usage.last_30_days.credits_used}</b></div></div>${
    usage.daily_breakdown.length > 0
      ? html`<div class="bars" role="img" aria-label="Renders per day over the last 30 days">${bars}</div>`
      : html`<p class="muted">No renders in the last 30 days.</p>`
  }`;
}

function projectsTable(projects: Project[]): SafeHtml {
  if (projects.length === 0)
    return html`<p class="muted">No projects yet. Create one with <code>vitrine projects create</code> or <code>POST /v1/projects</code>.</p>`;
  const rows = projects.map(
    (p) =>
      html`<tr><td>${p.name}${p.is_default ? html` <span class="badge ok">default</span>` : ''}<br><code>${p.id}</code></td><td data-label="Domain">${p.domain ?? html`<span class="muted">none</span>`}</td><td data-label="Brand"><span class="badge${p.brand_status === 'completed' ? ' ok' : p.brand_status === 'failed' ? ' off' : ''}">${p.brand_status}</span>${p.brand_error ? html`<br><span class="muted">${p.brand_error}</span>` : ''}</td></tr>`,
  );
  return html`<div class="table-wrap"><table class="stack"><thead><tr><th scope="col">Project</th><th scope="col">Domain</th><th scope="col">Brand</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function authProfilesTable(profiles: AuthProfile[]): SafeHtml {
  if (profiles.length === 0)
    return html`<p class="muted">No auth profiles yet. Sign in to a site with <code>vitrine auth login --url &lt;login page&gt;</code>, or <code>POST /v1/auth-profiles</code>.</p>`;
  const rows = profiles.map(
    (p) =>
      html`<tr><td>${p.name}<br><code>${p.id}</code></td><td data-label="Domain">${p.domain}</td><td data-label="Cookies">${String(p.cookie_count)}</td><td data-label="Status"><span class="badge${p.status === 'active' ? ' ok' : ' off'}">${p.status}</span></td><td data-label="Last used">${p.last_used_at ?? html`<span class="muted">never</span>`}</td></tr>`,
  );
  return html`<div class="table-wrap"><table class="stack"><thead><tr><th scope="col">Profile</th><th scope="col">Domain</th><th scope="col">Cookies</th><th scope="col">Status</th><th scope="col">Last used</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

type FormBody = Record<string, unknown> | undefined;

/** The scopes ticked in the form (one `scope` field per box); unknown names are refused. */
function chosenScopes(body: FormBody): Scope[] {
  const given = body?.scope;
  const list = given === undefined ? [] : Array.isArray(given) ? given : [given];
  const scopes = list.filter((s): s is string => typeof s === 'string');
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0 || scopes.length !== list.length) {
    throw new AppError('invalid_params', `Unknown scope. Must be any of: ${SCOPES.join(', ')}`);
  }
  return scopes as Scope[];
}

/** GET /account, POST /account/keys, POST /account/keys/:id/revoke. */
export function registerAccountPage(web: FastifyInstance, deps: AccountPageDeps): void {
  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    flash?: SafeHtml,
  ): Promise<FastifyReply> {
    const user = sessionUser(request);
    const [keys, usage, projects, authProfiles] = await Promise.all([
      deps.keys.list(user.id),
      deps.credits.usage(user.id),
      deps.projects.list(user.id),
      deps.authProfiles?.list(user.id),
    ]);
    const csrf = reply.generateCsrf();
    const main = html`<h1>Your account</h1>${flash ?? ''}
<p>Design a capture visually and copy the API call in the <a href="/playground">playground</a>; the API is described in the <a href="/docs">reference</a>.</p>
<h2>Credits and usage</h2>${usageSection(usage)}
<h2>API keys</h2>${keysTable(keys, csrf)}${createKeyForm(csrf)}
<h2>Projects</h2>${projectsTable(projects)}${
      authProfiles
        ? html`
<h2>Auth profiles</h2>${authProfilesTable(authProfiles)}`
        : ''
    }`;
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(renderPage({ title: 'Account', main, signedInAs: user.email, csrfToken: csrf }));
  }

  web.get<{ Querystring: Record<string, unknown> }>(
    '/account',
    { preHandler: requireSession },
    async (request, reply) => {
      const revoked = request.query.revoked;
      const flash =
        typeof revoked === 'string' && idPattern('apiKey').test(revoked)
          ? html`<p class="notice" role="status">Key <code>${revoked}</code> was revoked; it stops working at once.</p>`
          : undefined;
      return render(request, reply, 200, flash);
    },
  );

  web.post('/account/keys', { preHandler: [requireSession, web.csrfProtection] }, async (request, reply) => {
    const body = request.body as FormBody;
    const labelInput = typeof body?.label === 'string' ? body.label.trim() : '';
    const label = labelInput === '' ? undefined : keyLabelSchema.safeParse(labelInput);
    if (label !== undefined && !label.success) {
      throw new AppError('invalid_params', 'The label must be 1 to 100 characters of printable text.');
    }
    const { key, apiKey } = await deps.keys.create(sessionUser(request), {
      label: label?.data,
      scopes: chosenScopes(body),
      origin: 'web',
      heldScopes: null,
    });
    const flash = html`<div class="notice" role="status"><p>Created key <code>${key.prefix}</code> (${key.label}). Copy it now: it is shown only this once.</p><code class="secret">${apiKey}</code></div>`;
    return render(request, reply, 201, flash);
  });

  web.post<{ Params: { id: string } }>(
    '/account/keys/:id/revoke',
    { preHandler: [requireSession, web.csrfProtection] },
    async (request, reply) => {
      const id = request.params.id;
      if (!idPattern('apiKey').test(id)) throw new AppError('not_found', 'No such key.');
      await deps.keys.revoke(sessionUser(request).id, id);
      return reply.redirect(`/account?revoked=${id}`, 303);
    },
  );
}
