import type { AuroraConfig } from './generators/aurora.ts';
import { planAurora } from './generators/aurora.ts';
import type { BokehConfig } from './generators/bokeh.ts';
import { planBokeh } from './generators/bokeh.ts';
import type { CssMeshConfig } from './generators/css-mesh.ts';
import { planCssMesh } from './generators/css-mesh.ts';
import type { CssPatternConfig } from './generators/css-pattern.ts';
import { planCssPattern } from './generators/css-pattern.ts';
import type { FractalGlassConfig } from './generators/fractal-glass.ts';
import { planFractalGlass } from './generators/fractal-glass.ts';
import type { RenderFrame, RenderPlan } from './generators/generator-types.ts';
import type { GeometricConfig } from './generators/geometric.ts';
import { planGeometric } from './generators/geometric.ts';
import type { GrainyGradientConfig } from './generators/grainy-gradient.ts';
import { planGrainyGradient } from './generators/grainy-gradient.ts';
import type { MeshGradientConfig } from './generators/mesh-gradient.ts';
import { planMeshGradient } from './generators/mesh-gradient.ts';
import type { LinearGradientConfig, RadialGradientConfig } from './generators/pure-gradient.ts';
import { planLinearGradient, planRadialGradient } from './generators/pure-gradient.ts';
import type { TopographicConfig } from './generators/topographic.ts';
import { planTopographic } from './generators/topographic.ts';
import type { WavesConfig } from './generators/waves.ts';
import { planWaves } from './generators/waves.ts';

/**
 * The parameters of one asset (its `config`): which generator draws it and with what. The
 * config alone reproduces the asset at any size.
 */
export type BackgroundConfig =
  | MeshGradientConfig
  | FractalGlassConfig
  | AuroraConfig
  | WavesConfig
  | TopographicConfig
  | BokehConfig
  | GrainyGradientConfig
  | GeometricConfig
  | LinearGradientConfig
  | RadialGradientConfig
  | CssPatternConfig
  | CssMeshConfig;

export type GeneratorName = BackgroundConfig['generator'];

/** The SVG (and grain) that draws `config` on a canvas of exactly `frame`'s size. */
export function planBackground(config: BackgroundConfig, frame: RenderFrame): RenderPlan {
  switch (config.generator) {
    case 'mesh-gradient':
      return planMeshGradient(config, frame);
    case 'fractal-glass':
      return planFractalGlass(config, frame);
    case 'aurora':
      return planAurora(config, frame);
    case 'waves':
      return planWaves(config, frame);
    case 'topographic':
      return planTopographic(config, frame);
    case 'bokeh':
      return planBokeh(config, frame);
    case 'grainy-gradient':
      return planGrainyGradient(config, frame);
    case 'geometric':
      return planGeometric(config, frame);
    case 'linear-gradient':
      return planLinearGradient(config, frame);
    case 'radial-gradient':
      return planRadialGradient(config, frame);
    case 'css-pattern':
      return planCssPattern(config, frame);
    case 'css-mesh':
      return planCssMesh(config, frame);
  }
}
