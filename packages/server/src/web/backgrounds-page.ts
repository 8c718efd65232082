import type { FastifyInstance } from 'fastify';
import { createBackgroundUrls } from '../backgrounds/asset-urls.ts';
import type { BackgroundCatalogue } from '../backgrounds/catalogue.ts';
import { filterBackgrounds } from '../backgrounds/catalogue-search.ts';
import type { BackgroundTheme } from '../backgrounds/palettes.ts';
import { escapeHtml } from '../escape-html.ts';

const THEMES: readonly BackgroundTheme[] = ['light', 'dark', 'mixed'];
const GROUPS = ['backgrounds', 'gradients', 'css-backgrounds'] as const;

export interface BackgroundsPageQuery {
  group?: string;
  theme?: string;
  q?: string;
}

const STYLE = `*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,Segoe UI,sans-serif;background:#0d0f14;color:#e6e8ee}
header{padding:32px 40px 8px}h1{margin:0 0 4px;font-size:28px}header p{margin:0;color:#9aa3b2}
form{display:flex;gap:10px;flex-wrap:wrap;padding:16px 40px;position:sticky;top:0;background:#0d0f14ee;border-bottom:1px solid #1f2430;z-index:1}
input,select,button{font:inherit;padding:8px 12px;border-radius:8px;border:1px solid #2a3140;background:#151922;color:inherit}button{background:#4f46e5;border-color:#4f46e5;cursor:pointer}
section{padding:24px 40px}h2{margin:0;font-size:20px}.meta{color:#9aa3b2;font-size:13px;margin:2px 0 14px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:16px}
figure{margin:0;background:#151922;border:1px solid #1f2430;border-radius:12px;overflow:hidden}
figure img{display:block;width:100%;aspect-ratio:16/10;object-fit:cover;background:#222}
figcaption{padding:8px 10px 10px}figcaption b{display:block;font-weight:600;font-size:14px}
code{font:12px ui-monospace,monospace;color:#a5b4fc;user-select:all}.chip{display:inline-block;font-size:11px;padding:1px 7px;border-radius:99px;background:#222838;color:#aab;margin-right:4px}
.empty{padding:40px;color:#9aa3b2}a{color:#a5b4fc}`;

function option(value: string, label: string, selected: string | undefined): string {
  return `<option value="${escapeHtml(value)}"${selected === value ? ' selected' : ''}>${escapeHtml(label)}</option>`;
}

/**
 * The catalogue page: every pack with its thumbnails, filterable by group, theme and search,
 * each asset showing the reference to put in `background`. Server-rendered, no scripts, no
 * external resources; all text escaped.
 */
export function renderBackgroundsPage(catalogue: BackgroundCatalogue, query: BackgroundsPageQuery): string {
  const urls = createBackgroundUrls('');
  const group = GROUPS.find((g) => g === query.group);
  const theme = THEMES.find((t) => t === query.theme);
  const q = (query.q ?? '').slice(0, 200);
  const matching = filterBackgrounds(catalogue, { group: group ? [group] : undefined, theme, q });
  const sections = catalogue.packs
    .map((pack) => {
      const assets = matching.filter((a) => a.pack === pack.pack);
      if (assets.length === 0) return '';
      const cards = assets
        .map(
          (a) =>
            `<figure><img src="${escapeHtml(urls.thumbnail(a))}" alt="${escapeHtml(a.name)}" width="480" height="300" loading="lazy"><figcaption><b>${escapeHtml(a.name)}</b><span class="chip">${escapeHtml(a.theme)}</span><span class="chip">${escapeHtml(a.subtype)}</span><br><code>${escapeHtml(a.background)}</code></figcaption></figure>`,
        )
        .join('');
      return `<section id="${escapeHtml(pack.pack)}"><h2>${escapeHtml(pack.title)}</h2><p class="meta">${escapeHtml(pack.description)} · ${escapeHtml(pack.group)} · ${assets.length} of ${pack.assets.length}</p><div class="grid">${cards}</div></section>`;
    })
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Backgrounds · Vitrine</title><style>${STYLE}</style></head><body>
<header><h1>Backgrounds</h1><p>${catalogue.assets.length} hosted backgrounds in ${catalogue.packs.length} packs. Put a reference in the capture field <code>background</code>, or list them with <a href="/v1/backgrounds">GET /v1/backgrounds</a>. Try them on a page of yours in the <a href="/playground">playground</a>.</p></header>
<form method="get" action="/backgrounds"><input type="search" name="q" value="${escapeHtml(q)}" placeholder="Search name, pack or tag" aria-label="Search">
<select name="group" aria-label="Group">${option('', 'All groups', group ?? '')}${GROUPS.map((g) => option(g, g, group)).join('')}</select>
<select name="theme" aria-label="Theme">${option('', 'All themes', theme ?? '')}${THEMES.map((t) => option(t, t, theme)).join('')}</select><button type="submit">Filter</button></form>
${sections || '<p class="empty">No background matches these filters.</p>'}</body></html>`;
}

export interface BackgroundsPageDeps {
  catalogue: BackgroundCatalogue;
}

/** Registers GET /backgrounds (hidden from the OpenAPI document). */
export function registerBackgroundsPage(app: FastifyInstance, deps: BackgroundsPageDeps): void {
  app.get<{ Querystring: Record<string, unknown> }>(
    '/backgrounds',
    { schema: { hide: true } },
    async (request, reply) => {
      const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
      const html = renderBackgroundsPage(deps.catalogue, {
        group: text(request.query.group),
        theme: text(request.query.theme),
        q: text(request.query.q),
      });
      return reply
        .type('text/html; charset=utf-8')
        .header(
          'content-security-policy',
          "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'",
        )
        .send(html);
    },
  );
}
