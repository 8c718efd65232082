// The offline rewrite of the imported templates (issue 33), run by import-templates.sh: every
// reference to a CDN or a remote image becomes a local copy, the rest of each page is left as
// published. test/element/templates/README.md lists each change.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const out = process.argv[2];
const BASE = '/element-templates';
const V = `${BASE}/_vendor`;
/** Pages kept per template (the others are removed: the evaluation loads only these). */
const PAGES = { 'startbootstrap-modern-business': ['index.html', 'pricing.html'] };

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

const RULES = [
  [
    /https:\/\/cdn\.jsdelivr\.net\/npm\/bootstrap@5\.2\.3\/dist\/js\/bootstrap\.bundle\.min\.js/g,
    `${V}/bootstrap@5.2.3/js/bootstrap.bundle.min.js`,
  ],
  [
    /https:\/\/use\.fontawesome\.com\/releases\/v6\.3\.0\/js\/all\.js/g,
    `${V}/fontawesome-free@6.3.0/js/all.min.js`,
  ],
  [
    /https:\/\/cdn\.jsdelivr\.net\/npm\/bootstrap-icons@1\.5\.0\/font\/bootstrap-icons\.css/g,
    `${V}/bootstrap-icons@1.5.0/font/bootstrap-icons.css`,
  ],
  [
    /https:\/\/cdnjs\.cloudflare\.com\/ajax\/libs\/Chart\.js\/2\.8\.0\/Chart\.min\.js/g,
    `${V}/chart.js@2.8.0/Chart.min.js`,
  ],
  [
    /https:\/\/cdn\.jsdelivr\.net\/npm\/simple-datatables@7\.1\.2\/dist\/umd\/simple-datatables\.min\.js/g,
    `${V}/simple-datatables@7.1.2/simple-datatables.js`,
  ],
  [
    /https:\/\/cdn\.jsdelivr\.net\/npm\/simple-datatables@7\.1\.2\/dist\/style\.min\.css/g,
    `${V}/simple-datatables@7.1.2/style.css`,
  ],
  [
    /https:\/\/cdnjs\.cloudflare\.com\/ajax\/libs\/SimpleLightbox\/2\.1\.0\/simpleLightbox\.min\.js/g,
    `${V}/simplelightbox@2.1.3/simple-lightbox.min.js`,
  ],
  [
    /https:\/\/cdnjs\.cloudflare\.com\/ajax\/libs\/SimpleLightbox\/2\.1\.0\/simpleLightbox\.min\.css/g,
    `${V}/simplelightbox@2.1.3/simple-lightbox.min.css`,
  ],
  [
    /https:\/\/cdnjs\.cloudflare\.com\/ajax\/libs\/simple-line-icons\/2\.5\.5\/css\/simple-line-icons\.min\.css/g,
    `${V}/simple-line-icons@2.5.5/css/simple-line-icons.css`,
  ],
  // Google Fonts (stylesheet and preconnect): removed, the pages fall back to their next font.
  [/[ \t]*<link[^>]*fonts\.(googleapis|gstatic)\.com[^>]*>\r?\n?/g, ''],
  // The StartBootstrap forms backend (a hosted script, not on npm): removed; the forms stay.
  [/[ \t]*<script src="https:\/\/cdn\.startbootstrap\.com\/sb-forms-latest\.js"><\/script>\r?\n?/g, ''],
  // Remote placeholder images: a local SVG of the same size, colours and label.
  [
    /https:\/\/dummyimage\.com\/(\d+)x(\d+)\/([0-9a-f]{6})\/([0-9a-f]{6})(\.jpg)?/g,
    (_m, w, h, bg, fg) => placeholder(w, h, bg, fg),
  ],
  [
    /https:\/\/source\.unsplash\.com\/[A-Za-z0-9_-]+\/(\d+)x(\d+)/g,
    (_m, w, h) => placeholder(w, h, 'adb5bd', '495057'),
  ],
  // Embedded Google map: an empty frame of the same size.
  [/src="https:\/\/maps\.google\.com\/[^"]*"/g, 'src="about:blank"'],
];

function rewrite(file) {
  const before = fs.readFileSync(file, 'utf8');
  let after = before;
  for (const [pattern, replacement] of RULES) after = after.replace(pattern, replacement);
  if (after !== before) fs.writeFileSync(file, after);
}

function walk(dir, visit) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, visit);
    else visit(full);
  }
}

for (const name of fs.readdirSync(out)) {
  if (!name.startsWith('startbootstrap-')) continue;
  const dir = path.join(out, name);
  const keep = PAGES[name] ?? ['index.html'];
  for (const f of fs.readdirSync(dir))
    if (f.endsWith('.html') && !keep.includes(f)) fs.rmSync(path.join(dir, f));
  const files = [];
  walk(dir, (f) => files.push(f));
  for (const f of files) {
    if (/\.(html|css)$/.test(f) && !f.includes(`${path.sep}vendor${path.sep}`)) rewrite(f);
    // Large photographs: re-encoded at most 1600 px wide, quality 72 (same name, same aspect).
    if (/\.jpe?g$/i.test(f) && fs.statSync(f).size > 200_000) {
      const data = await sharp(f)
        .resize({ width: 1600, withoutEnlargement: true })
        .jpeg({ quality: 72, mozjpeg: true })
        .toBuffer();
      fs.writeFileSync(f, data);
    }
  }
}
fs.mkdirSync(path.join(out, '_placeholders'), { recursive: true });
for (const [name, svg] of placeholders) fs.writeFileSync(path.join(out, '_placeholders', name), svg);
