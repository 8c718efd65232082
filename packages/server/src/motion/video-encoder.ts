/**
 * The one door to ffmpeg (Debian's `ffmpeg`, found at start): raw RGBA frames stream into its
 * stdin one at a time, with back-pressure, and the encoded file is read back once it closed.
 * No frame is held after it is written; a GIF goes through a lossless intermediate file so that
 * its palette is computed from the whole clip without keeping the clip in memory.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { VideoFormat } from '@vitrine/contract';
import { AppError } from '../errors/app-error.ts';

export interface VideoSettings {
  format: VideoFormat;
  /** Size of the frames written (RGBA), in pixels. */
  width: number;
  height: number;
  fps: number;
  /** 1..100 (mp4, webm); absent: a quality chosen for crisp text. */
  quality: number | undefined;
  /** A clip meant to repeat (a float loop): GIFs loop in any case. */
  loop: boolean;
  /** Largest side of the encoded clip: larger frames are scaled down to fit. */
  maxSide: number;
}

export interface EncodedVideo {
  data: Buffer;
  /** The codec as ffprobe names it: h264, vp9, gif. */
  codec: string;
  /** The encoded size: H.264 and VP9 with 4:2:0 chroma need even sides, so an odd side loses its last pixel. */
  width: number;
  height: number;
  contentType: string;
}

export const VIDEO_CONTENT_TYPES: Record<VideoFormat, string> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  gif: 'image/gif',
};

/** A stream of frames going into ffmpeg: write each (awaiting back-pressure), then finish. */
export interface VideoSink {
  write(frame: Buffer): Promise<void>;
  finish(): Promise<EncodedVideo>;
  /** Stops ffmpeg and removes its files (a failed or cancelled render). Safe to call twice. */
  abort(): Promise<void>;
}

/** `quality` 1..100 onto a CRF (lower is better): 100 -> 14, the default 80 -> 22, 1 -> 51. */
function crfOf(quality: number | undefined, best: number, worst: number): number {
  const q = quality ?? 80;
  return Math.round(worst - ((worst - best) * (q - 1)) / 99);
}

const even = (n: number) => n - (n % 2);

/**
 * The encoded size: within `maxSide`, and even for H.264 and VP9 (4:2:0 chroma): an odd side
 * loses its last pixel rather than being resampled, so the frame stays sharp.
 */
export function encodedSize(settings: VideoSettings): { width: number; height: number; scaled: boolean } {
  const scale = Math.min(1, settings.maxSide / Math.max(settings.width, settings.height));
  const width = Math.max(2, Math.round(settings.width * scale));
  const height = Math.max(2, Math.round(settings.height * scale));
  const keepsOdd = settings.format === 'gif';
  return {
    width: keepsOdd ? width : even(width),
    height: keepsOdd ? height : even(height),
    scaled: scale < 1,
  };
}

function encoderArgs(settings: VideoSettings, output: string): string[] {
  const size = encodedSize(settings);
  const crop = size.scaled
    ? `scale=${size.width}:${size.height}:flags=lanczos`
    : `crop=${size.width}:${size.height}:0:0`;
  switch (settings.format) {
    case 'mp4':
      return [
        ...['-vf', `${crop},format=yuv420p`],
        ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'stillimage'],
        ...['-crf', String(crfOf(settings.quality, 10, 40)), '-profile:v', 'high'],
        ...['-movflags', '+faststart', output],
      ];
    case 'webm':
      return [
        ...['-vf', `${crop},format=yuv420p`],
        ...['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1'],
        ...['-crf', String(crfOf(settings.quality, 12, 50)), '-b:v', '0', output],
      ];
    case 'gif':
      // Lossless, fast and compact for screen content: the palette pass reads it twice.
      return [
        ...(size.scaled ? ['-vf', crop] : []),
        ...['-c:v', 'libx264rgb', '-preset', 'ultrafast', '-qp', '0', output],
      ];
  }
}

/** Runs ffmpeg to the end; rejects with its last lines of stderr. */
function runFfmpeg(ffmpegPath: string, args: string[], signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath, ['-hide_banner', '-loglevel', 'error', '-y', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    const onAbort = () => child.kill('SIGKILL');
    signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', reject);
    child.on('close', (code) => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) reject(signal.reason);
      else if (code === 0) resolve();
      else reject(new Error(`ffmpeg exited with ${code}: ${stderr.trim()}`));
    });
  });
}

/** The encode failed: the job fails with this reason (and its credits are refunded). */
function encodeFailed(cause: unknown): AppError {
  return new AppError('capture_failed', 'The video could not be encoded', {
    details: { reason: 'encode_failed' },
    cause,
  });
}

