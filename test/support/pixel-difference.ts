import sharp from 'sharp';

/**
 * How many pixels of two images of the same size differ by more than `threshold` in some channel
 * (Infinity when the sizes differ). For comparing two captures of one page.
 */
export async function differingPixels(a: Buffer, b: Buffer, threshold: number): Promise<number> {
  const [left, right] = await Promise.all(
    [a, b].map((png) => sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })),
  );
  if (!left || !right) return Number.POSITIVE_INFINITY;
  if (left.info.width !== right.info.width || left.info.height !== right.info.height)
    return Number.POSITIVE_INFINITY;
  let over = 0;
  const channels = left.info.channels;
  for (let i = 0; i < left.data.length; i += channels) {
    for (let c = 0; c < channels; c += 1) {
      if (Math.abs((left.data[i + c] as number) - (right.data[i + c] as number)) > threshold) {
        over += 1;
        break;
      }
    }
  }
  return over;
}
