import { OUTPUT_FORMATS } from '@vitrine/contract';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error.ts';
import { configureSharp } from './configure-sharp.ts';
import { encodeImage, looksPhotographic, pngLevel, type RawImage } from './encode-image.ts';
import { resolveOutputSize } from './output-size.ts';

/** A 400x250 RGBA image: left half opaque red, right half fully transparent. */
function halfTransparent(): RawImage {
  const width = 400;
  const height = 250;
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width / 2; x++) data.set([255, 0, 0, 255], (y * width + x) * 4);
  }
  return { data, width, height, channels: 4 };
}

/** A noisy opaque 320x200 PNG, so lossy quality settings make a visible difference in bytes. */
async function noisyPng(): Promise<Buffer> {
  const width = 320;
  const height = 200;
  const data = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = seed & 0xff;
  }
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

// sharp reports AVIF as its container, HEIF, with AV1 compression.
const SHARP_FORMAT = { png: 'png', webp: 'webp', jpg: 'jpeg', avif: 'heif' } as const;

describe('resolveOutputSize', () => {
  const source = { width: 1440, height: 900 };
  it('keeps the source size when nothing is asked', () => {
    expect(resolveOutputSize(source, {})).toEqual(source);
  });
  it('gives exactly the size asked when both sides are given, up or down', () => {
    expect(resolveOutputSize(source, { width: 400, height: 400 })).toEqual({ width: 400, height: 400 });
    expect(resolveOutputSize(source, { width: 3000, height: 100 })).toEqual({ width: 3000, height: 100 });
  });
  it('derives the other side from the aspect ratio when one is given', () => {
    expect(resolveOutputSize(source, { width: 720 })).toEqual({ width: 720, height: 450 });
    expect(resolveOutputSize(source, { height: 300 })).toEqual({ width: 480, height: 300 });
    expect(resolveOutputSize(source, { width: 2880 })).toEqual({ width: 2880, height: 1800 });
  });
  it('never derives a side below 1 or above the largest output side', () => {
    expect(resolveOutputSize({ width: 10_000, height: 10 }, { width: 100 })).toEqual({
      width: 100,
      height: 1,
    });
    expect(resolveOutputSize({ width: 1440, height: 16_384 }, { width: 6144 })).toEqual({
      width: 6144,
      height: 6144,
    });
  });
});

