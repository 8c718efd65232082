import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Debian's ffprobe and ffmpeg, as `make install` installs them. */
const FFPROBE = '/usr/bin/ffprobe';
const FFMPEG = '/usr/bin/ffmpeg';

export interface VideoProbe {
  codec: string;
  pixFmt: string;
  width: number;
  height: number;
  frames: number;
  durationSeconds: number;
  formatName: string;
}

/** Writes `data` to a temp file for ffprobe and ffmpeg to read (removed by `withFile`). */
async function withFile<T>(data: Buffer, ext: string, work: (file: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-probe-'));
  const file = path.join(dir, `clip.${ext}`);
  fs.writeFileSync(file, data);
  try {
    return await work(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** What ffprobe reads of a video: codec, pixel format, size, counted frames, duration. */
export function probeVideo(data: Buffer, ext: string): Promise<VideoProbe> {
  return withFile(data, ext, async (file) => {
    const { stdout } = await run(FFPROBE, [
      ...['-v', 'error', '-count_frames', '-select_streams', 'v:0'],
      ...[
        '-show_entries',
        'stream=codec_name,pix_fmt,width,height,nb_read_frames:format=duration,format_name',
      ],
      ...['-of', 'json', file],
    ]);
    const parsed = JSON.parse(stdout) as {
      streams: {
        codec_name: string;
        pix_fmt: string;
        width: number;
        height: number;
        nb_read_frames: string;
      }[];
      format: { duration: string; format_name: string };
    };
    const stream = parsed.streams[0];
    if (!stream) throw new Error('no video stream');
    return {
      codec: stream.codec_name,
      pixFmt: stream.pix_fmt,
      width: stream.width,
      height: stream.height,
      frames: Number(stream.nb_read_frames),
      durationSeconds: Number(parsed.format.duration),
      formatName: parsed.format.format_name,
    };
  });
}

export interface RgbFrame {
  width: number;
  height: number;
  data: Buffer;
}

/** Every frame of a video decoded to RGB (small test clips only). */
export function decodeFrames(data: Buffer, ext: string): Promise<RgbFrame[]> {
  return withFile(data, ext, async (file) => {
    const probe = await probeVideo(data, ext);
    const { stdout } = await run(
      FFMPEG,
      ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
      {
        encoding: 'buffer',
        maxBuffer: 1024 * 1024 * 1024,
      },
    );
    const size = probe.width * probe.height * 3;
    const frames: RgbFrame[] = [];
    for (let offset = 0; offset + size <= stdout.length; offset += size) {
      frames.push({ width: probe.width, height: probe.height, data: stdout.subarray(offset, offset + size) });
    }
    return frames;
  });
}

/** Mean absolute difference per channel (0..255) between two RGB regions of equal size. */
export function meanDifference(
  a: RgbFrame,
  b: RgbFrame,
  region: { x: number; y: number; width: number; height: number },
  offsetB = { x: 0, y: 0 },
): number {
  let sum = 0;
  for (let y = 0; y < region.height; y++) {
    for (let x = 0; x < region.width; x++) {
      const ia = ((region.y + y) * a.width + region.x + x) * 3;
      const ib = ((offsetB.y + y) * b.width + offsetB.x + x) * 3;
      for (let c = 0; c < 3; c++) sum += Math.abs((a.data[ia + c] as number) - (b.data[ib + c] as number));
    }
  }
  return sum / (region.width * region.height * 3);
}

/** The RGB pixel at (x, y). */
export function pixelAt(frame: RgbFrame, x: number, y: number): [number, number, number] {
  const i = (y * frame.width + x) * 3;
  return [frame.data[i] as number, frame.data[i + 1] as number, frame.data[i + 2] as number];
}
