import sharp from 'sharp';
import type { RawPixels } from '../../packages/server/src/image/raw-image.ts';

/**
 * A realistic-looking SaaS dashboard (nav bar, sidebar, stat cards, a chart, a table) drawn
 * from SVG, so image tests exercise real edges and colours without a browser.
 */
export async function fakeAppScreenshot(width = 1440, height = 900): Promise<RawPixels> {
  const sx = width / 1440;
  const card = (x: number, label: string, value: string, delta: string, color: string) => `
    <g transform="translate(${x},104)"><rect width="268" height="120" rx="12" fill="#fff" stroke="#E2E8F0"/>
    <text x="20" y="36" font-family="DejaVu Sans" font-size="14" fill="#64748B">${label}</text>
    <text x="20" y="76" font-family="DejaVu Sans" font-weight="bold" font-size="30" fill="#0F172A">${value}</text>
    <rect x="20" y="90" width="64" height="20" rx="10" fill="${color}" opacity="0.15"/>
    <text x="30" y="105" font-family="DejaVu Sans" font-size="12" fill="${color}">${delta}</text></g>`;
  const bars = Array.from({ length: 24 }, (_, i) => {
    const h = 40 + ((i * 37) % 150) + (i % 5) * 12;
    return `<rect x="${300 + i * 30}" y="${520 - h}" width="18" height="${h}" rx="4" fill="${i % 6 === 5 ? '#F59E0B' : '#6366F1'}" opacity="${0.55 + (i % 3) * 0.2}"/>`;
  }).join('');
  const rows = Array.from(
    { length: 5 },
    (_, i) => `
    <g transform="translate(1040,${330 + i * 52})"><circle cx="18" cy="18" r="14" fill="${['#F472B6', '#34D399', '#60A5FA', '#FBBF24', '#A78BFA'][i]}"/>
    <rect x="44" y="8" width="${120 - i * 9}" height="10" rx="5" fill="#334155"/><rect x="44" y="24" width="${80 + i * 7}" height="8" rx="4" fill="#CBD5E1"/>
    <rect x="290" y="10" width="48" height="16" rx="8" fill="#E0E7FF"/></g>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 1440 900" preserveAspectRatio="none">
    <rect width="1440" height="900" fill="#F8FAFC"/>
    <rect width="1440" height="64" fill="#FFFFFF"/><rect y="63" width="1440" height="1" fill="#E2E8F0"/>
    <circle cx="36" cy="32" r="14" fill="#6366F1"/><text x="60" y="39" font-family="DejaVu Sans" font-weight="bold" font-size="18" fill="#0F172A">Northwind</text>
    <rect x="480" y="16" width="480" height="32" rx="8" fill="#F1F5F9"/><text x="500" y="37" font-family="DejaVu Sans" font-size="13" fill="#94A3B8">Search projects, people, docs…</text>
    <circle cx="1396" cy="32" r="16" fill="#FDBA74"/><rect x="1290" y="18" width="80" height="28" rx="8" fill="#6366F1"/>
    <text x="1306" y="37" font-family="DejaVu Sans" font-size="13" fill="#fff">Upgrade</text>
    <rect y="64" width="240" height="836" fill="#0F172A"/>
    ${['Overview', 'Analytics', 'Customers', 'Billing', 'Settings'].map((t, i) => `${i === 0 ? '<rect x="12" y="92" width="216" height="36" rx="8" fill="#1E293B"/>' : ''}<rect x="28" y="${104 + i * 44}" width="12" height="12" rx="3" fill="${i === 0 ? '#818CF8' : '#475569'}"/><text x="52" y="${115 + i * 44}" font-family="DejaVu Sans" font-size="14" fill="${i === 0 ? '#F8FAFC' : '#94A3B8'}">${t}</text>`).join('')}
    <g transform="translate(20,0)">${card(260, 'Revenue', '$48,210', '+12.4%', '#16A34A')}${card(548, 'Active users', '9,482', '+3.1%', '#16A34A')}${card(836, 'Churn', '1.8%', '-0.4%', '#DC2626')}${card(1124, 'NPS', '62', '+5', '#16A34A')}</g>
    <rect x="280" y="248" width="740" height="300" rx="12" fill="#fff" stroke="#E2E8F0"/>
    <text x="300" y="280" font-family="DejaVu Sans" font-weight="bold" font-size="16" fill="#0F172A">Weekly signups</text>${bars}
    <rect x="1040" y="248" width="380" height="600" rx="12" fill="#fff" stroke="#E2E8F0"/>
    <text x="1060" y="280" font-family="DejaVu Sans" font-weight="bold" font-size="16" fill="#0F172A">Recent customers</text>${rows}
    <rect x="280" y="568" width="740" height="280" rx="12" fill="#fff" stroke="#E2E8F0"/>
    ${Array.from({ length: 5 }, (_, i) => `<rect x="300" y="${604 + i * 46}" width="700" height="1" fill="#F1F5F9"/><rect x="300" y="${618 + i * 46}" width="${160 - i * 14}" height="10" rx="5" fill="#475569"/><rect x="620" y="${618 + i * 46}" width="90" height="10" rx="5" fill="#CBD5E1"/><rect x="880" y="${614 + i * 46}" width="100" height="18" rx="9" fill="${i % 2 ? '#DCFCE7' : '#FEF3C7'}"/>`).join('')}
  </svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .resize(Math.round(1440 * sx), height)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 4 };
}

/**
 * A phone-shaped app screen (large title, a summary card, a list, a tab bar) as Safari lays it
 * out below the status bar (the device frame draws that bar), drawn at 402 x 812 design units
 * and scaled to `width` x `height`.
 */
export async function fakeMobileScreenshot(width = 402, height = 812): Promise<RawPixels> {
  const rows = Array.from(
    { length: 6 },
    (_, i) => `<g transform="translate(20,${392 + i * 64})">
      <circle cx="22" cy="22" r="20" fill="${['#F472B6', '#34D399', '#60A5FA', '#FBBF24', '#A78BFA', '#FB7185'][i]}"/>
      <rect x="56" y="10" width="${150 - i * 11}" height="11" rx="5" fill="#1E293B"/>
      <rect x="56" y="28" width="${100 + i * 9}" height="9" rx="4" fill="#94A3B8"/>
      <text x="362" y="28" text-anchor="end" font-family="DejaVu Sans" font-weight="bold" font-size="14" fill="#0F172A">$${(128 - i * 17).toFixed(2)}</text>
      <rect x="56" y="58" width="306" height="1" fill="#E2E8F0"/></g>`,
  ).join('');
  // The layout was drawn for the full 874-unit screen; the page starts 62 units down, below the bar.
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 402 812" preserveAspectRatio="none">
    <rect width="402" height="812" fill="#F8FAFC"/><g transform="translate(0,-62)">
    <text x="20" y="112" font-family="DejaVu Sans" font-weight="bold" font-size="32" fill="#0F172A">Wallet</text>
    <circle cx="362" cy="100" r="18" fill="#FDBA74"/>
    <rect x="20" y="136" width="362" height="190" rx="22" fill="#4F46E5"/>
    <circle cx="330" cy="170" r="90" fill="#6366F1" opacity="0.6"/>
    <text x="40" y="178" font-family="DejaVu Sans" font-size="14" fill="#C7D2FE">Total balance</text>
    <text x="40" y="222" font-family="DejaVu Sans" font-weight="bold" font-size="36" fill="#FFFFFF">$12,480.20</text>
    <rect x="40" y="262" width="120" height="40" rx="20" fill="#FFFFFF"/><text x="72" y="288" font-family="DejaVu Sans" font-weight="bold" font-size="14" fill="#4F46E5">Send</text>
    <rect x="172" y="262" width="120" height="40" rx="20" fill="#818CF8"/><text x="198" y="288" font-family="DejaVu Sans" font-weight="bold" font-size="14" fill="#FFFFFF">Request</text>
    <text x="20" y="372" font-family="DejaVu Sans" font-weight="bold" font-size="18" fill="#0F172A">Recent activity</text>
    ${rows}
    <rect y="790" width="402" height="84" fill="#FFFFFF"/><rect y="790" width="402" height="1" fill="#E2E8F0"/>
    ${[0, 1, 2, 3].map((i) => `<rect x="${38 + i * 96}" y="806" width="24" height="24" rx="7" fill="${i === 0 ? '#4F46E5' : '#CBD5E1'}"/>`).join('')}
    <rect x="134" y="858" width="134" height="5" rx="2.5" fill="#0F172A"/></g>
  </svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 4 };
}
