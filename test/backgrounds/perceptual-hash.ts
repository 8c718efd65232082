import sharp from 'sharp';

/** A perceptual fingerprint: a 64-bit difference hash of luminance plus a tiny colour thumbnail. */
export interface Fingerprint {
  dhash: bigint;
  /** dHash of a 1:1 centre crop, so fine repeating patterns are told apart too. */
  detail: bigint;
  /** 8x5 RGB, for telling same-structure assets of different colours apart. */
  colors: Uint8Array;
}

function dhashOf(grey: Buffer): bigint {
  let hash = 0n;
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      hash = (hash << 1n) | ((grey[y * 9 + x] as number) > (grey[y * 9 + x + 1] as number) ? 1n : 0n);
    }
  }
  return hash;
}

export async function fingerprint(image: Buffer): Promise<Fingerprint> {
  const meta = await sharp(image).metadata();
  const dhash = dhashOf(await sharp(image).greyscale().resize(9, 8, { fit: 'fill' }).raw().toBuffer());
  const crop = {
    left: Math.floor((meta.width ?? 36) / 2) - 18,
    top: Math.floor((meta.height ?? 32) / 2) - 16,
    width: 36,
    height: 32,
  };
  const detail = dhashOf(
    await sharp(image).extract(crop).greyscale().resize(9, 8, { fit: 'fill' }).raw().toBuffer(),
  );
  const colors = new Uint8Array(
    await sharp(image).removeAlpha().resize(8, 5, { fit: 'fill' }).raw().toBuffer(),
  );
  return { dhash, detail, colors };
}

export function hamming(a: bigint, b: bigint): number {
  let x = a ^ b;
  let n = 0;
  while (x) {
    n += Number(x & 1n);
    x >>= 1n;
  }
  return n;
}

/** Root-mean-square difference of the colour thumbnails, 0..255. */
export function colorDistance(a: Fingerprint, b: Fingerprint): number {
  let sum = 0;
  for (let i = 0; i < a.colors.length; i++) sum += ((a.colors[i] as number) - (b.colors[i] as number)) ** 2;
  return Math.sqrt(sum / a.colors.length);
}

/**
 * Near-duplicates: the same overall structure (dHash within 8 bits), the same fine detail
 * (centre-crop dHash within 8 bits) and nearly the same colours.
 */
export function nearDuplicate(a: Fingerprint, b: Fingerprint): boolean {
  return hamming(a.dhash, b.dhash) <= 8 && hamming(a.detail, b.detail) <= 8 && colorDistance(a, b) < 14;
}

/** Mean absolute Laplacian of the luminance: high-frequency energy (sharp edges, grain). */
export async function highFrequencyEnergy(image: Buffer): Promise<number> {
  const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
  const w = info.width;
  let sum = 0;
  let n = 0;
  for (let y = 1; y < info.height - 1; y += 2) {
    for (let x = 1; x < w - 1; x += 2) {
      const i = y * w + x;
      const lap =
        4 * (data[i] as number) -
        (data[i - 1] as number) -
        (data[i + 1] as number) -
        (data[i - w] as number) -
        (data[i + w] as number);
      sum += Math.abs(lap);
      n++;
    }
  }
  return sum / n;
}
