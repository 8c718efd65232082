import { describe, expect, it } from 'vitest';
import { resolveStyle, type StyleRequest } from '../../../captures/resolve/resolve-style.ts';
import { parseCssGradient } from '../../css/css-gradient.ts';
import { buildScene } from '../../scene.ts';
import { gradientToCss, safeTextShadow } from './css.ts';
import type { BrowserFonts } from './fonts.ts';
import { buildSceneHtml, COMPOSE_CSP } from './scene-html.ts';

const fonts: BrowserFonts = {
  faceCss: (font) => [`@font-face{font-family:"${font.family}"}`],
  scriptFamilies: () => [],
  satoriBaselineShifts: () => [],
  metrics: () => ({ ascent: 0.97, descent: 0.24 }),
};
const doc = (r: StyleRequest, mode: 'composite' | 'inline' = 'composite') =>
  buildSceneHtml(buildScene(resolveStyle(r), { width: 1440, height: 900 }), {
    fonts,
    screenshot:
      mode === 'inline' ? { mode, url: 'data:image/png;base64,AAAA', width: 1440, height: 900 } : { mode },
  });

describe('buildSceneHtml', () => {
  it('escapes user text and carries the compose CSP', () => {
    const { html } = doc({ title: '<img src=http://127.0.0.1:9/canary>', badge: '"quoted" & <b>' });
    expect(html).toContain('&lt;img src=http://127.0.0.1:9/canary&gt;');
    expect(html).not.toMatch(/<img src=http/);
    expect(html).not.toContain('<b>');
    expect(html).toContain(`content="${COMPOSE_CSP.replaceAll("'", '&#39;')}"`);
  });

  it('rebuilds text shadows and gradients from parsed values, so CSS cannot be escaped', () => {
    expect(safeTextShadow('2px 2px red; } body { background: url(http://x)')).toBeNull();
    expect(safeTextShadow('2 4px 6px rgba(0,0,0,.5)')).toBe('2px 4px 6px rgba(0,0,0,0.5)');
    const { html } = doc({
      text_content: 'Hi',
      text_shadow: '1px 1px 2px red;}</style><script>x</script>',
      text_gradient: 'linear-gradient(90deg, #000, #fff)',
    });
    expect(html).not.toContain('<script>');
    expect(html).not.toMatch(/https?:/);
    expect(gradientToCss(parseCssGradient('linear-gradient(to top right, red, blue 40%)'))).toBe(
      'linear-gradient(to top right,rgba(255,0,0,1) 0%,rgba(0,0,255,1) 40%)',
    );
  });

  it('leaves the screenshot out in composite mode and puts the layers over it in an overlay region', () => {
    const plain = doc({});
    expect(plain.overlay).toBeNull();
    expect(plain.html).not.toContain('<img');
    const overlaid = doc({ title: 'Over', title_position: 'overlay-bottom', border: 'subtle' });
    const shot = buildScene(resolveStyle({}), { width: 1440, height: 900 }).screenshot.rect;
    expect(overlaid.overlay).toEqual({
      x: 0,
      y: overlaid.height - shot.height,
      width: shot.width,
      height: shot.height,
    });
    expect(doc({}, 'inline').html).toContain('src="data:image/png;base64,AAAA"');
  });

  it('sizes the page to the canvas in output pixels (dpr 2 doubles it)', () => {
    const one = doc({});
    const two = doc({ output: { dpr: 2 } });
    expect([two.width, two.height]).toEqual([one.width * 2, one.height * 2]);
  });
});
