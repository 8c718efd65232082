import { cssLinearGradient, cssRadialGradient, svgDocument } from '../svg-markup.ts';
import type { RenderFrame, RenderPlan } from './generator-types.ts';

export interface GradientStopConfig {
  color: string;
  /** 0..100 (percent along the gradient line or ray). */
  position: number;
}

/** A CSS linear gradient; `css` is the exact `background` value and the render matches it. */
export interface LinearGradientConfig {
  generator: 'linear-gradient';
  angle: number;
  stops: GradientStopConfig[];
  css: string;
}

/** A CSS radial gradient (ellipse, farthest corner) centred at `at` (percent of the canvas). */
export interface RadialGradientConfig {
  generator: 'radial-gradient';
  at: { x: number; y: number };
  stops: GradientStopConfig[];
  css: string;
}

const stopList = (stops: GradientStopConfig[]) => stops.map((s) => `${s.color} ${s.position}%`).join(', ');

export function linearGradientCss(angle: number, stops: GradientStopConfig[]): string {
  return `linear-gradient(${angle}deg, ${stopList(stops)})`;
}

export function radialGradientCss(at: { x: number; y: number }, stops: GradientStopConfig[]): string {
  return `radial-gradient(ellipse at ${at.x}% ${at.y}%, ${stopList(stops)})`;
}

const svgStops = (stops: GradientStopConfig[]) =>
  stops.map((s) => ({ color: s.color, offset: s.position / 100 }));

export function planLinearGradient(config: LinearGradientConfig, frame: RenderFrame): RenderPlan {
  const defs = [cssLinearGradient('g', config.angle, frame.width, frame.height, svgStops(config.stops))];
  return {
    svg: svgDocument(frame.width, frame.height, defs, ['<rect width="100%" height="100%" fill="url(#g)"/>']),
  };
}

export function planRadialGradient(config: RadialGradientConfig, frame: RenderFrame): RenderPlan {
  const at = { x: (config.at.x / 100) * frame.width, y: (config.at.y / 100) * frame.height };
  const defs = [cssRadialGradient('g', at, frame.width, frame.height, svgStops(config.stops))];
  return {
    svg: svgDocument(frame.width, frame.height, defs, ['<rect width="100%" height="100%" fill="url(#g)"/>']),
  };
}