/**
 * Opens an encoder for `settings`: ffmpeg reads raw RGBA frames of exactly width x height from
 * its stdin. `finish` closes the stream, waits for the file (and, for a GIF, the palette and
 * dither passes), reads it and removes every temporary file.
 */
export async function openVideoSink(
  ffmpeg: { path: string; tempDir: string },
  settings: VideoSettings,
  signal: AbortSignal,
): Promise<VideoSink> {
  const ffmpegPath = ffmpeg.path;
  await mkdir(ffmpeg.tempDir, { recursive: true });
  const dir = await mkdtemp(join(ffmpeg.tempDir, 'video-'));
  const ext = settings.format === 'gif' ? 'mkv' : settings.format;
  const first = join(dir, `frames.${ext}`);
  const child = spawn(
    ffmpegPath,
    [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${settings.width}x${settings.height}`],
      ...['-r', String(settings.fps), '-i', 'pipe:0'],
      ...encoderArgs(settings, first),
    ],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
  // A write after ffmpeg died surfaces through `exited`; the pipe's own error is not the news.
  child.stdin.on('error', () => {});
  let closed = false;
  const abort = async () => {
    if (!closed) {
      closed = true;
      child.kill('SIGKILL');
      await exited.catch(() => null);
    }
    await rm(dir, { recursive: true, force: true });
  };
  const onAbort = () => void abort();
  signal.addEventListener('abort', onAbort, { once: true });

  const frameBytes = settings.width * settings.height * 4;
  return {
    async write(frame) {
      if (frame.length !== frameBytes) {
        throw new AppError('internal_error', 'A video frame does not match the video size', {
          cause: new Error(`frame of ${frame.length} bytes for ${settings.width}x${settings.height}`),
        });
      }
      if (closed || child.stdin.destroyed) throw encodeFailed(new Error(`ffmpeg stopped: ${stderr.trim()}`));
      if (!child.stdin.write(frame)) {
        await new Promise<void>((resolve, reject) => {
          const onDrain = () => {
            child.off('close', onClose);
            resolve();
          };
          const onClose = () => {
            child.stdin.off('drain', onDrain);
            reject(encodeFailed(new Error(`ffmpeg stopped: ${stderr.trim()}`)));
          };
          child.stdin.once('drain', onDrain);
          child.once('close', onClose);
        });
      }
    },
    async finish() {
      try {
        child.stdin.end();
        const code = await exited;
        closed = true;
        signal.throwIfAborted();
        if (code !== 0) throw encodeFailed(new Error(`ffmpeg exited with ${code}: ${stderr.trim()}`));
        let file = first;
        if (settings.format === 'gif') {
          const palette = join(dir, 'palette.png');
          file = join(dir, 'clip.gif');
          await runFfmpeg(ffmpegPath, ['-i', first, '-vf', 'palettegen=stats_mode=full', palette], signal);
          await runFfmpeg(
            ffmpegPath,
            [
              ...['-i', first, '-i', palette],
              ...['-lavfi', 'paletteuse=dither=sierra2_4a:diff_mode=rectangle', '-loop', '0', file],
            ],
            signal,
          );
        }
        const data = await readFile(file);
        const size = encodedSize(settings);
        return {
          data,
          codec: { mp4: 'h264', webm: 'vp9', gif: 'gif' }[settings.format],
          width: size.width,
          height: size.height,
          contentType: VIDEO_CONTENT_TYPES[settings.format],
        };
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        throw error instanceof AppError ? error : encodeFailed(error);
      } finally {
        signal.removeEventListener('abort', onAbort);
        await abort();
      }
    },
    abort,
  };
}

/**
 * Whether ffmpeg runs at `ffmpegPath`, with the encoders the motion stage uses: checked once at
 * start, so its absence is a clear error then and not at the first video.
 */
export async function checkFfmpeg(ffmpegPath: string): Promise<string | undefined> {
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(ffmpegPath, ['-hide_banner', '-encoders'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`exit code ${code}`))));
  }).catch((error: unknown) => {
    return `ffmpeg could not be run at ${ffmpegPath} (${error instanceof Error ? error.message : String(error)})`;
  });
  if (output.startsWith('ffmpeg could not')) return output;
  const missing = ['libx264', 'libx264rgb', 'libvpx-vp9'].filter(
    (name) => !new RegExp(`\\s${name}\\s`).test(output),
  );
  return missing.length > 0 ? `ffmpeg at ${ffmpegPath} lacks the encoders ${missing.join(', ')}` : undefined;
}
