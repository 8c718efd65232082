import type { RawImage } from '../../../image/raw-image.ts';
import type { Rgba } from '../../css/css-color.ts';
import type { GradientColorStop, ParsedGradient } from '../../css/css-gradient.ts';
import type { Rect } from '../../scene-types.ts';

export type { RawImage };

export function createRaw(width: number, height: number): RawImage {
  return { data: Buffer.alloc(width * height * 4), width, height, channels: 4 };
}

/**
 * Coverage 0..1 of pixel (px, py) by a rounded rectangle, anti-aliased over one pixel (signed
 * distance of the pixel centre to the shape).
 */
export function roundedRectCoverage(px: number, py: number, r: Rect, radius: number): number {
  const hx = r.width / 2;
  const hy = r.height / 2;
  const qx = Math.abs(px + 0.5 - (r.x + hx)) - (hx - radius);
  const qy = Math.abs(py + 0.5 - (r.y + hy)) - (hy - radius);
  const outside = Math.hypot(Math.max(qx, 0), Math.max(qy, 0));
  const d = outside + Math.min(Math.max(qx, qy), 0) - radius;
  return d <= -0.5 ? 1 : d >= 0.5 ? 0 : 0.5 - d;
}

/** Source-over of one straight-alpha colour with `alpha` (0..1) onto pixel `i` of `dst`. */
export function blendPixel(dst: Buffer, i: number, r: number, g: number, b: number, alpha: number): void {
  if (alpha <= 0) return;
  if (dst[i + 3] === 255 && alpha < 1) {
    // Opaque destination (the common case): a plain lerp, alpha stays 255.
    const k = 1 - alpha;
    dst[i] = r * alpha + (dst[i] as number) * k;
    dst[i + 1] = g * alpha + (dst[i + 1] as number) * k;
    dst[i + 2] = b * alpha + (dst[i + 2] as number) * k;
    return;
  }
  const da = (dst[i + 3] as number) / 255;
  if (alpha >= 1 || da === 0) {
    dst[i] = r;
    dst[i + 1] = g;
    dst[i + 2] = b;
    dst[i + 3] = Math.round(alpha * 255);
    if (alpha >= 1) dst[i + 3] = 255;
    return;
  }
  const oa = alpha + da * (1 - alpha);
  const k = (da * (1 - alpha)) / oa;
  const s = alpha / oa;
  dst[i] = r * s + (dst[i] as number) * k;
  dst[i + 1] = g * s + (dst[i + 1] as number) * k;
  dst[i + 2] = b * s + (dst[i + 2] as number) * k;
  dst[i + 3] = oa * 255;
}

/** Pixel bounds of a rect clipped to the image. */
export function clip(img: { width: number; height: number }, r: Rect) {
  return {
    x0: Math.max(0, Math.floor(r.x)),
    y0: Math.max(0, Math.floor(r.y)),
    x1: Math.min(img.width, Math.ceil(r.x + r.width)),
    y1: Math.min(img.height, Math.ceil(r.y + r.height)),
  };
}

/**
 * Fills a rounded rect, optionally with a hole (`inner`, its own radius) to draw bands. `paint`
 * may supply a per-pixel colour (glass); otherwise `color`.
 */
export function fillRoundedRect(
  img: RawImage,
  r: Rect,
  radius: number,
  color: Rgba,
  hole?: { rect: Rect; radius: number },
  paint?: (i: number) => [number, number, number],
): void {
  const { x0, y0, x1, y1 } = clip(img, r);
  const edge = Math.ceil(radius) + 1;
  for (let y = y0; y < y1; y++) {
    const nearY = y < r.y + edge || y >= r.y + r.height - edge;
    for (let x = x0; x < x1; x++) {
      const nearX = x < r.x + edge || x >= r.x + r.width - edge;
      let cov = nearX || nearY ? roundedRectCoverage(x, y, r, radius) : 1;
      if (cov > 0 && hole) cov -= roundedRectCoverage(x, y, hole.rect, hole.radius) * cov;
      if (cov <= 0) continue;
      const i = (y * img.width + x) * 4;
      if (paint) {
        const [pr, pg, pb] = paint(i);
        blendPixel(img.data, i, pr, pg, pb, cov * color.a);
      } else blendPixel(img.data, i, color.r, color.g, color.b, cov * color.a);
    }
  }
}

