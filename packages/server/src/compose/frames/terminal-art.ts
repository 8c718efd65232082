import { tabTitle } from './browser-chrome.ts';
import { hex, mixRgba, shade } from './device-finish.ts';
import type { FrameArt, FrameArtInput, FrameLabel } from './frame-art.ts';
import { TERMINAL_CHROME } from './frame-catalogue.ts';
import { insetRect, num, roundedRectPath } from './svg-shapes.ts';
import { labelWidth } from './system-bar.ts';

const TRAFFIC_LIGHTS = ['#FF5F57', '#FEBC2E', '#28C840'] as const;
const TITLE = { size: 13, weight: 500 };

/** The terminal's colours: `dark` and `light` are the usual themes; any other colour tints it. */
function terminalPalette(finish: FrameArtInput['finish']) {
  if (finish.named && finish.name === 'light') {
    return {
      bar: '#E8E8E8',
      window: '#FFFFFF',
      text: '#3A3A3A',
      line: 'rgba(0,0,0,0.12)',
      outline: 'rgba(0,0,0,0.18)',
    };
  }
  if (finish.named && finish.name === 'dark') {
    return {
      bar: '#2B2B2D',
      window: '#161618',
      text: '#C9C9CC',
      line: 'rgba(0,0,0,0.6)',
      outline: 'rgba(255,255,255,0.14)',
    };
  }
  const c = finish.color;
  const light = finish.tone === 'light';
  return {
    bar: hex(c),
    window: light ? hex(mixRgba(c, { r: 255, g: 255, b: 255, a: 1 }, 0.6)) : shade(c, -0.3),
    text: light ? '#3A3A3A' : '#D8D8DB',
    line: light ? 'rgba(0,0,0,0.12)' : 'rgba(0,0,0,0.6)',
    outline: light ? 'rgba(0,0,0,0.18)' : 'rgba(255,255,255,0.14)',
  };
}

/**
 * A terminal window: a title bar with traffic lights and the page's title centred on it, over
 * the page; a hairline under the bar and around the window.
 */
export function terminalArt({ layout, finish, hole, holeRadii, page, measure }: FrameArtInput): FrameArt {
  const p = terminalPalette(finish);
  const { rect: w, radius } = layout.body;
  const { bar } = TERMINAL_CHROME;
  const W = w.width;
  const cy = bar / 2;
  const holePath = roundedRectPath(hole, holeRadii);
  const title = tabTitle(page);
  const room = Math.max(0, W - 2 * 84);
  const textW = Math.min(room, labelWidth(measure, title, TITLE.weight, TITLE.size) + TITLE.size * 0.5);
  const body = [
    `<path d="${roundedRectPath(w, radius)}${holePath}" fill-rule="evenodd" fill="${p.window}"/>`,
    `<path d="${roundedRectPath({ x: 0, y: 0, width: W, height: bar }, [radius, radius, 0, 0])}" fill="${p.bar}"/>`,
    ...TRAFFIC_LIGHTS.map((fill, i) => `<circle cx="${18 + i * 20}" cy="${cy}" r="6" fill="${fill}"/>`),
    `<rect x="0" y="${bar - 0.5}" width="${num(W)}" height="1" fill="${p.line}"/>`,
    `<path d="${roundedRectPath(insetRect(w, 0.5), radius - 0.5)}" fill="none" stroke="${p.outline}" stroke-width="1"/>`,
  ].join('');
  const labels: FrameLabel[] =
    textW > 24
      ? [
          {
            text: title,
            box: { x: (W - textW) / 2, y: cy - 9, width: textW, height: 18 },
            ...TITLE,
            color: p.text,
          },
        ]
      : [];
  return { defs: '', body, labels };
}