describe('encodeImage', () => {
  beforeAll(() => {
    configureSharp({ concurrency: 2 });
  });

  it.each(OUTPUT_FORMATS)('encodes %s at exactly the requested size from a raw buffer', async (format) => {
    const out = await encodeImage(halfTransparent(), { format, width: 123, height: 77 });
    expect(out).toMatchObject({ width: 123, height: 77, format });
    const meta = await sharp(out.data).metadata();
    expect(meta).toMatchObject({ format: SHARP_FORMAT[format], width: 123, height: 77 });
    expect(out.contentType).toBe(
      { png: 'image/png', webp: 'image/webp', jpg: 'image/jpeg', avif: 'image/avif' }[format],
    );
    if (format === 'avif') expect(meta.compression).toBe('av1');
  });

  it.each(OUTPUT_FORMATS)('encodes %s from encoded bytes with one side given', async (format) => {
    const out = await encodeImage(await noisyPng(), { format, width: 160 });
    const meta = await sharp(out.data).metadata();
    expect(meta).toMatchObject({ format: SHARP_FORMAT[format], width: 160, height: 100 });
    expect(out).toMatchObject({ width: 160, height: 100 });
  });

  it('keeps the source size and pixels without output sizes', async () => {
    const out = await encodeImage(halfTransparent(), { format: 'png' });
    const { data, info } = await sharp(out.data).raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ width: 400, height: 250, channels: 4 });
    expect([...data.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
    const right = (10 * 400 + 300) * 4;
    expect(data[right + 3]).toBe(0);
  });

  it('cover-crops around the centre by default and keeps the top when asked', async () => {
    // 100x300: top third blue, middle green, bottom red; cropped to 100x100.
    const width = 100;
    const height = 300;
    const data = Buffer.alloc(width * height * 4);
    for (let y = 0; y < height; y++) {
      const colour = y < 100 ? [0, 0, 255, 255] : y < 200 ? [0, 255, 0, 255] : [255, 0, 0, 255];
      for (let x = 0; x < width; x++) data.set(colour, (y * width + x) * 4);
    }
    const raw = { data, width, height, channels: 4 as const };
    const centre = await encodeImage(raw, { format: 'png', width: 100, height: 100 });
    const top = await encodeImage(raw, { format: 'png', width: 100, height: 100, position: 'top' });
    const pixel = async (png: Buffer) => [...(await sharp(png).raw().toBuffer()).subarray(0, 3)];
    expect(await pixel(centre.data)).toEqual([0, 255, 0]);
    expect(await pixel(top.data)).toEqual([0, 0, 255]);
  });

  it('flattens alpha onto white for jpg, or onto the given background', async () => {
    const white = await encodeImage(halfTransparent(), { format: 'jpg' });
    const navy = await encodeImage(halfTransparent(), { format: 'jpg', background: '#000080' });
    const pixelAt = async (jpg: Buffer, x: number) => {
      const { data, info } = await sharp(jpg).raw().toBuffer({ resolveWithObject: true });
      expect(info.channels).toBe(3);
      const i = (125 * info.width + x) * 3;
      return [data[i], data[i + 1], data[i + 2]] as number[];
    };
    const near = (actual: number[], expected: number[]) => {
      for (const [i, v] of actual.entries()) expect(Math.abs(v - expected[i]!)).toBeLessThanOrEqual(4);
    };
    near(await pixelAt(white.data, 350), [255, 255, 255]);
    near(await pixelAt(navy.data, 350), [0, 0, 128]);
    near(await pixelAt(white.data, 50), [255, 0, 0]);
  });

  it('keeps alpha in webp, avif and png, and drops it for opaque raw input', async () => {
    for (const format of ['png', 'webp', 'avif'] as const) {
      const meta = await sharp((await encodeImage(halfTransparent(), { format })).data).metadata();
      expect(meta.hasAlpha).toBe(true);
    }
    const opaque = { ...halfTransparent(), opaque: true };
    opaque.data.fill(255);
    const meta = await sharp((await encodeImage(opaque, { format: 'png' })).data).metadata();
    expect(meta).toMatchObject({ hasAlpha: false, channels: 3 });
    // Unflagged, the encoder finds out itself; one see-through pixel keeps the channel.
    const unflagged = { ...halfTransparent(), data: Buffer.alloc(400 * 250 * 4, 255) };
    for (const format of ['png', 'webp'] as const) {
      const found = await sharp((await encodeImage(unflagged, { format })).data).metadata();
      expect(found.hasAlpha).toBe(false);
    }
    unflagged.data[(125 * 400 + 399) * 4 + 3] = 254;
    const kept = await sharp((await encodeImage(unflagged, { format: 'png' })).data).metadata();
    expect(kept).toMatchObject({ hasAlpha: true, channels: 4 });
  });

  it.each(['webp', 'jpg', 'avif'] as const)('lower %s quality gives fewer bytes', async (format) => {
    const input = await noisyPng();
    const high = await encodeImage(input, { format, quality: 95 });
    const low = await encodeImage(input, { format, quality: 20 });
    const byDefault = await encodeImage(input, { format });
    expect(low.data.length).toBeLessThan(high.data.length);
    expect(byDefault.data.length).toBeLessThan(high.data.length);
    expect(byDefault.data.length).toBeGreaterThan(low.data.length);
  });

  it('encodes photographic images at a faster PNG level, flat ones at level 6, pixels unchanged', async () => {
    // The zlib header of the first IDAT chunk names the level's class: 2 for level 6, 1 for 2-5.
    const levelClass = (png: Buffer) => {
      const idat = png.indexOf('IDAT');
      return (png[idat + 5] as number) >> 6;
    };
    const width = 640;
    const height = 400;
    // Opaque RGBA, as a composed canvas comes: noise, and a page-like image of flat panels and a
    // smooth gradient band.
    const noise = Buffer.alloc(width * height * 4, 255);
    const flat = Buffer.alloc(width * height * 4, 255);
    let seed = 11;
    for (let i = 0; i < width * height; i++) {
      const y = Math.floor(i / width);
      const x = i % width;
      for (let c = 0; c < 3; c++) {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        noise[i * 4 + c] = seed >>> 24;
      }
      const panel =
        y < 60 ? [78, 115, 223] : x < 160 ? [Math.round((y / height) * 255), 90, 200] : [245, 245, 245];
      flat.set(panel, i * 4);
    }
    const raw = (data: Buffer): RawImage => ({ data, width, height, channels: 4 });
    const size = { width, height };
    const png = (data: Buffer) =>
      sharp(data, { raw: { width, height, channels: 4 } })
        .removeAlpha()
        .png({ compressionLevel: 1 })
        .toBuffer();
    const [noisePng, flatPng] = await Promise.all([png(noise), png(flat)]);
    expect(
      await Promise.all([looksPhotographic(raw(noise), size), looksPhotographic(noisePng, size)]),
    ).toEqual([true, true]);
    expect(await Promise.all([looksPhotographic(raw(flat), size), looksPhotographic(flatPng, size)])).toEqual(
      [false, false],
    );
    const rgb = (data: Buffer) =>
      sharp(data, { raw: { width, height, channels: 4 } })
        .removeAlpha()
        .raw()
        .toBuffer();
    for (const [input, photographic] of [
      [raw(noise), true],
      [raw(flat), false],
      [noisePng, true],
      [flatPng, false],
    ] as const) {
      const encoded = await encodeImage(input, { format: 'png' });
      expect(levelClass(encoded.data)).toBe(photographic ? 1 : 2);
      const pixels = await sharp(encoded.data).removeAlpha().raw().toBuffer();
      expect(pixels.equals(await rgb(photographic ? noise : flat))).toBe(true);
    }
  });

  it('writes a large flat image (a full page) at level 5, a smaller one at 6', async () => {
    const levelClass = (png: Buffer) => (png[png.indexOf('IDAT') + 5] as number) >> 6;
    const flatPage = (height: number): RawImage => {
      const width = 1440;
      const data = Buffer.alloc(width * height * 4, 250);
      for (let y = 0; y < height; y += 40) data.fill(30, y * width * 4, (y + 2) * width * 4);
      for (let i = 3; i < data.length; i += 4) data[i] = 255;
      return { data, width, height, channels: 4 };
    };
    expect(pngLevel(false, 4_000_000)).toBe(5);
    expect(pngLevel(false, 3_999_999)).toBe(6);
    expect(pngLevel(true, 14_400_000)).toBe(4);
    const [page, screen] = await Promise.all([
      encodeImage(flatPage(3000), { format: 'png' }),
      encodeImage(flatPage(900), { format: 'png' }),
    ]);
    expect([levelClass(page.data), levelClass(screen.data)]).toEqual([1, 2]);
  });

  it('refuses inputs over the pixel limit as too_large', async () => {
    const error = await encodeImage(halfTransparent(), { format: 'png', maxInputPixels: 1000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'capture_failed', details: { reason: 'too_large' } });
    const encoded = await encodeImage(await noisyPng(), { format: 'png', maxInputPixels: 1000 }).catch(
      (e: unknown) => e,
    );
    expect(encoded).toMatchObject({ code: 'capture_failed', details: { reason: 'too_large' } });
  });

  it('reports undecodable bytes as render_failed', async () => {
    const error = await encodeImage(Buffer.from('not an image'), { format: 'png' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'capture_failed', details: { reason: 'render_failed' } });
  });
});