/** 1024 premultiplied colours along the stops (CSS interpolates gradients premultiplied). */
function stopTable(stops: GradientColorStop[]): Float32Array {
  const n = 1024;
  const lut = new Float32Array(n * 4);
  for (let k = 0; k < n; k++) {
    const t = k / (n - 1);
    let j = 0;
    while (j < stops.length - 1 && (stops[j + 1]?.offset ?? 1) < t) j++;
    const a = stops[j] as GradientColorStop;
    const b = stops[Math.min(j + 1, stops.length - 1)] as GradientColorStop;
    const span = b.offset - a.offset;
    const u = t <= a.offset ? 0 : t >= b.offset ? 1 : span > 0 ? (t - a.offset) / span : 1;
    const pa = a.color.a * (1 - u) + b.color.a * u;
    lut[k * 4] = a.color.r * a.color.a * (1 - u) + b.color.r * b.color.a * u;
    lut[k * 4 + 1] = a.color.g * a.color.a * (1 - u) + b.color.g * b.color.a * u;
    lut[k * 4 + 2] = a.color.b * a.color.a * (1 - u) + b.color.b * b.color.a * u;
    lut[k * 4 + 3] = pa;
  }
  return lut;
}

/** Position 0..1 along a gradient for each pixel, per CSS Images 3/4 geometry. */
function gradientParam(g: ParsedGradient, w: number, h: number): (x: number, y: number) => number {
  if (g.kind === 'linear') {
    let deg = g.angle;
    if (g.corner) {
      // "Magic corners": the line is perpendicular to the diagonal through the other two corners.
      const a = (Math.atan2(w, h) * 180) / Math.PI;
      deg = g.corner.y < 0 ? (g.corner.x > 0 ? 90 - a : 270 + a) : g.corner.x > 0 ? 90 + a : 270 - a;
    }
    const rad = (deg * Math.PI) / 180;
    const dx = Math.sin(rad);
    const dy = -Math.cos(rad);
    const len = Math.abs(w * dx) + Math.abs(h * dy);
    return (x, y) => ((x - w / 2) * dx + (y - h / 2) * dy) / len + 0.5;
  }
  const cx = g.center.x * w;
  const cy = g.center.y * h;
  if (g.kind === 'conic') {
    const from = (g.from * Math.PI) / 180;
    return (x, y) => {
      const a = Math.atan2(x - cx, -(y - cy)) - from;
      return (((a / (2 * Math.PI)) % 1) + 1) % 1;
    };
  }
  const sides = [cx, w - cx, cy, h - cy].map(Math.abs) as [number, number, number, number];
  const corners = [
    Math.hypot(cx, cy),
    Math.hypot(w - cx, cy),
    Math.hypot(cx, h - cy),
    Math.hypot(w - cx, h - cy),
  ];
  let rx: number;
  let ry: number;
  const closestX = Math.min(sides[0], sides[1]);
  const closestY = Math.min(sides[2], sides[3]);
  const farX = Math.max(sides[0], sides[1]);
  const farY = Math.max(sides[2], sides[3]);
  if (g.extent === 'closest-side') [rx, ry] = [closestX, closestY];
  else if (g.extent === 'farthest-side') [rx, ry] = [farX, farY];
  else {
    const c = g.extent === 'closest-corner' ? Math.min(...corners) : Math.max(...corners);
    const [sx, sy] = g.extent === 'closest-corner' ? [closestX, closestY] : [farX, farY];
    // Ellipse through the corner with the sides' aspect ratio (circle: radius = distance).
    [rx, ry] = sx > 0 && sy > 0 ? [sx * Math.SQRT2, sy * Math.SQRT2] : [c, c];
    if (g.shape === 'circle') [rx, ry] = [c, c];
  }
  if (g.shape === 'circle' && g.extent.endsWith('side'))
    rx = ry = g.extent === 'closest-side' ? Math.min(rx, ry) : Math.max(rx, ry);
  rx = Math.max(rx, 1e-6);
  ry = Math.max(ry, 1e-6);
  return (x, y) => Math.hypot((x - cx) / rx, (y - cy) / ry);
}

/**
 * Paints a gradient into a new w x h image, with a tiny ordered dither so wide, soft gradients
 * do not band once encoded to 8 bits.
 */
export function paintGradient(g: ParsedGradient, width: number, height: number): RawImage {
  const img = createRaw(width, height);
  const lut = stopTable(g.stops);
  const at = gradientParam(g, width, height);
  const d = img.data;
  const bayer = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = Math.min(1, Math.max(0, at(x + 0.5, y + 0.5)));
      const k = Math.round(t * 1023) * 4;
      const a = lut[k + 3] as number;
      const i = (y * width + x) * 4;
      const noise = ((bayer[(y & 3) * 4 + (x & 3)] as number) + 0.5) / 16 - 0.5;
      if (a <= 0) continue;
      d[i] = (lut[k] as number) / a + noise;
      d[i + 1] = (lut[k + 1] as number) / a + noise;
      d[i + 2] = (lut[k + 2] as number) / a + noise;
      d[i + 3] = a * 255;
    }
  }
  return img;
}
