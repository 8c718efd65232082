import sharp, { type Sharp } from 'sharp';
import type { RawPixels } from '../../image/raw-image.ts';
import type { Rgba } from '../css/css-color.ts';
import type { SceneScreenshot } from '../scene-types.ts';

/** Source pixels kept around the crop on an enlarged axis: the bicubic kernel reaches 2. */
const MARGIN = 3;

type Raw = { data: Buffer; width: number; height: number; channels: number };

const raw = (img: Raw) => ({
  raw: { width: img.width, height: img.height, channels: img.channels as 3 | 4 },
});

async function run(p: Sharp): Promise<Raw> {
  const { data, info } = await p.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/**
 * The crop enlarged by `sx`, `sy` (>= 1) with pixel centres mapped onto pixel centres, as a CSS
 * scale does: sharp's `resize` anchors an enlargement at the corner instead, which moves the
 * content (scale - 1) / 2 px right and down, off the device screen it is meant to fill. The
 * affine samples `MARGIN` px of real neighbours beyond the crop (Chromium's scaled `<img>` does
 * too), edge pixels repeated where the capture ends, and its output is cut to the rect.
 */
async function enlarge(
  input: Raw,
  crop: { x: number; y: number; width: number; height: number },
  out: { width: number; height: number },
): Promise<Raw> {
  const sx = out.width / crop.width;
  const sy = out.height / crop.height;
  const mx = sx > 1 ? MARGIN : 0;
  const my = sy > 1 ? MARGIN : 0;
  const left = Math.max(0, crop.x - mx);
  const top = Math.max(0, crop.y - my);
  const right = Math.min(input.width, crop.x + crop.width + mx);
  const bottom = Math.min(input.height, crop.y + crop.height + my);
  const region = await run(
    sharp(input.data, raw(input))
      .extract({ left, top, width: right - left, height: bottom - top })
      .extend({
        left: left - (crop.x - mx),
        top: top - (crop.y - my),
        right: crop.x + crop.width + mx - right,
        bottom: crop.y + crop.height + my - bottom,
        extendWith: 'copy',
      }),
  );
  // An axis that shrinks goes through resize first (its reduction is centre-aligned already).
  const reduced =
    sx < 1 || sy < 1
      ? await run(
          sharp(region.data, raw(region)).resize(
            sx < 1 ? out.width : region.width,
            sy < 1 ? out.height : region.height,
            { fit: 'fill', kernel: 'lanczos3' },
          ),
        )
      : region;
  const ax = Math.max(1, sx);
  const ay = Math.max(1, sy);
  // Output pixel X (of the rect) samples source x with X + 0.5 = a (x + 0.5); the affine's source
  // is the padded region (x + margin) and its output starts `e` px before the rect.
  const ex = Math.ceil(ax * mx);
  const ey = Math.ceil(ay * my);
  const enlarged = await run(
    sharp(reduced.data, raw(reduced)).affine([ax, 0, 0, ay], {
      odx: ax * (0.5 - mx) - 0.5 + ex,
      ody: ay * (0.5 - my) - 0.5 + ey,
      interpolator: sharp.interpolators.bicubic,
    }),
  );
  return run(
    sharp(enlarged.data, raw(enlarged)).extract({ left: ex, top: ey, width: out.width, height: out.height }),
  );
}

/**
 * The capture cropped (frame_ratio) and resized to its rect, as RGBA. Both renderers use this
 * one function, so the screenshot's pixels are the same in both compose modes.
 */
export async function fittedScreenshot(input: RawPixels, s: SceneScreenshot): Promise<Buffer> {
  const { crop, rect } = s;
  const whole = crop.x === 0 && crop.y === 0 && crop.width === input.width && crop.height === input.height;
  if (whole && rect.width === input.width && rect.height === input.height && input.channels === 4)
    return input.data;
  if (rect.width > crop.width || rect.height > crop.height) {
    const fitted = await enlarge(input, crop, rect);
    return fitted.channels === 4
      ? fitted.data
      : sharp(fitted.data, raw(fitted)).ensureAlpha().raw().toBuffer();
  }
  let p = sharp(input.data, { raw: { width: input.width, height: input.height, channels: input.channels } });
  if (!whole) p = p.extract({ left: crop.x, top: crop.y, width: crop.width, height: crop.height });
  if (rect.width !== crop.width || rect.height !== crop.height)
    p = p.resize(rect.width, rect.height, { fit: 'fill', kernel: 'lanczos3' });
  return p.ensureAlpha().raw().toBuffer();
}

/**
 * Mean colour of a fitted screenshot's edge pixels (every 4th, RGBA rows of `w` px): the
 * `auto` inset mat, and in browser mode the fill under the screenshot's rounded corners.
 */
export function edgeColor(pixels: Buffer, w: number, h: number): Rgba {
  const sum = [0, 0, 0];
  let n = 0;
  const add = (x: number, y: number) => {
    const i = (y * w + x) * 4;
    for (let c = 0; c < 3; c++) sum[c] = (sum[c] as number) + (pixels[i + c] as number);
    n++;
  };
  for (let x = 0; x < w; x += 4) {
    add(x, 0);
    add(x, h - 1);
  }
  for (let y = 0; y < h; y += 4) {
    add(0, y);
    add(w - 1, y);
  }
  const [r, g, b] = sum.map((v) => Math.round(v / Math.max(1, n))) as [number, number, number];
  return { r, g, b, a: 1 };
}
