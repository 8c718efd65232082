/** The size a background is rendered at. */
export interface RenderFrame {
  width: number;
  height: number;
  /**
   * Pixels per CSS pixel, for assets whose geometry is in CSS pixels (css-backgrounds): 2 for a
   * `dpr: 2` capture. Image-like assets cover the frame whatever the scale.
   */
  scale: number;
}

/** Film grain added after rasterising, at one grain per output pixel (so it stays crisp). */
export interface GrainSpec {
  /** 0..1: strength of the grain (0.03 subtle, 0.12 strong). */
  amount: number;
  seed: number;
}

/** What a generator produces for one frame: an SVG document of exactly the frame size, plus grain. */
export interface RenderPlan {
  svg: string;
  grain?: GrainSpec;
  /**
   * The scene has crisp colour edges (shapes, strokes, tiles). WebP then keeps full-resolution
   * chroma at those edges (sharp YUV), which costs most of the encode; soft colour fields look
   * the same without it, so they leave this unset and encode several times faster.
   */
  crispEdges?: boolean;
}

/** Palette colours as stored in an asset's `config` (so the config alone reproduces the asset). */
export interface PaletteColors {
  base: string;
  colors: string[];
}
