import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/app-error.ts';

/**
 * `/docs`: the API reference rendered in the browser by Scalar (`@scalar/api-reference`, its
 * standalone bundle served from our own node_modules) from `/v1/openapi.json`. Nothing is loaded
 * from elsewhere: the CSP allows only this origin, Scalar's web fonts are off and its request
 * proxy is unset, so "try it" calls go straight to this server with the reader's API key.
 */
// The package exports only modules; its main module sits in dist/, the browser bundle beside it.
const SCALAR_DIR = path.join(
  path.dirname(fileURLToPath(import.meta.resolve('@scalar/api-reference'))),
  'browser',
);
const ASSET_NAME = /^(?:chunks\/)?[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.js$/;

/**
 * Scalar injects its stylesheet and inline styles at run time (hence 'unsafe-inline' for styles
 * only); scripts, requests and images stay on this origin.
 */
const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Vitrine API reference</title></head>
<body>
<noscript><p>The reference needs JavaScript. The raw OpenAPI document is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</p></noscript>
<div id="app"></div>
<script src="/docs/assets/scalar/standalone.js"></script>
<script src="/docs/assets/init.js"></script>
</body></html>
`;

/** Scalar's configuration, a file rather than an inline script so the CSP needs no 'unsafe-inline'. */
const INIT_JS = `// Vitrine: configures Scalar (see packages/server/src/web/api-reference.ts)
Scalar.createApiReference('#app', {
  url: '/v1/openapi.json',
  withDefaultFonts: false,
  hideClientButton: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
  baseServerURL: window.location.origin,
  servers: [{ url: window.location.origin, description: 'This Vitrine server' }],
  persistAuth: true,
  metaData: { title: 'Vitrine API reference' },
});
`;

export function registerApiReference(app: FastifyInstance): void {
  const hidden = { schema: { hide: true } };
  app.get('/docs', hidden, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', DOCS_CSP)
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-cache')
      .send(DOCS_HTML),
  );
  app.get('/docs/assets/init.js', hidden, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .send(INIT_JS),
  );
  app.get('/docs/assets/scalar/*', hidden, async (request, reply) => {
    const name = (request.params as { '*': string })['*'];
    if (!ASSET_NAME.test(name)) throw new AppError('not_found', 'No such asset');
    const data = await readFile(path.join(SCALAR_DIR, name)).catch(() => undefined);
    if (!data) throw new AppError('not_found', 'No such asset');
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .send(data);
  });
}
