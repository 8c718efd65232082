import { domainToUnicode } from 'node:url';
import { type DeviceFinish, hex, mixRgba, shade } from './device-finish.ts';
import type { PageInfo } from './frame-art.ts';

/** Colours of a browser window's chrome. */
export interface ChromePalette {
  strip: string;
  toolbar: string;
  field: string;
  text: string;
  muted: string;
  separator: string;
  outline: string;
}

const WHITE = { r: 255, g: 255, b: 255, a: 1 };

/**
 * The chrome colours for a finish: `light` and `dark` are the familiar default themes; any
 * other colour tints the tab strip and derives the toolbar and address field from it.
 */
export function chromePalette(finish: DeviceFinish): ChromePalette {
  if (finish.named && finish.name === 'light') {
    return {
      strip: '#DEE1E6',
      toolbar: '#FFFFFF',
      field: '#F1F3F4',
      text: '#1F1F1F',
      muted: '#5F6368',
      separator: '#D3D6DB',
      outline: 'rgba(0,0,0,0.16)',
    };
  }
  if (finish.named && finish.name === 'dark') {
    return {
      strip: '#1F2023',
      toolbar: '#35363A',
      field: '#202124',
      text: '#E8EAED',
      muted: '#9AA0A6',
      separator: '#4A4C50',
      outline: 'rgba(255,255,255,0.16)',
    };
  }
  const c = finish.color;
  const light = finish.tone === 'light';
  return {
    strip: hex(c),
    toolbar: light ? hex(mixRgba(c, WHITE, 0.72)) : shade(c, 0.14),
    field: light ? hex(mixRgba(c, WHITE, 0.4)) : shade(c, -0.3),
    text: light ? '#1F1F1F' : '#F1F3F4',
    muted: light ? '#4B5058' : '#B4B9C0',
    separator: light ? shade(c, -0.12) : shade(c, 0.25),
    outline: light ? 'rgba(0,0,0,0.16)' : 'rgba(255,255,255,0.16)',
  };
}

/**
 * Percent-escapes of non-ASCII characters (UTF-8 bytes 0x80 and up) decoded, as a browser shows a
 * path: `/ダッシュボード`, not `/%E3%83%80...`. ASCII escapes (`%20`, `%2F`) stay as they are.
 */
function readablePath(path: string): string {
  return path.replace(/(?:%[89a-f][0-9a-f])+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * The address as a browser shows it unfocused: no scheme, no `www.`, no lone trailing slash,
 * an internationalised domain in its own script (`例え.jp`, not `xn--r8jz45g.jp`).
 */
export function displayUrl(url: string | null): string {
  if (!url) return '';
  try {
    const u = new URL(url);
    const host = (domainToUnicode(u.hostname) || u.hostname).replace(/^www\./, '');
    const rest = readablePath(`${u.pathname === '/' ? '' : u.pathname}${u.search}`);
    return `${host}${u.port ? `:${u.port}` : ''}${rest}`;
  } catch {
    return url.replace(/^[a-z]+:\/\//i, '');
  }
}

/** The tab's text: the page title, or the host when the page has none. */
export function tabTitle(page: PageInfo): string {
  const title = page.title?.trim();
  if (title) return title;
  return displayUrl(page.url).split('/')[0] || 'New Tab';
}

/** A back, forward or reload glyph centred at (x, y), stroked in `color`. */
export function navIcon(kind: 'back' | 'forward' | 'reload', x: number, y: number, color: string): string {
  const stroke = `fill="none" stroke="${color}" stroke-width="1.7" stroke-linecap="round" stroke-linejoin="round"`;
  if (kind === 'back')
    return `<path d="M${x + 6},${y}H${x - 6}M${x - 1},${y - 5}L${x - 6},${y}L${x - 1},${y + 5}" ${stroke}/>`;
  if (kind === 'forward')
    return `<path d="M${x - 6},${y}H${x + 6}M${x + 1},${y - 5}L${x + 6},${y}L${x + 1},${y + 5}" ${stroke}/>`;
  return `<path d="M${x + 5.5},${y - 2}A6,6 0 1 0 ${x + 5.2},${y + 3}" ${stroke}/><path d="M${x + 6},${y - 7}V${y - 1.5}H${x + 0.5}" ${stroke}/>`;
}

/** A closed padlock centred at (x, y). */
export function lockIcon(x: number, y: number, color: string): string {
  return `<rect x="${x - 4.5}" y="${y - 1}" width="9" height="7" rx="1.5" fill="${color}"/><path d="M${x - 2.8},${y - 1}V${y - 3.2}A2.8,2.8 0 0 1 ${x + 2.8},${y - 3.2}V${y - 1}" fill="none" stroke="${color}" stroke-width="1.5"/>`;
}

/** A generic globe favicon centred at (x, y). */
export function globeIcon(x: number, y: number, color: string): string {
  const s = `fill="none" stroke="${color}" stroke-width="1.2"`;
  return `<circle cx="${x}" cy="${y}" r="6.5" ${s}/><ellipse cx="${x}" cy="${y}" rx="2.8" ry="6.5" ${s}/><path d="M${x - 6.5},${y}H${x + 6.5}" ${s}/>`;
}

/** A small "x" centred at (x, y). */
export function closeGlyph(x: number, y: number, size: number, color: string, width = 1.3): string {
  const h = size / 2;
  return `<path d="M${x - h},${y - h}L${x + h},${y + h}M${x + h},${y - h}L${x - h},${y + h}" fill="none" stroke="${color}" stroke-width="${width}" stroke-linecap="round"/>`;
}
