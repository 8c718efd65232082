import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFfmpeg, encodedSize, openVideoSink } from './video-encoder.ts';

const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-encoder-test-'));
const ffmpeg = { path: '/usr/bin/ffmpeg', tempDir };
afterAll(() => fs.rmSync(tempDir, { recursive: true, force: true }));

const settings = {
  format: 'mp4' as const,
  width: 65,
  height: 33,
  fps: 10,
  quality: undefined,
  loop: false,
  maxSide: 2560,
};
const frame = (shade: number) => Buffer.alloc(65 * 33 * 4, shade);

describe('the ffmpeg door', () => {
  it('finds Debian ffmpeg with the encoders it needs, and says when one is missing', async () => {
    expect(await checkFfmpeg('/usr/bin/ffmpeg')).toBeUndefined();
    expect(await checkFfmpeg(path.join(tempDir, 'nope'))).toMatch(/could not be run/);
  });

  it('keeps sides even for H.264 and scales a clip over its limit', () => {
    expect(encodedSize(settings)).toEqual({ width: 64, height: 32, scaled: false });
    expect(encodedSize({ ...settings, format: 'gif' })).toEqual({ width: 65, height: 33, scaled: false });
    expect(encodedSize({ ...settings, width: 4000, height: 2000 })).toEqual({
      width: 2560,
      height: 1280,
      scaled: true,
    });
  });

  it('encodes the frames it is given and leaves no temporary file', async () => {
    const sink = await openVideoSink(ffmpeg, settings, new AbortController().signal);
    for (let i = 0; i < 5; i++) await sink.write(frame(i * 40));
    const video = await sink.finish();
    expect(video).toMatchObject({ codec: 'h264', width: 64, height: 32, contentType: 'video/mp4' });
    expect(video.data.subarray(4, 8).toString()).toBe('ftyp');
    expect(fs.readdirSync(tempDir)).toEqual([]);
  });

  it('refuses a frame of the wrong size, and an abort removes its files', async () => {
    const controller = new AbortController();
    const sink = await openVideoSink(ffmpeg, settings, controller.signal);
    await expect(sink.write(Buffer.alloc(10))).rejects.toThrow(/does not match/);
    await sink.write(frame(0));
    controller.abort(new Error('cancelled'));
    await expect(sink.finish()).rejects.toThrow();
    await sink.abort();
    expect(fs.readdirSync(tempDir)).toEqual([]);
  });
});
