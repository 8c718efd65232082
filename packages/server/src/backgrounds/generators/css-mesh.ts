import { cssRadialGradient, svgDocument } from '../svg-markup.ts';
import type { RenderFrame, RenderPlan } from './generator-types.ts';

/** One colour spot of a CSS mesh: `radial-gradient(at x% y%, color 0px, transparent 50%)`. */
export interface CssMeshSpot {
  x: number;
  y: number;
  color: string;
}

/**
 * The layered-radial-gradient "mesh" popular in CSS: a base colour under spots that fade to
 * transparent halfway to the farthest corner. `css` reproduces the render exactly.
 */
export interface CssMeshConfig {
  generator: 'css-mesh';
  base: string;
  spots: CssMeshSpot[];
  css: string;
}

export function cssMeshCss(base: string, spots: CssMeshSpot[]): string {
  const layers = spots.map((s) => `radial-gradient(at ${s.x}% ${s.y}%, ${s.color} 0px, transparent 50%)`);
  return `background-color: ${base}; background-image: ${layers.join(', ')};`;
}

export function planCssMesh(config: CssMeshConfig, frame: RenderFrame): RenderPlan {
  const { width, height } = frame;
  const defs: string[] = [];
  const body = [`<rect width="100%" height="100%" fill="${config.base}"/>`];
  // The first CSS layer is painted on top, so draw them in reverse.
  [...config.spots].reverse().forEach((spot, i) => {
    defs.push(
      cssRadialGradient(`s${i}`, { x: (spot.x / 100) * width, y: (spot.y / 100) * height }, width, height, [
        { color: spot.color, offset: 0, opacity: 1 },
        { color: spot.color, offset: 0.5, opacity: 0 },
      ]),
    );
    body.push(`<rect width="100%" height="100%" fill="url(#s${i})"/>`);
  });
  return { svg: svgDocument(width, height, defs, body) };
}
