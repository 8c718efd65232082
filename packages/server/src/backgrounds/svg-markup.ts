/** Small builders for the SVG documents the generators hand to resvg. */

/** A number for SVG attributes: at most two decimals, no exponent. */
export function num(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** A whole SVG document of exactly `width` x `height` user units (= output pixels). */
export function svgDocument(width: number, height: number, defs: string[], body: string[]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><defs>${defs.join('')}</defs>${body.join('')}</svg>`;
}

/** A soft, blurred-looking ellipse of colour: a radial gradient with a smooth Gaussian-like falloff. */
export interface SoftBlob {
  cx: number;
  cy: number;
  rx: number;
  ry: number;
  /** Degrees. */
  rotate: number;
  color: string;
  opacity: number;
}

const FALLOFF: readonly [number, number][] = [
  [0, 1],
  [0.2, 0.88],
  [0.4, 0.6],
  [0.6, 0.32],
  [0.8, 0.11],
  [1, 0],
];

/** The transform placing a unit circle (r = 1 at the origin) on the blob's ellipse. */
export function blobTransform(blob: SoftBlob): string {
  return `translate(${num(blob.cx)} ${num(blob.cy)}) rotate(${num(blob.rotate)}) scale(${num(blob.rx)} ${num(blob.ry)})`;
}

/**
 * The gradient definition of a blob. `extraTransform` is prepended (applied after the blob's
 * own placement), which is how fractal glass refracts the same blob in every flute.
 */
export function softBlobGradient(id: string, blob: SoftBlob, extraTransform = ''): string {
  const stops = FALLOFF.map(
    ([at, a]) =>
      `<stop offset="${at}" stop-color="${blob.color}" stop-opacity="${Math.round(a * blob.opacity * 1000) / 1000}"/>`,
  ).join('');
  return `<radialGradient id="${id}" gradientUnits="userSpaceOnUse" cx="0" cy="0" r="1" gradientTransform="${extraTransform} ${blobTransform(blob)}">${stops}</radialGradient>`;
}

/** A stop list for `linearGradient` / `radialGradient` from colours and 0..1 offsets. */
export function gradientStops(stops: readonly { color: string; offset: number; opacity?: number }[]): string {
  return stops
    .map(
      (s) =>
        `<stop offset="${num(s.offset)}" stop-color="${s.color}"${s.opacity === undefined ? '' : ` stop-opacity="${num(s.opacity)}"`}/>`,
    )
    .join('');
}

/**
 * The end points of a CSS `linear-gradient(<angle>deg, ...)` on a `width` x `height` box, so the
 * SVG and the CSS paint the same pixels.
 */
export function cssLinearGradientLine(angleDeg: number, width: number, height: number) {
  const a = (angleDeg * Math.PI) / 180;
  const dx = Math.sin(a);
  const dy = -Math.cos(a);
  const half = (Math.abs(width * dx) + Math.abs(height * dy)) / 2;
  return {
    x1: width / 2 - dx * half,
    y1: height / 2 - dy * half,
    x2: width / 2 + dx * half,
    y2: height / 2 + dy * half,
  };
}

/** A `linearGradient` element following CSS angle semantics over the whole canvas. */
export function cssLinearGradient(
  id: string,
  angleDeg: number,
  width: number,
  height: number,
  stops: readonly { color: string; offset: number; opacity?: number }[],
): string {
  const line = cssLinearGradientLine(angleDeg, width, height);
  return `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${num(line.x1)}" y1="${num(line.y1)}" x2="${num(line.x2)}" y2="${num(line.y2)}">${gradientStops(stops)}</linearGradient>`;
}

/**
 * A CSS `radial-gradient(ellipse farthest-corner at x y, ...)` as an SVG gradient over the canvas:
 * the farthest-side ellipse scaled by sqrt(2) passes through the farthest corner.
 */
export function cssRadialGradient(
  id: string,
  at: { x: number; y: number },
  width: number,
  height: number,
  stops: readonly { color: string; offset: number; opacity?: number }[],
): string {
  const rx = Math.max(at.x, width - at.x) * Math.SQRT2;
  const ry = Math.max(at.y, height - at.y) * Math.SQRT2;
  return `<radialGradient id="${id}" gradientUnits="userSpaceOnUse" cx="0" cy="0" r="1" gradientTransform="translate(${num(at.x)} ${num(at.y)}) scale(${num(Math.max(rx, 1))} ${num(Math.max(ry, 1))})">${gradientStops(stops)}</radialGradient>`;
}

/** Half the width and height of the box bounding the blob's rotated ellipse. */
export function softBlobExtent(blob: SoftBlob): { hx: number; hy: number } {
  const a = (blob.rotate * Math.PI) / 180;
  return {
    hx: Math.hypot(blob.rx * Math.cos(a), blob.ry * Math.sin(a)),
    hy: Math.hypot(blob.rx * Math.sin(a), blob.ry * Math.cos(a)),
  };
}

/**
 * The blob's own ellipse filled with its gradient. The gradient is fully transparent from the
 * ellipse outwards, so painting only the ellipse (not the canvas, nor the blob's bounding box)
 * gives the same pixels for a fraction of the work: this keeps many-blob scenes fast at
 * 2560x1600. A path of two arcs rather than a transformed `<ellipse>`, because a transform on
 * the shape would also transform its `userSpaceOnUse` gradient.
 */
export function softBlobEllipse(blob: SoftBlob, fill: string): string {
  const a = (blob.rotate * Math.PI) / 180;
  const dx = blob.rx * Math.cos(a);
  const dy = blob.rx * Math.sin(a);
  const radii = `${num(blob.rx)} ${num(blob.ry)} ${num(blob.rotate)}`;
  const start = `${num(blob.cx + dx)} ${num(blob.cy + dy)}`;
  return `<path d="M${start}A${radii} 1 1 ${num(blob.cx - dx)} ${num(blob.cy - dy)}A${radii} 1 1 ${start}Z" fill="${fill}"/>`;
}
