import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalString, captureRequestSchema, DEVICES, idPattern, type Project } from '@vitrine/contract';
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../auth/authenticate.ts';
import { signCanonical } from '../auth/signed-url.ts';
import type { CaptureService } from '../captures/capture-service.ts';
import type { Clock } from '../clock.ts';
import { FINISH_COLORS, FRAME_CATALOGUE } from '../compose/index.ts';
import { AppError, invalidParam, notFound } from '../errors/app-error.ts';
import { clientAbortSignal } from '../http/client-abort-signal.ts';
import { invalidParamsFromZod } from '../http/error-response.ts';
import type { ProjectService } from '../projects/project-service.ts';
import { requireSession, sessionUser } from './web-session.ts';

/** The built front-end (packages/playground, `vite build`; scripts/install.sh builds it). */
export const PLAYGROUND_DIST = fileURLToPath(new URL('../../../playground/dist/', import.meta.url));
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.(js|css|svg|png|woff2)$/;
const ASSET_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
};

/**
 * The playground's own policy: its scripts and styles from this origin only, requests to this
 * origin only (previews, the catalogue), previews shown from (and readable as) blob: URLs.
 */
const PLAYGROUND_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self' blob:; font-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** How long a signed URL minted by the playground stays valid (bounded by the server's maximum). */
const SIGNED_URL_TTL_SECONDS = 7 * 86_400;

export interface PlaygroundDeps {
  captures: Pick<CaptureService, 'capture'>;
  projects: Pick<ProjectService, 'list'>;
  /** The current signing secret of the user's project, or undefined (unknown, or another account's). */
  signingSecret(userId: string, projectId: string): Promise<string | undefined>;
  publicUrl: string;
  signedUrlMaxTtlSeconds: number;
  clock: Clock;
}

/** Every device with its named finishes and their colours, for the picker's small pictures. */
const DEVICE_CHOICES = DEVICES.map((id) => ({
  id,
  family: FRAME_CATALOGUE[id].family,
  finishes: FRAME_CATALOGUE[id].finishes.map((name) => ({ name, color: FINISH_COLORS[name] ?? '#888888' })),
}));

/** A web-session user acts as a full-access live key of their own account, like the account page. */
function sessionPrincipal(userId: string): Principal {
  return { userId, keyId: null, mode: 'live', scopes: [] };
}

function parseCapture(body: unknown): Record<string, unknown> {
  const capture = (body as { capture?: unknown } | undefined)?.capture;
  if (typeof capture !== 'object' || capture === null || Array.isArray(capture)) {
    throw invalidParam('capture', 'Send {"capture": <a POST /v1/capture body>, "_csrf": <token>}');
  }
  return capture as Record<string, unknown>;
}

async function readDistFile(name: string): Promise<Buffer | undefined> {
  return readFile(path.join(PLAYGROUND_DIST, name)).catch(() => undefined);
}

/**
 * `/playground` (signed-in users): the page, its assets, and three JSON endpoints the page
 * calls with the session cookie and the CSRF token: what the user may choose (projects), a
 * preview render, and a signed GET URL for the chosen project.
 */
export function registerPlaygroundPage(web: FastifyInstance, deps: PlaygroundDeps): void {
  web.get('/playground', { preHandler: requireSession }, async (_request, reply) => {
    const page = await readDistFile('index.html');
    if (!page) {
      throw new AppError(
        'internal_error',
        'The playground is not built. Run `make install` (it builds packages/playground).',
      );
    }
    return reply
      .header('content-security-policy', PLAYGROUND_CSP)
      .type('text/html; charset=utf-8')
      .send(page);
  });

  web.get('/playground/assets/:name', async (request, reply) => {
    const { name } = request.params as { name: string };
    const match = ASSET_NAME.exec(name);
    const data = match ? await readDistFile(path.join('assets', name)) : undefined;
    if (!match || !data) throw notFound(`Asset ${name}`);
    // Vite names assets by content hash, so they never change under the same name.
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .type(ASSET_TYPES[match[1]!]!)
      .send(data);
  });

  web.get('/playground/api/session', { preHandler: requireSession }, async (request, reply) => {
    const user = sessionUser(request);
    const projects: Project[] = await deps.projects.list(user.id);
    return reply.send({
      email: user.email,
      csrf: reply.generateCsrf(),
      public_url: deps.publicUrl,
      projects: projects.map((p) => ({ id: p.id, name: p.name, is_default: p.is_default })),
      devices: DEVICE_CHOICES,
    });
  });

  web.post(
    '/playground/api/preview',
    { preHandler: [requireSession, web.csrfProtection] },
    async (request, reply) => {
      const user = sessionUser(request);
      const parsed = captureRequestSchema.safeParse(parseCapture(request.body));
      if (!parsed.success) throw invalidParamsFromZod(parsed.error);
      // A preview is always rendered now: it is shown at once, never queued or sent to a webhook.
      const body = { ...parsed.data, async: false, webhook_url: undefined };
      const principal = sessionPrincipal(user.id);
      const submitted = await deps.captures.capture(body, principal, 'capture', clientAbortSignal(reply.raw));
      if (submitted.status !== 'rendered') throw new AppError('internal_error', 'A preview was queued');
      const blob = await submitted.image();
      return reply
        .type(blob.contentType)
        .header('x-capture-id', submitted.result.id)
        .header('x-capture-cached', String(submitted.result.cached))
        .send(blob.data);
    },
  );

  web.post(
    '/playground/api/sign',
    { preHandler: [requireSession, web.csrfProtection] },
    async (request, reply) => {
      const user = sessionUser(request);
      const projectId = (request.body as { project_id?: unknown }).project_id;
      if (typeof projectId !== 'string' || !idPattern('project').test(projectId)) {
        throw invalidParam('project_id', 'Give one of your projects (prj_...)');
      }
      const parsed = captureRequestSchema.safeParse(parseCapture(request.body));
      if (!parsed.success) throw invalidParamsFromZod(parsed.error);
      const secret = await deps.signingSecret(user.id, projectId);
      if (secret === undefined) throw notFound(`Project ${projectId}`);
      const { url, ...rest } = parseCapture(request.body);
      const nowSeconds = Math.floor(deps.clock().getTime() / 1000);
      const expires = nowSeconds + Math.min(SIGNED_URL_TTL_SECONDS, deps.signedUrlMaxTtlSeconds);
      // The query form (docs/api-decisions.md section 4): `site` is the target, every other field travels
      // in `payload`, `response=image` so the URL works as an <img> source.
      const pairs = new Map<string, string>([['site', String(url)]]);
      if (Object.keys(rest).length > 0) {
        pairs.set('payload', Buffer.from(JSON.stringify(rest)).toString('base64url'));
      }
      pairs.set('response', 'image');
      pairs.set('project_id', projectId);
      pairs.set('expires', String(expires));
      const signature = signCanonical(secret, canonicalString('GET', '/v1/capture', pairs));
      const query = new URLSearchParams([...pairs, ['signature', signature]]);
      return reply.send({ url: `${deps.publicUrl}/v1/capture?${query.toString()}`, expires_at: expires });
    },
  );
}
