// The second import of the element evaluation set (issue 33, second stop): templates from other
// authors than StartBootstrap, unpacked by import-templates.sh (`npm pack`) and passed here as
// `name=unpacked-dir:page,page,...`. Each kept page is copied with the local files it loads
// (stylesheets, scripts, images, and what stylesheets load), nothing else; references to CDNs
// become local copies or are removed, as test/element/templates/README.md lists.
//   node import-more-templates.mjs OUT_DIR name=dir:page,page [name=dir:page ...]
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const [out, ...specs] = process.argv.slice(2);
const BASE = '/element-templates';
const V = `${BASE}/_vendor`;

const placeholders = new Map();
function placeholder(width, height, bg, fg) {
  const name = `${width}x${height}-${bg}-${fg}.svg`;
  placeholders.set(
    name,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
      `<rect width="100%" height="100%" fill="#${bg}"/>` +
      `<text x="50%" y="50%" fill="#${fg}" font-family="sans-serif" font-size="${Math.max(8, Math.round(Math.min(width, height) / 8))}" text-anchor="middle" dominant-baseline="middle">${width}×${height}</text></svg>\n`,
  );
  return `${BASE}/_placeholders/${name}`;
}

/** Rewrites of remote references, applied to every kept page. */
const RULES = [
  // Google Fonts (stylesheets and preconnects): removed, the pages fall back to their next font;
  // Material Icons Round comes from @fontsource/material-icons-round instead.
  [
    /<link[^>]*fonts\.googleapis\.com\/icon\?family=Material\+Icons\+Round[^>]*>/g,
    `<link href="${V}/material-icons-round@5.3.0/material-icons-round.css" rel="stylesheet">`,
  ],
  [/[ \t]*<link[^>]*fonts\.(googleapis|gstatic)\.com[^>]*>\r?\n?/g, ''],
  // Font Awesome kits (a hosted script per customer): the free Font Awesome 6 from npm.
  [
    /<script[^>]*kit\.fontawesome\.com[^>]*><\/script>/g,
    `<script src="${V}/fontawesome-free@6.3.0/js/all.min.js"></script>`,
  ],
  // line-awesome from the icons8 CDN: removed (its icons are not used by the kept pages' labels).
  [/[ \t]*<link[^>]*maxcdn\.icons8\.com[^>]*>\r?\n?/g, ''],
  // Country flags (backstrap's language menu, not on the kept page): the stylesheet is removed
  // so its 500 flag images are not copied.
  [/[ \t]*<link[^>]*flag-icon\.min\.css[^>]*>\r?\n?/g, ''],
  // Analytics and GitHub star buttons: removed.
  [/[ \t]*<script[^>]*(api\.nepcha\.com|buttons\.github\.io)[^>]*><\/script>\r?\n?/g, ''],
  // Remote photographs: a local SVG placeholder (800x600 unless the URL gives a width).
  [
    /https:\/\/images\.unsplash\.com\/[^"')\s]+/g,
    (m) => {
      const w = Number(/[?&]w=(\d+)/.exec(m)?.[1] ?? 800);
      return placeholder(w, Math.round((w * 3) / 4), 'adb5bd', '495057');
    },
  ],
];

const LOCAL_REF = /(?:src|href)\s*=\s*"([^"#]+)"/g;
const CSS_URL = /url\(\s*['"]?([^'")]+)['"]?\s*\)/g;

function isLocal(ref) {
  return !/^([a-z]+:|\/\/|#|javascript:|mailto:|tel:)/i.test(ref.trim()) && !ref.includes('${');
}

for (const spec of specs) {
  const [name, rest] = spec.split('=');
  const [src, pages] = rest.split(':');
  const dst = path.join(out, name);
  fs.rmSync(dst, { recursive: true, force: true });
  const copied = new Set();
  const copiedFiles = [];
  /** Copies `file` (absolute, inside src) and what it references. */
  const copy = (file) => {
    const rel = path.relative(src, file);
    if (rel.startsWith('..') || copied.has(rel) || !fs.existsSync(file) || fs.statSync(file).isDirectory())
      return;
    copied.add(rel);
    fs.mkdirSync(path.dirname(path.join(dst, rel)), { recursive: true });
    fs.copyFileSync(file, path.join(dst, rel));
    copiedFiles.push(path.join(dst, rel));
    if (file.endsWith('.css')) {
      const text = fs.readFileSync(file, 'utf8');
      for (const [, ref] of text.matchAll(CSS_URL)) {
        // Font formats Chromium never picks when a WOFF2 or WOFF is listed first: not copied.
        if (!isLocal(ref) || ref.startsWith('data:') || /\.(eot|ttf)([?#]|$)|\.svg[?#]/.test(ref)) continue;
        copy(path.resolve(path.dirname(file), ref.split(/[?#]/)[0]));
      }
    }
  };
  for (const page of pages.split(',')) {
    const file = path.join(src, page);
    let html = fs.readFileSync(file, 'utf8');
    for (const [pattern, replacement] of RULES) html = html.replace(pattern, replacement);
    // Root-absolute references (a site built for the root of its host): under the template's folder.
    html = html.replace(/((?:src|href)\s*=\s*")\/(?!\/|element-templates\/)/g, `$1${BASE}/${name}/`);
    for (const [, ref] of [...html.matchAll(LOCAL_REF), ...html.matchAll(CSS_URL)]) {
      if (!isLocal(ref) || /\.html?($|[?#])/.test(ref) || ref.endsWith('/')) continue;
      const clean = ref.split(/[?#]/)[0];
      const target = clean.startsWith(`${BASE}/${name}/`)
        ? path.join(src, clean.slice(`${BASE}/${name}/`.length))
        : clean.startsWith(`${BASE}/`)
          ? null
          : path.resolve(path.dirname(file), clean);
      if (target) copy(target);
    }
    fs.mkdirSync(path.dirname(path.join(dst, page)), { recursive: true });
    fs.writeFileSync(path.join(dst, page), html);
  }
  // Bundles that load chunks by import() (Vite): every script beside a copied one.
  for (const rel of [...copied]) {
    if (!rel.endsWith('.js')) continue;
    const text = fs.readFileSync(path.join(src, rel), 'utf8');
    if (!/import\("\.\//.test(text)) continue;
    for (const f of fs.readdirSync(path.join(src, path.dirname(rel))))
      if (f.endsWith('.js')) copy(path.join(src, path.dirname(rel), f));
  }
  // Vite's preload helper puts chunk paths at the root of the host (`"/"+e`): under the folder.
  for (const f of copiedFiles) {
    if (!f.endsWith('.js')) continue;
    const text = fs.readFileSync(f, 'utf8');
    const fixed = text.replaceAll('function(e){return"/"+e}', `function(e){return"${BASE}/${name}/"+e}`);
    if (fixed !== text) fs.writeFileSync(f, fixed);
  }
  // Large photographs: re-encoded at most 1600 px wide, quality 72 (same name, same aspect).
  for (const f of copiedFiles) {
    if (/\.jpe?g$/i.test(f) && fs.statSync(f).size > 200_000) {
      const data = await sharp(f)
        .resize({ width: 1600, withoutEnlargement: true })
        .jpeg({ quality: 72, mozjpeg: true })
        .toBuffer();
      fs.writeFileSync(f, data);
    }
  }
  for (const lic of ['LICENSE', 'LICENSE.md', 'LICENSE.txt']) {
    for (const dir of [src, path.dirname(src)]) {
      if (fs.existsSync(path.join(dir, lic)) && !fs.existsSync(path.join(dst, 'LICENSE'))) {
        fs.copyFileSync(path.join(dir, lic), path.join(dst, 'LICENSE'));
      }
    }
  }
}
fs.mkdirSync(path.join(out, '_placeholders'), { recursive: true });
for (const [name, svg] of placeholders) fs.writeFileSync(path.join(out, '_placeholders', name), svg);
