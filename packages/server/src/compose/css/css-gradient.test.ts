import { describe, expect, it } from 'vitest';
import { parseCssColor } from './css-color.ts';
import { GradientSyntaxError, parseCssGradient } from './css-gradient.ts';

describe('parseCssColor', () => {
  it.each([
    ['#fff', { r: 255, g: 255, b: 255, a: 1 }],
    ['#11223380', { r: 17, g: 34, b: 51, a: 128 / 255 }],
    ['rgb(1 2 3 / 50%)', { r: 1, g: 2, b: 3, a: 0.5 }],
    ['rgba(1, 2, 3, 0.25)', { r: 1, g: 2, b: 3, a: 0.25 }],
    ['hsl(120, 100%, 50%)', { r: 0, g: 255, b: 0, a: 1 }],
    ['RebeccaPurple', { r: 102, g: 51, b: 153, a: 1 }],
  ])('%s', (css, rgba) => expect(parseCssColor(css)).toEqual(rgba));
  it('refuses non-colours', () => expect(parseCssColor('#12')).toBeNull());
});

describe('parseCssGradient', () => {
  it('reads linear angles, sides and fills missing stop positions', () => {
    const g = parseCssGradient('linear-gradient(to right, red, lime, blue)');
    expect(g).toMatchObject({ kind: 'linear', angle: 90 });
    expect(g.stops.map((s) => s.offset)).toEqual([0, 0.5, 1]);
    expect(parseCssGradient('linear-gradient(0.25turn, red, blue)')).toMatchObject({ angle: 90 });
  });
  it('reads radial shape, extent and position', () => {
    expect(parseCssGradient('radial-gradient(circle closest-side at left top, red, blue)')).toMatchObject({
      kind: 'radial',
      shape: 'circle',
      extent: 'closest-side',
      center: { x: 0, y: 0 },
    });
  });
  it('reads conic from/at and angle stops', () => {
    const g = parseCssGradient('conic-gradient(from 45deg at 25% 75%, red 0deg, blue 180deg)');
    expect(g).toMatchObject({ kind: 'conic', from: 45, center: { x: 0.25, y: 0.75 } });
    expect(g.stops[1]?.offset).toBe(0.5);
  });
  it.each([
    'linear-gradient(red)',
    'linear-gradient(45deg, red 10px, blue)',
    'repeating-linear-gradient(red, blue)',
    'url(x.png)',
  ])('rejects %s', (css) => expect(() => parseCssGradient(css)).toThrow(GradientSyntaxError));
});
